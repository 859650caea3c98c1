"""Setup, actions, the Architect obligation, the end of the game (spec 7–9; TC-01, TC-03–10, TC-22, TC-23)."""

from __future__ import annotations

import pytest

from bot.rules import core
from bot.rules.core import IllegalMove
from bot.rules.urbanpanic import tiles
from bot.rules.urbanpanic.rules import RULES
from bot.rules.urbanpanic.state import census, manifest_census

from .helpers import board_with, full_board, minimal_turn, play, player, sq, turn_state

ARCH = {"kind": "architect", "slot": 1}
END = {"kind": "end_turn"}
MAYOR = {"kind": "mayor"}


def refused(state, move, key, seat=None):
    with pytest.raises(IllegalMove) as info:
        RULES.apply(state, state.current if seat is None else seat, move)
    assert info.value.key == key, info.value
    return info.value


# -- TC-01 ----------------------------------------------------------------------------------


def test_TC01_basic_setup():
    """TC-01: basic, 3 players: 4 face-up tiles, stack 116, empty boards, reserves and tracks."""
    s = RULES.setup({"variant": "basic"}, 3, 7)
    assert all(slot is not None for slot in s.slots) and len(s.slots) == 4
    assert len(s.stack) == 116
    for p in s.players:
        assert p.tiles_on_board() == 0 and p.reserve == [] and p.tracks == [0, 0, 0, 0, 0]
        assert len(p.empty_plots()) == 24
    assert s.discard == [] and s.goals == []
    assert census(s) == manifest_census()


@pytest.mark.parametrize(("seats", "cards"), [(2, 3), (3, 4), (4, 5)])
def test_TC01_advanced_setup_deals_players_plus_one_goal(seats, cards):
    """TC-01: advanced games lay players + 1 distinct goal cards face-up."""
    s = RULES.setup({"variant": "advanced"}, seats, 11)
    assert len(s.goals) == cards and len(set(s.goals)) == cards
    assert len(s.stack) == 116


def test_TC01_party_setup():
    """TC-01: party, 4 players: pool 120, open table empty, no slots, no goal cards."""
    s = RULES.setup({"variant": "party"}, 4, 3)
    assert len(s.stack) == 120 and s.open_table == [] and s.slots == [] and s.goals == []
    assert RULES.awaiting(s) == frozenset({0, 1, 2, 3})


def test_setup_is_seeded_and_start_player_random():
    """The same seed gives the same game; the start player varies with the seed (D-15)."""
    a = RULES.setup({}, 3, 5)
    assert RULES.to_json(a) == RULES.to_json(RULES.setup({}, 3, 5))
    assert {RULES.setup({}, 4, seed).current for seed in range(40)} == {0, 1, 2, 3}


def test_seat_range_and_options():
    """2–4 players (D-27); unknown variants are refused with a sentence."""
    assert RULES.seat_range({}) == (2, 4)
    with pytest.raises(IllegalMove) as info:
        RULES.setup({}, 5, 1)
    assert info.value.key == "urbanpanic.seats"
    with pytest.raises(IllegalMove):
        RULES.setup({"variant": "solo"}, 2, 1)


# -- TC-03 ----------------------------------------------------------------------------------


def test_TC03_floor_on_planner():
    """TC-03: housing would push income to −6 (refused); park and amusement park reach −5 (legal)."""
    s = turn_state([player(tracks=(8, 6, 1, -4, 0), reserve=["HOU-NS", "PRK-NES", "AMU-NE"])])
    err = refused(s, {"kind": "planner", "tile": "HOU-NS", "plot": "A1"}, "urbanpanic.floor")
    assert err.params["track"] == tiles.track_term("income") and err.params["value"] == -6
    after = play(s, {"kind": "planner", "tile": "PRK-NES", "plot": "A1"})
    assert after.players[0].tracks == [8, 6, 4, -5, 1]
    after = play(s, {"kind": "planner", "tile": "AMU-NE", "plot": "A1"})
    assert after.players[0].tracks == [8, 7, 0, -5, 4]
    listed = {(m["tile"]) for m in RULES.legal_moves(s, 0) if m["kind"] == "planner"}
    assert listed == {"PRK-NES", "AMU-NE"}


