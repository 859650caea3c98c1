"""Spec 15.4 move-legality cases (ML1-ML18), worked examples 9.2-9.5 and 9.8, and the turn rules."""

from __future__ import annotations

from collections import Counter

import pytest

from bot.rules.core import GameOver, IllegalMove, NotYourTurn
from bot.rules.quadropolis import tiles as T
from bot.rules.quadropolis.rules import RULES
from bot.rules.quadropolis.state import PHASE_BUILD, PHASE_TAKE
from tests.quadropolis.helpers import (
    build_city,
    build_squares,
    first_of_type,
    give_pending,
    new_game,
    put_on_site,
    site_cell,
)


def takes(state, value: int | None = None) -> set[str]:  # type: ignore[no-untyped-def]
    return {
        m["slot"]
        for m in RULES.legal_moves(state, state.current)
        if m["kind"] == "take" and (value is None or m["architect"] == value)
    }


def refused(state, move, key: str) -> None:  # type: ignore[no-untyped-def]
    with pytest.raises(IllegalMove) as info:
        RULES.apply(state, state.current, move)
    assert info.value.key == key


def test_ML1() -> None:
    """Start of a round, urbanist off the site: all 20 slots legal for every architect."""
    for mode in ("classic", "expert"):
        s = new_game(mode)
        assert s.urbanist is None
        for value in s.rules.architects:
            assert takes(s, value) == set(T.SLOTS)


def test_ML2() -> None:
    """Urbanist on S(3,2): L3, R3, T2, B2 illegal for every value; #5 at L1 legal (targets S(1,5))."""
    s = new_game("expert")
    s.urbanist = site_cell("S(3,2)")
    for value in range(1, 6):
        assert takes(s, value) == set(T.SLOTS) - {"L3", "R3", "T2", "B2"}
    refused(s, {"kind": "take", "architect": 1, "slot": "T2"}, "quadropolis.take.urbanist_column")
    refused(s, {"kind": "take", "architect": 4, "slot": "R3"}, "quadropolis.take.urbanist_row")
    assert T.slot_target("L1", 5) == site_cell("S(1,5)")
    RULES.apply(s, s.current, {"kind": "take", "architect": 5, "slot": "L1"})


def test_ML3() -> None:
    """L4 used this round, urbanist on S(1,1): L4 illegal, R4 legal; #2 at R4 targets S(4,4)."""
    s = new_game("classic")
    s.slots["L4"] = [3, 1]
    s.urbanist = site_cell("S(1,1)")
    assert "L4" not in takes(s) and "R4" in takes(s)
    refused(s, {"kind": "take", "architect": 2, "slot": "L4"}, "quadropolis.take.slot_taken")
    assert T.slot_target("R4", 2) == site_cell("S(4,4)")


def test_ML4() -> None:
    """#4 at B5 targets S(2,5) and the urbanist moves there."""
    s = new_game("classic", 4)
    after = RULES.apply(s, s.current, {"kind": "take", "architect": 4, "slot": "B5"})
    assert after.urbanist == site_cell("S(2,5)")


def test_ML5() -> None:
    """2 players, face-down target: nothing taken, no build, urbanist moves, architect used."""
    s = new_game("classic", 2)
    index = s.face_down.index(True)
    r, c = divmod(index, 5)
    seat = s.current
    after = RULES.apply(s, seat, {"kind": "take", "architect": c + 1, "slot": f"L{r + 1}"})
    assert after.urbanist == (r, c)
    assert after.pending is None and after.phase == PHASE_TAKE
    assert after.current != seat
    assert c + 1 not in after.seats[seat].architects
    assert after.site[index] == s.site[index] and after.face_down[index]
    assert after.seats[seat].inhabitants == 0 and after.seats[seat].energy == 0


def test_ML6() -> None:
    """A target emptied earlier this round: same as ML5, nothing taken and the turn passes."""
    s = new_game("classic", 3)
    s.site[0] = None
    seat = s.current
    after = RULES.apply(s, seat, {"kind": "take", "architect": 1, "slot": "T1"})
    assert after.urbanist == (0, 0) and after.pending is None and after.current != seat
    assert "T1" in after.slots


def test_ML7() -> None:
    """Classic, empty city, #2, a shop: row 2 and column 2 (7 squares), or discard."""
    s = give_pending(new_game("classic"), first_of_type("classic", "SHOP"), 2)
    assert build_squares(s) == dict.fromkeys(["A2", "B1", "B2", "B3", "B4", "C2", "D2"], 1)
    assert {"kind": "discard"} in RULES.legal_moves(s, s.current)