# -- TC-04 ----------------------------------------------------------------------------------


def test_TC04_full_reserve_forces_a_planner_before_the_architect():
    """TC-04: full reserve: Architect refused; Mayor allowed, then Engineer refused; Planner, Architect."""
    me = player(board=board_with({"A1": "PRK-NESW", "B1": "PRK-NESW"}), reserve=["PRK-NES", "PRK-ESW", "PRK-NE"])
    s = turn_state([me])
    refused(s, ARCH, "urbanpanic.architect.reserve_full")
    refused(s, END, "urbanpanic.end_turn.owed")
    s = play(s, MAYOR)
    assert s.points == 2
    refused(s, {"kind": "engineer_board", "plot": "A1", "other": "B1"}, "urbanpanic.owed.architect")
    refused(s, {"kind": "engineer_reserve", "plot": "A1", "tile": "PRK-NES"}, "urbanpanic.owed.architect")
    s = play(s, {"kind": "planner", "tile": "PRK-NES", "plot": "C2"}, ARCH)
    assert s.points == 0 and s.architect_done
    refused(s, MAYOR, "urbanpanic.no_points")


def test_TC04_end_turn_at_start_refused():
    """TC-04: END_TURN right at the start is refused while the Architect is owed and possible."""
    s = turn_state([player(reserve=["PRK-NES", "PRK-ESW", "PRK-NE"])])
    refused(s, END, "urbanpanic.end_turn.owed")
    assert {"kind": "end_turn"} not in RULES.legal_moves(s, 0)


# -- TC-05 ----------------------------------------------------------------------------------


def test_TC05_three_architects_then_no_points():
    """TC-05: three Architects fill the reserve; a 4th action is refused; END_TURN is legal."""
    s = turn_state()
    s = play(s, ARCH, ARCH, ARCH)
    assert len(s.players[0].reserve) == 3 and s.points == 0
    refused(s, ARCH, "urbanpanic.no_points")
    assert RULES.legal_moves(s, 0) == [END]
    assert play(s, END).current == 1


def test_TC05_planner_needs_a_reserve_tile():
    """TC-05: PLANNER as first action with an empty reserve is refused."""
    refused(turn_state(), {"kind": "planner", "tile": "HOU-NS", "plot": "A1"}, "urbanpanic.tile.not_in_reserve")


def test_TC05_mayor_mayor_architect():
    """TC-05: MAYOR, MAYOR, ARCHITECT is legal and discards 8 tiles; MAYOR, MAYOR, END_TURN is refused."""
    s = play(turn_state(stack=20), MAYOR, MAYOR)
    refused(s, END, "urbanpanic.end_turn.owed")
    s = play(s, ARCH)
    assert len(s.discard) == 8 and s.points == 0
    assert len(s.stack) == 20 - 8 - 1


def test_TC05_planner_then_engineer_board():
    """TC-05: PLANNER then ENGINEER_BOARD leaves 1 point and an empty reserve, so it is allowed."""
    me = player(board=board_with({"A1": "PRK-NESW", "B1": "HOU-NESW"}), reserve=["PRK-NES"])
    s = play(
        turn_state([me]),
        {"kind": "planner", "tile": "PRK-NES", "plot": "E5"},
        {"kind": "engineer_board", "plot": "A1", "other": "E5"},
        ARCH,
    )
    assert s.points == 0 and s.architect_done


# -- TC-06 ----------------------------------------------------------------------------------


def test_TC06_engineer_reserve_full_reversal():
    """TC-06: swapping a factory for a park subtracts the factory's whole row and adds the park's."""
    me = player(board=board_with({"D3": "FAC-NE"}), tracks=(12, 15, -3, 6, 0), reserve=["PRK-NES"])
    s = play(turn_state([me]), {"kind": "engineer_reserve", "plot": "D3", "tile": "PRK-NES"})
    p = s.players[0]
    assert p.tracks == [12, 12, 1, 2, 1]
    assert p.board[sq("D3")] == "PRK-NES" and p.reserve == ["FAC-NE"]


def test_TC06_engineer_reserve_floor():
    """TC-06: refused if income would end at −6; at E −5 a power plant is refused, an amusement park legal."""
    me = player(board=board_with({"D3": "FAC-NE"}), tracks=(12, 15, -3, -2, 0), reserve=["PRK-NES"])
    refused(turn_state([me]), {"kind": "engineer_reserve", "plot": "D3", "tile": "PRK-NES"}, "urbanpanic.floor")
    me = player(board=board_with({"D3": "FAC-NE"}), tracks=(12, 15, -5, 6, 0), reserve=["POW-NS", "AMU-NE"])
    s = turn_state([me])
    refused(s, {"kind": "engineer_reserve", "plot": "D3", "tile": "POW-NS"}, "urbanpanic.floor")
    s = play(s, {"kind": "engineer_reserve", "plot": "D3", "tile": "AMU-NE"})
    assert s.players[0].tracks == [12, 13, -5, 2, 4]


# -- TC-07 ----------------------------------------------------------------------------------


def test_TC07_engineer_board_repairs_connections_tracks_unchanged():
    """TC-07: swapping C2 and D3 connects both tiles; the tracks stay (4, 1, −2, 2, −2)."""
    me = player(board=board_with({"C2": "HOU-EW", "D3": "POW-NS"}), tracks=(4, 1, -2, 2, -2))
    s = turn_state([me])
    assert tiles.reachable(me.board) == set()
    after = play(s, {"kind": "engineer_board", "plot": "C2", "other": "D3"})
    p = after.players[0]
    assert p.board[sq("C2")] == "POW-NS" and p.board[sq("D3")] == "HOU-EW"
    assert tiles.reachable(p.board) == {sq("C2"), sq("D3")}
    assert p.tracks == [4, 1, -2, 2, -2]
    refused(s, {"kind": "engineer_board", "plot": "C2", "other": "C2"}, "urbanpanic.engineer.same_plot")
    refused(s, {"kind": "engineer_board", "plot": "C2", "other": "A1"}, "urbanpanic.plot.empty")
    refused(s, {"kind": "engineer_board", "plot": "C2", "other": "C3"}, "urbanpanic.centre")


# -- TC-08 ----------------------------------------------------------------------------------


def test_TC08_mayor_basic():
    """TC-08: the Mayor discards the 4 face-up tiles and draws 4 from the top of the stack."""
    s = turn_state(slots=["HOU-NS", "OFF-NESW", "FAC-NE", "PRK-SW"], stack=10)
    top4 = list(reversed(s.stack[-4:]))
    after = play(s, MAYOR)
    assert after.discard == ["HOU-NS", "OFF-NESW", "FAC-NE", "PRK-SW"]
    assert after.slots == top4 and len(after.stack) == 6


def test_TC08_mayor_needs_four_tiles():
    """TC-08: with 3 tiles in the stack the Mayor is refused (D-9)."""
    refused(turn_state(stack=3), MAYOR, "urbanpanic.mayor.stack")


# -- TC-09 ----------------------------------------------------------------------------------