def test_ML8() -> None:
    """Classic #3 tower: stack on C(1,1) h2 (floor 3) and C(3,4) h1 (row 3); not C(1,2) h1 nor C(3,3) h4."""
    s = new_game("classic")
    tower = first_of_type("classic", "TOWER", mayor=False)
    build_city(s, s.current, {"A1": [tower] * 2, "C4": [tower], "A2": [tower], "C3": [tower] * 4})
    give_pending(s, tower, 3)
    squares = build_squares(s)
    assert squares["A1"] == 3 and squares["C4"] == 2
    assert "A2" not in squares and "C3" not in squares
    assert {sq for sq, f in squares.items() if f == 1} == {"C1", "C2", "A3", "B3", "D3"}
    refused(s, {"kind": "build", "square": "C3", "floor": 5}, "quadropolis.build.full")
    refused(s, {"kind": "build", "square": "A2", "floor": 2}, "quadropolis.build.stack_out_of_reach")


def test_ML9() -> None:
    """Classic #3 shop with row 3 and column 3 full: the only move is to discard."""
    s = new_game("classic")
    park = first_of_type("classic", "PARK")
    build_city(s, s.current, {sq: [park] for sq in ["C1", "C2", "C3", "C4", "A3", "B3", "D3"]})
    give_pending(s, first_of_type("classic", "SHOP"), 3)
    assert RULES.play_moves(s, s.current) == [{"kind": "discard"}]
    seat = s.current
    after = RULES.apply(s, seat, {"kind": "discard"})
    assert after.seats[seat].inhabitants == 0 and after.discarded == ["K08#1"]


def test_ML10() -> None:
    """Expert, empty city, #4 park: district 4 (column 3) and field 4 squares."""
    s = give_pending(new_game("expert"), first_of_type("expert", "PARK"), 4)
    assert set(build_squares(s)) == {"A3", "B3", "C3", "D3", "B2", "B5", "D1", "D5"}


def test_ML11() -> None:
    """Expert, empty city, #5: district 5 and field 5 squares."""
    s = give_pending(new_game("expert"), first_of_type("expert", "SHOP"), 5)
    assert set(build_squares(s)) == {"C1", "C2", "D1", "D2", "B1", "B4", "D3", "D4"}


@pytest.mark.parametrize(("architect", "allowed"), [(1, True), (2, True), (3, False), (4, True), (5, False)])
def test_ML12(architect: int, allowed: bool) -> None:
    """Expert office h3 at C(1,1) (district 1, field 2): stack with #1, #2, #4 (floor 4); not #3, #5."""
    s = new_game("expert")
    office = first_of_type("expert", "OFFICE")
    build_city(s, s.current, {"A1": [office] * 3})
    give_pending(s, office, architect)
    assert (build_squares(s).get("A1") == 4) is allowed


def test_ML13() -> None:
    """Expert tower h4 at C(4,5), #5: floor 5 allowed; then the stack is full."""
    s = new_game("expert")
    tower = first_of_type("expert", "TOWER", mayor=False)
    seat = s.current
    build_city(s, seat, {"D5": [tower] * 4})
    give_pending(s, tower, 5)
    assert build_squares(s)["D5"] == 5
    after = RULES.apply(s, seat, {"kind": "build", "square": "D5", "floor": 5})
    assert len(after.seats[seat].city[3][4]) == 5
    give_pending(after, tower, 5)
    after.first = seat
    after.turn = 0
    assert "D5" not in build_squares(after)


def test_ML14() -> None:
    """Expert, 2 players: pool of two each of #1-#5; 4 turns each; 2 left at round end; #5 twice."""
    s = new_game("expert", 2)
    assert s.pool == [2, 2, 2, 2, 2]
    seat = s.current
    used = Counter()
    fives = 0
    for turn in range(8):
        if turn == 7:
            assert sum(s.pool) == 3  # the last turn uses one: 2 are left unused
        mover = s.current
        options = [m for m in RULES.legal_moves(s, mover) if m["kind"] == "take"]
        if mover == seat and s.pool[4]:
            move = next(m for m in options if m["architect"] == 5)
            fives += 1
        else:
            move = next(m for m in options if m["architect"] != 5)
        used[mover] += 1
        s = RULES.apply(s, mover, move)
        if s.phase == PHASE_BUILD:
            s = RULES.apply(s, mover, {"kind": "discard"})
    assert fives == 2
    assert used == {0: 4, 1: 4}
    assert s.round == 2 and s.pool == [2, 2, 2, 2, 2]


def _play_to_mayor(builder_discards: bool):  # type: ignore[no-untyped-def]
    s = new_game("classic", 4, seed=5)
    s.first = s.mayor = 0
    mayor = next(k.id for k in T.KINDS if k.mayor and k.round == 1)
    # P1 (seat 0) passes on a cleared square; P2 (seat 1) takes the mayor tower with #1 from L1.
    s.site[4 * 5 + 4] = None
    s = RULES.apply(s, 0, {"kind": "take", "architect": 1, "slot": "R5"})
    put_on_site(s, mayor, (0, 0))
    s = RULES.apply(s, 1, {"kind": "take", "architect": 1, "slot": "L1"})
    assert s.pending is not None and T.kind_of(s.pending).mayor
    if builder_discards:
        return RULES.apply(s, 1, {"kind": "discard"})
    return RULES.apply(s, 1, {"kind": "build", "square": "A1"})


def test_ML15() -> None:
    """P2 builds the mayor tower: +1 inhabitant and the pawn at once; round 2 starts with P2."""
    s = _play_to_mayor(builder_discards=False)
    assert s.mayor == 1 and s.seats[1].inhabitants == 1
    assert s.current == 2 and s.first == 0
    while s.round == 1:
        s = RULES.apply(s, s.current, RULES.ai_move(s, s.current, "random", s.turn))
    assert s.first == 1 and s.current == 1


def test_example_9_8() -> None:
    """Worked example 9.8: the builder of the mayor tower starts the next round."""
    s = _play_to_mayor(builder_discards=False)
    while s.round == 1:
        s = RULES.apply(s, s.current, RULES.ai_move(s, s.current, "greedy", 100 + s.turn))
    assert s.mayor == 1 and s.first == 1


def test_ML16() -> None:
    """Taking the mayor tower and discarding it moves no pawn and gives no inhabitant."""
    s = _play_to_mayor(builder_discards=True)
    assert s.mayor == 0 and s.seats[1].inhabitants == 0


def _kinds(state, face_down: bool) -> list[str]:  # type: ignore[no-untyped-def]
    return sorted(
        {T.kind_of(t).id for t, d in zip(state.site, state.face_down) if d is face_down}, key=lambda k: int(k[1:])
    )


def test_ML17() -> None:
    """Classic, 3 players, round 1: the five tiles marked 4 stay face down."""
    s = new_game("classic", 3, seed=12)
    assert _kinds(s, True) == ["K06", "K09", "K12", "K15", "K21"]
    assert sum(not d for d in s.face_down) == 20


def test_ML18() -> None:
    """Classic, 2 players, round 1: 16 unmarked tiles face up; the nine marked ones face down."""
    s = new_game("classic", 2, seed=13)
    assert _kinds(s, True) == ["K05", "K06", "K09", "K11", "K12", "K15", "K18", "K21", "K23"]
    assert sum(not d for d in s.face_down) == 16


def test_four_players_turn_everything_up() -> None:
    """With 4 players all 25 tiles are face up."""
    assert not any(new_game("expert", 4).face_down)


def test_example_9_2() -> None:
    """Worked example 9.2: #2 at L3 takes S(3,2); the next player may not use L3, R3, T2, B2."""
    s = new_game("classic", 2)
    public = first_of_type("classic", "PUBLIC")
    tid = put_on_site(s, public, site_cell("S(3,2)"))
    after = RULES.apply(s, s.current, {"kind": "take", "architect": 2, "slot": "L3"})
    assert after.pending == tid and after.urbanist == site_cell("S(3,2)")
    after = RULES.apply(after, after.current, {"kind": "discard"})
    assert not ({"L3", "R3", "T2", "B2"} & takes(after))


def test_example_9_3() -> None:
    """Worked example 9.3: with #2 green may build in row 2 or column 2 (7 squares)."""
    s = give_pending(new_game("classic"), first_of_type("classic", "PARK"), 2)
    assert len(build_squares(s)) == 7


def test_example_9_4() -> None:
    """Worked example 9.4: #3 tower may be floor 3 on a 2-floor tower anywhere, not floor 2 off the lines."""
    s = new_game("classic")
    tower = first_of_type("classic", "TOWER", mayor=False)
    build_city(s, s.current, {"A1": [tower] * 2, "A2": [tower]})
    give_pending(s, tower, 3)
    squares = build_squares(s)
    assert squares.get("A1") == 3 and "A2" not in squares
    assert {"A3", "B3", "C1", "C2", "C3", "C4", "D3"} <= set(squares)


def test_example_9_5() -> None:
    """Worked example 9.5: a harbour showing 1 inhabitant + 1 energy gives them at once."""
    s = new_game("classic")
    seat = s.current
    give_pending(s, next(k.id for k in T.KINDS if k.type == "HARBOR" and k.gives_inh == 1 and k.gives_nrg == 1), 1)
    after = RULES.apply(s, seat, {"kind": "build", "square": "A1"})
    assert (after.seats[seat].inhabitants, after.seats[seat].energy) == (1, 1)