def test_TC09_basic_refill_and_trigger_b():
    """TC-09: the refill empties the stack; the next Architect fires trigger B; the game ends after P2."""
    s = turn_state(seats=3, current=1, stack=["PRK-NES"])
    s = play(s, {"kind": "architect", "slot": 2})
    assert s.slots[1] == "PRK-NES" and s.stack == [] and not s.trigger_b
    s = play(s, {"kind": "architect", "slot": 4})
    assert s.trigger_b and s.slots[3] is None
    refused(s, MAYOR, "urbanpanic.mayor.stack")
    refused(s, {"kind": "architect", "slot": 4}, "urbanpanic.architect.empty_slot")
    s3 = play(s, {"kind": "architect", "slot": 1})  # D-29: allowed, no refill
    assert s3.slots[0] is None and len(s3.players[1].reserve) == 3
    over = play(s3, END)
    assert over.over and over.end_reason == "stack"
    assert RULES.awaiting(over) == frozenset()
    with pytest.raises(core.GameOver):
        RULES.apply(over, 2, ARCH)
    assert play(s, END).over


# -- TC-10 ----------------------------------------------------------------------------------


def _tc10_state(stack: int = 40):
    almost = full_board(empty=("E5",))
    p3 = player(board=almost, tracks=(0, 0, 0, 0, 0), reserve=["PRK-NW"])
    players = [player(), player(), p3, player()]
    return turn_state(players, seats=4, current=2, stack=stack)


def test_TC10_trigger_a_and_the_extra_turns():
    """TC-10: P3 fills the city; P3 still owes the Architect; P4, P1, P2 play once more; then the end."""
    s = play(_tc10_state(), {"kind": "planner", "tile": "PRK-NW", "plot": "E5"})
    assert s.first_finisher == 2
    refused(s, END, "urbanpanic.end_turn.owed")
    s = play(s, ARCH, END)
    order = []
    while not s.over:
        order.append(s.current)
        s = minimal_turn(s)
    assert order == [3, 0, 1]
    assert s.end_reason == "full_city"


def test_TC10_trigger_b_during_the_extra_turns():
    """TC-10 variant: the stack runs out during P1's extra turn; the game ends after it, P2 never plays."""
    s = play(_tc10_state(stack=2), {"kind": "planner", "tile": "PRK-NW", "plot": "E5"}, ARCH, END)
    s = minimal_turn(s)  # P4 takes the last tile of the stack
    assert s.current == 0 and s.stack == []
    s = play(s, ARCH)
    assert s.trigger_b
    s = play(s, END)
    assert s.over and s.end_reason == "stack"


# -- TC-22 / TC-23 -------------------------------------------------------------------------


def _stuck_player():
    b = full_board(empty=[tiles.square_name(i) for i in tiles.PLOTS[:10]], code="HOU-NESW")
    return player(board=b, tracks=(10, 9, 0, -5, -4), reserve=["HOU-NS", "HOU-EW", "PRK-NE"])


def test_TC22_stuck_player_may_end_the_turn():
    """TC-22: no legal Planner and a full reserve: END_TURN is legal at once; discarding is refused."""
    s = turn_state([_stuck_player()])
    assert not [m for m in RULES.legal_moves(s, 0) if m["kind"] in ("planner", "architect")]
    assert END in RULES.legal_moves(s, 0)
    refused(s, {"kind": "discard", "tile": "HOU-NS"}, "urbanpanic.discard")
    assert play(s, END).current == 1


def test_TC22_engineer_repairs_tracks_but_player_still_stuck():
    """TC-22: swapping a board housing for the reserve park gives (6, 9, 3, −4, −2); still stuck."""
    s = turn_state([_stuck_player()])
    plot = tiles.square_name(next(i for i in tiles.PLOTS if s.players[0].board[i] == "HOU-NESW"))
    s = play(s, {"kind": "engineer_reserve", "plot": plot, "tile": "PRK-NE"})
    p = s.players[0]
    assert p.tracks == [6, 9, 3, -4, -2]
    assert p.reserve == ["HOU-NS", "HOU-EW", "HOU-NESW"]
    refused(s, {"kind": "planner", "tile": "HOU-NS", "plot": "A1"}, "urbanpanic.floor")
    assert END in RULES.legal_moves(s, 0)