def test_stacking_needs_same_type_and_floor_field() -> None:
    """Nothing stacks on another type; a stack move must name the next floor; a new one none."""
    s = new_game("expert")
    tower = first_of_type("expert", "TOWER", mayor=False)
    office = first_of_type("expert", "OFFICE")
    build_city(s, s.current, {"A3": [office]})
    give_pending(s, tower, 1)
    refused(s, {"kind": "build", "square": "A3", "floor": 2}, "quadropolis.build.occupied")
    build_city(s, s.current, {"A3": [tower]})
    refused(s, {"kind": "build", "square": "A3"}, "quadropolis.build.floor_needed")
    refused(s, {"kind": "build", "square": "A3", "floor": 3}, "quadropolis.build.floor_mismatch")
    refused(s, {"kind": "build", "square": "A4", "floor": 1}, "quadropolis.build.floor_on_empty")
    refused(s, {"kind": "build", "square": "D5"}, "quadropolis.build.out_of_reach")
    refused(s, {"kind": "build", "square": "E1"}, "quadropolis.build.bad_square")


def test_classic_architects_once_per_round() -> None:
    """Classic: each architect of a player is used once per round and all come back next round."""
    s = new_game("classic", 2)
    seat = s.current
    s = RULES.apply(s, seat, {"kind": "take", "architect": 3, "slot": "T5"})
    if s.phase == PHASE_BUILD:
        s = RULES.apply(s, seat, {"kind": "discard"})
    s = RULES.apply(s, s.current, {"kind": "take", "architect": 1, "slot": "L1"})
    if s.phase == PHASE_BUILD:
        s = RULES.apply(s, s.current, {"kind": "discard"})
    assert s.current == seat and 3 not in {m.get("architect") for m in RULES.legal_moves(s, seat)}
    refused(s, {"kind": "take", "architect": 3, "slot": "L2"}, "quadropolis.take.architect_used")


def test_round_cleanup_and_end_of_game() -> None:
    """Rounds: 4 Classic / 5 Expert of 4 turns each; clean-up returns the site, frees slots and architects."""
    for mode, rounds in (("classic", 4), ("expert", 5)):
        s = new_game(mode, 3, seed=21)
        turns = Counter()
        while not s.over:
            before_round = s.round
            seat = s.current
            s = RULES.apply(s, seat, RULES.ai_move(s, seat, "random", 7))
            if s.phase == PHASE_BUILD:
                s = RULES.apply(s, seat, RULES.ai_move(s, seat, "random", 8))
            turns[seat] += 1
            if s.round != before_round:
                assert s.urbanist is None and s.slots == {} and s.turn == 0
                assert s.first == s.mayor and s.current == s.mayor
                if mode == "classic":
                    assert all(p.architects == [1, 2, 3, 4] for p in s.seats)
                else:
                    assert s.pool == [3] * 5
        assert s.round == rounds
        assert turns == {0: 4 * rounds, 1: 4 * rounds, 2: 4 * rounds}
        assert RULES.legal_moves(s, 0) == [] and RULES.awaiting(s) == frozenset()
        with pytest.raises(GameOver):
            RULES.apply(s, 0, {"kind": "discard"})


def test_not_your_turn() -> None:
    """Only the awaited seat may move."""
    s = new_game("classic", 2)
    other = 1 - s.current
    assert RULES.legal_moves(s, other) == []
    with pytest.raises(NotYourTurn):
        RULES.apply(s, other, {"kind": "take", "architect": 1, "slot": "L1"})


def test_phases_are_enforced() -> None:
    """Build/discard only after a take; no second take before building."""
    s = new_game("classic", 4)
    refused(s, {"kind": "discard"}, "quadropolis.phase.take_first")
    refused(s, {"kind": "build", "square": "A1"}, "quadropolis.phase.take_first")
    after = RULES.apply(s, s.current, {"kind": "take", "architect": 1, "slot": "L1"})
    assert after.phase == PHASE_BUILD
    refused(after, {"kind": "take", "architect": 2, "slot": "L2"}, "quadropolis.phase.build_first")


def test_malformed_moves_are_refused() -> None:
    """Unknown kinds, extra fields and wrong types get sentences."""
    s = new_game("expert", 2)
    refused(s, {"kind": "fly"}, "quadropolis.move.unknown")
    refused(s, {"kind": "take", "architect": 1, "slot": "L1", "x": 1}, "quadropolis.move.extra_field")
    refused(s, {"kind": "take", "architect": "1", "slot": "L1"}, "quadropolis.take.bad_architect")
    refused(s, {"kind": "take", "architect": True, "slot": "L1"}, "quadropolis.take.bad_architect")
    refused(s, {"kind": "take", "architect": 6, "slot": "L1"}, "quadropolis.take.bad_architect")
    refused(s, {"kind": "take", "architect": 1, "slot": "X9"}, "quadropolis.take.bad_slot")