def test_TC23_stalemate_guard():
    """TC-23: a full round in which nobody takes or builds a tile ends the game."""
    s = turn_state([_stuck_player(), _stuck_player()])
    s = play(s, END)
    assert not s.over and s.current == 1
    s = play(s, END)
    assert s.over and s.end_reason == "stalemate"


def test_stalemate_counter_resets_on_a_productive_turn():
    """An Architect, Planner or Spy in between restarts the stalemate count (D-11)."""
    s = turn_state([_stuck_player(), player()])
    s = play(s, END)
    s = minimal_turn(s)
    assert s.idle_turns == 0 and not s.over


# -- 8.8 and other rules -------------------------------------------------------------------


def test_seed_example_turn_8_8():
    """8.8: with 3 reserve tiles: Engineer, Planner, Architect; a Mayor as second action would be refused."""
    me = player(
        board=board_with({"C2": "HOU-NS"}), tracks=(4, 0, 0, -2, -1), reserve=["PRK-NES", "PRK-ESW", "OFF-NESW"]
    )
    s = play(turn_state([me]), {"kind": "engineer_reserve", "plot": "C2", "tile": "OFF-NESW"})
    assert s.players[0].tracks == [0, 2, 0, 2, -1]
    refused(s, MAYOR, "urbanpanic.owed.architect")
    s = play(s, {"kind": "planner", "tile": "PRK-NES", "plot": "C4"}, ARCH)
    assert len(s.players[0].reserve) == 3 and s.points == 0


def test_centre_and_bad_plots_refused():
    """C3 can never take a tile; names off the board are refused with a sentence."""
    s = turn_state([player(reserve=["PRK-NES"])])
    refused(s, {"kind": "planner", "tile": "PRK-NES", "plot": "C3"}, "urbanpanic.centre")
    refused(s, {"kind": "planner", "tile": "PRK-NES", "plot": "F9"}, "urbanpanic.bad_plot")
    refused(s, {"kind": "planner", "tile": "XYZ-NS", "plot": "A1"}, "urbanpanic.tile.unknown")


def test_occupied_plot_refused():
    """A Planner onto a built plot is refused."""
    s = turn_state([player(board=board_with({"A1": "PRK-NESW"}), reserve=["PRK-NES"])])
    refused(s, {"kind": "planner", "tile": "PRK-NES", "plot": "A1"}, "urbanpanic.plot.occupied")


def test_not_your_turn():
    """Only the current player may act."""
    with pytest.raises(core.NotYourTurn):
        RULES.apply(turn_state(), 1, ARCH)
    assert RULES.legal_moves(turn_state(), 1) == []


def test_architect_slot_checks():
    """Slots are 1–4; an empty slot cannot be taken."""
    s = turn_state(slots=[None, "HOU-NS", "OFF-NESW", "FAC-NE"])
    refused(s, {"kind": "architect", "slot": 1}, "urbanpanic.architect.empty_slot")
    refused(s, {"kind": "architect", "slot": 5}, "urbanpanic.architect.bad_slot")
    refused(s, {"kind": "architect", "slot": "2"}, "urbanpanic.architect.bad_slot")


def test_spy_refused_in_basic():
    """TC-20: the Spy does not exist in the basic game."""
    s = turn_state([player(), player(reserve=["PRK-NES"])])
    refused(s, {"kind": "spy", "victim": 1, "tile": "PRK-NES", "plot": "B2"}, "urbanpanic.spy.basic")


def test_party_moves_refused_in_turn_games():
    """Party commands are not part of the basic game."""
    refused(turn_state(), {"kind": "draw"}, "urbanpanic.party.only")
    with pytest.raises(IllegalMove) as info:
        RULES.apply(turn_state(), core.SYSTEM_SEAT, {"kind": "timeout"})
    assert info.value.key == "urbanpanic.party.only"
