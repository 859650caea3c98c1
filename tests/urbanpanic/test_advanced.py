"""Advanced variant: goal cards, the Spy, delayed refill (spec 11; TC-08, TC-16–21)."""

from __future__ import annotations

import pytest

from bot.rules.core import IllegalMove
from bot.rules.urbanpanic import goals, scoring, tiles
from bot.rules.urbanpanic.rules import RULES
from bot.rules.urbanpanic.state import Player, State

from .helpers import board, board_with, full_board, play, player, turn_state

TC16_P1 = (
    "H:.ES.   H:.ESW   H:..SW   G:.ES.   G:..SW",
    "H:N.S.   F:N.S.   F:NES.   G:N.SW   G:NESW",
    "F:NES.   O:NESW   CENTRE   O:NESW   F:N.SW",
    "P:N.S.   F:N.S.   A:N.S.   P:N.S.   H:N.S.",
    "P:NE..   F:N..W   A:NE..   G:N..W   H:N..W",
)
TC16_P2 = (
    "G:.ES.   G:.ESW   H:..SW   ------   O:..SW",
    "G:NES.   H:N.S.   H:NES.   H:N.SW   O:N.S.",
    "G:NES.   O:NESW   CENTRE   A:.E.W   P:N.SW",
    "H:N.S.   ------   G:NES.   F:NE..   F:.E.W",
    "A:NE..   P:N..W   G:NE..   F:NE.W   H:N..W",
)
TC16_TABLE = {
    "G01": (1, 2, [1]),
    "G02": (4, 4, [0, 1]),
    "G03": (2, 1, [0]),
    "G04": (2, 1, [0]),
    "G05": (4, 4, [0, 1]),
    "G06": (2, 1, [0]),
    "G07": (2, 3, [1]),
    "G08": (3, 2, [0]),
    "G09": (5, 6, [1]),
    "G10": (6, 1, [0]),
    "G11": (2, 2, [0, 1]),
    "G12": (6, 6, [0, 1]),
    "G13": (1, 9, [1]),
    "G14": (24, 13, [0]),
    "G15": (24, 20, [0]),
    "G16": (12, -3, [0]),
    "G17": (2, 3, [1]),
    "G18": (None, None, [0]),
}


def _tc16_cities():
    b1, b2 = board(*TC16_P1), board(*TC16_P2)
    return [scoring.score_city(b1, tiles.tracks_of(b1)), scoring.score_city(b2, tiles.tracks_of(b2))]


def test_TC16_cities_base_scores():
    """TC-16: P1's full city scores 63 and P2's scores 9 before goal cards."""
    p1, p2 = _tc16_cities()
    assert p1.tracks_played == (24, 27, 1, 15, 2)
    assert p1.final == (24, 24, 1, 12, 2) and p1.removed == () and p1.base == 63
    assert p2.tracks_played == (24, 19, 9, 3, 3)
    assert sorted(tiles.square_name(i) for i, _ in p2.removed) == ["D4", "E4"]
    assert p2.after_removal == (24, 13, 9, -3, 3)
    assert p2.empty == 4 and p2.unemployment == 33 and p2.base == 9
    assert p1.counts() == {"HOU": 6, "OFF": 2, "AMU": 2, "FAC": 6, "POW": 3, "PRK": 5}
    assert p2.counts() == {"HOU": 6, "OFF": 3, "AMU": 2, "FAC": 1, "POW": 2, "PRK": 6}


@pytest.mark.parametrize("goal_id", sorted(TC16_TABLE))
def test_TC16_every_goal_card(goal_id):
    """TC-16: each of the 18 cards measures and awards as the spec's table says."""
    cities = _tc16_cities()
    v1, v2, expected = TC16_TABLE[goal_id]
    if v1 is not None:
        assert (goals.measure(goal_id, cities[0]), goals.measure(goal_id, cities[1])) == (v1, v2)
    assert goals.winners(goal_id, cities, first_finisher=0) == expected


def test_TC16_three_cards_dealt():
    """TC-16: with G02, G10 and G13 dealt, P1 scores 83 and P2 29."""
    b1, b2 = board(*TC16_P1), board(*TC16_P2)
    s = State(
        variant="advanced",
        players=[Player(b1, list(tiles.tracks_of(b1)), []), Player(b2, list(tiles.tracks_of(b2)), [])],
        stack=[],
        slots=[None] * 4,
        goals=["G02", "G10", "G13"],
        first_finisher=0,
        over=True,
    )
    res = RULES.result(s)
    assert [x.total for x in res.seats] == [83, 29]
    assert res.seats[0].breakdown["goals"] == 20 and res.seats[1].breakdown["goals"] == 20
    assert res.seats[0].details["goals_won"] == ["G02", "G10"]
    assert res.seats[1].details["goals_won"] == ["G02", "G13"]
    assert res.winners() == [0]


def test_TC17_track_goals_after_the_unemployment_step():
    """TC-17: jobs 25 vs 22 before step 3 but 20 vs 22 after: G14 goes to P2 only."""
    cities = [scoring.score_city(full_board(), (20, 25, 0, 0, 0)), scoring.score_city(full_board(), (22, 22, 0, 0, 0))]
    assert goals.winners("G14", cities, None) == [1]


def test_TC18_zero_counts_do_not_win():
    """TC-18: without amusement parks nobody wins G06/G11; equal negative ecology is shared."""
    cities = [
        scoring.score_city(full_board(), (10, 10, -3, 0, 0)),
        scoring.score_city(full_board(code="HOU-NESW"), (10, 10, -3, 0, 0)),
    ]
    assert goals.winners("G06", cities, None) == []
    assert goals.winners("G11", cities, None) == []
    assert goals.winners("G13", cities, None) == [0, 1]


def test_TC19_first_finished_vs_all_plots_built():
    """TC-19: P1 fired trigger A but lost a tile at scoring: G18 to P1, G15 to P2 only."""
    b1 = full_board()
    b1[0] = "PRK-NW"  # A1 faces off the board: unreachable
    cities = [scoring.score_city(b1, (0, 0, 0, 0, 0)), scoring.score_city(full_board(), (0, 0, 0, 0, 0))]
    assert goals.winners("G18", cities, first_finisher=0) == [0]
    assert goals.winners("G15", cities, first_finisher=0) == [1]
    assert goals.winners("G18", cities, first_finisher=None) == []


# -- TC-20 Spy ------------------------------------------------------------------------------


def _spy_state(**kw):
    p1 = kw.pop("p1", player(tracks=(4, 3, 0, 1, -1), reserve=["HOU-NS"]))
    p2 = player(reserve=["PRK-NES", "FAC-EW"])
    return turn_state([p1, p2, player()], variant="advanced", **kw)


SPY = {"kind": "spy", "victim": 1, "tile": "PRK-NES", "plot": "B2"}


def test_TC20_spy_takes_a_tile_onto_the_board():
    """TC-20: the park goes to P1's B2, tracks (4, 3, 3, 0, 0); then an Architect; then no points."""
    s = play(_spy_state(), SPY)
    assert s.players[0].board[tiles.square_index("B2")] == "PRK-NES"
    assert s.players[0].tracks == [4, 3, 3, 0, 0]
    assert s.players[1].reserve == ["FAC-EW"] and s.players[0].reserve == ["HOU-NS"]
    assert s.points == 1
    s = play(s, {"kind": "architect", "slot": 1})
    assert s.points == 0


def test_TC20_spy_refused_with_full_reserve_before_the_architect():
    """TC-20: with a full reserve and the Architect owed, the Spy is refused."""
    p1 = player(reserve=["HOU-NS", "HOU-EW", "PRK-NE"])
    with pytest.raises(IllegalMove) as info:
        play(_spy_state(p1=p1), SPY)
    assert info.value.key == "urbanpanic.owed.architect"


def test_TC20_spy_after_the_architect():
    """TC-20: after the Architect (2 points left) the Spy is legal even with a full reserve."""
    p1 = player(reserve=["HOU-NS", "HOU-EW"])
    s = play(_spy_state(p1=p1), {"kind": "architect", "slot": 1}, SPY)
    assert s.points == 0


def test_TC20_spy_target_checks():
    """TC-20: occupied plot, C3, the floor, own seat and a tile not in the victim's reserve are refused."""
    s = _spy_state(p1=player(board=board_with({"B2": "HOU-NESW"}), tracks=(4, 3, 0, -5, -1)))
    for move, key in [
        ({**SPY, "plot": "B2"}, "urbanpanic.plot.occupied"),
        ({**SPY, "plot": "C3"}, "urbanpanic.centre"),
        ({**SPY, "plot": "A1"}, "urbanpanic.floor"),
        ({**SPY, "victim": 0}, "urbanpanic.spy.victim"),
        ({**SPY, "victim": 7}, "urbanpanic.spy.victim"),
        ({**SPY, "tile": "HOU-NS"}, "urbanpanic.spy.not_in_reserve"),
    ]:
        with pytest.raises(IllegalMove) as info:
            play(s, move)
        assert info.value.key == key, move
    with pytest.raises(IllegalMove) as info:
        play(_spy_state(points=1), SPY)
    assert info.value.key == "urbanpanic.spy.points"


def test_spy_fires_trigger_a():
    """D-20: a Spy that fills the 24th plot fires trigger A."""
    p1 = player(board=full_board(empty=("B2",)))
    s = play(_spy_state(p1=p1), SPY)
    assert s.first_finisher == 0


def _stuck_spy_state():
    """TC-20's last case: a stuck player (TC-22: every reserve tile breaks the income floor) with 3
    points, and an opponent whose factory it can build."""
    b = full_board(empty=[tiles.square_name(i) for i in tiles.PLOTS[:10]], code="HOU-NESW")
    p1 = player(board=b, tracks=(10, 9, 0, -5, -4), reserve=["HOU-NS", "HOU-EW", "PRK-NE"])
    return turn_state([p1, player(reserve=["FAC-NE"])], variant="advanced")


STUCK_SPY = {"kind": "spy", "victim": 1, "tile": "FAC-NE", "plot": "A1"}


def test_TC20_stuck_player_after_a_spy_may_only_end_the_turn():
    """TC-20, D-10: a stuck player may Spy; afterwards Planner, Engineer and Mayor are refused (the
    factory lifted income to −2, so a housing Planner would fit the floor), the Architect stays
    impossible with a full reserve, and END_TURN is legal. Nothing changes on a refusal."""
    s = _stuck_spy_state()
    assert STUCK_SPY in RULES.legal_moves(s, 0)
    s = play(s, STUCK_SPY)
    assert s.players[0].tracks == [10, 12, -1, -2, -4] and s.points == 1
    assert RULES.legal_moves(s, 0) == [{"kind": "end_turn"}]
    built = tiles.square_name(next(i for i in tiles.PLOTS if s.players[0].board[i] == "HOU-NESW"))
    for move in (
        {"kind": "planner", "tile": "HOU-NS", "plot": "B1"},
        {"kind": "engineer_reserve", "plot": built, "tile": "PRK-NE"},
        {"kind": "engineer_board", "plot": built, "other": "A1"},
        {"kind": "mayor"},
    ):
        before = RULES.to_json(s)
        with pytest.raises(IllegalMove) as info:
            play(s, move)
        assert info.value.key == "urbanpanic.spy.only_architect", move
        assert RULES.to_json(s) == before
    s = play(s, {"kind": "end_turn"})
    assert s.current == 1 and s.players[0].tiles_on_board() == 15


def test_spy_then_architect_when_it_is_possible():
    """11.2: after a Spy with the Architect owed, the Architect is the only action and END_TURN waits for it."""
    s = play(_spy_state(), SPY)
    kinds = {m["kind"] for m in RULES.legal_moves(s, 0)}
    assert kinds == {"architect"}
    with pytest.raises(IllegalMove) as info:
        play(s, {"kind": "planner", "tile": "HOU-NS", "plot": "A1"})
    assert info.value.key == "urbanpanic.spy.only_architect"


def test_no_turn_builds_two_tiles_without_an_architect_after_a_spy():
    """The reported case (advanced, 2 players, seed 11, and more seeds): in random play no turn with a
    Spy and no Architect ever adds more than the spied tile to the board."""
    from bot.rules import core

    for seed in range(11, 19):
        s = RULES.setup({"variant": "advanced"}, 2, seed)
        n = 0
        while not s.over and n < 3000:
            seat = s.current
            tiles_before = s.players[seat].tiles_on_board()
            turn_moves = []
            while not s.over and s.current == seat:
                move = RULES.ai_move(s, seat, "random", core.derive_seed(seed, n))
                turn_moves.append(move["kind"])
                s = RULES.apply(s, seat, move)
                n += 1
                if move["kind"] == "end_turn":
                    break
            if "spy" in turn_moves:
                after_spy = turn_moves[turn_moves.index("spy") + 1 :]
                assert set(after_spy) <= {"architect", "end_turn"}, (seed, turn_moves)
                if "architect" not in turn_moves:
                    assert s.players[seat].tiles_on_board() - tiles_before <= 1


# -- TC-21 / TC-08 delayed refill -----------------------------------------------------------


def test_TC21_delayed_refill():
    """TC-21: Architects leave slots empty until END_TURN refills them in slot order."""
    s = turn_state(variant="advanced", seats=3, stack=5)
    top = list(reversed(s.stack))
    s = play(s, {"kind": "architect", "slot": 1}, {"kind": "architect", "slot": 3})
    assert s.slots[0] is None and s.slots[2] is None and len(s.stack) == 5
    s = play(s, {"kind": "planner", "tile": s.players[0].reserve[0], "plot": "A1"}, {"kind": "end_turn"})
    assert s.slots[0] == top[0] and s.slots[2] == top[1] and len(s.stack) == 3
    assert not s.over and s.current == 1


def test_TC21_end_refill_that_cannot_complete_ends_the_game():
    """TC-21: stack 1 and two empty slots: slot 1 is filled, slot 3 stays empty, the game ends now."""
    s = turn_state(variant="advanced", seats=3, current=1, stack=["OFF-NE"])
    s = play(s, {"kind": "architect", "slot": 1}, {"kind": "architect", "slot": 3}, {"kind": "end_turn"})
    assert s.slots[0] == "OFF-NE" and s.slots[2] is None
    assert s.over and s.end_reason == "stack"


def test_TC21_stack_that_empties_exactly_goes_on():
    """TC-21: stack 2 fills both slots; the game goes on; the next refill that fails ends it."""
    s = turn_state(variant="advanced", seats=3, current=1, stack=["OFF-NE", "OFF-NW"])
    s = play(s, {"kind": "architect", "slot": 1}, {"kind": "architect", "slot": 3}, {"kind": "end_turn"})
    assert not s.over and s.stack == [] and None not in s.slots
    s = play(s, {"kind": "architect", "slot": 2}, {"kind": "end_turn"})
    assert s.over and s.end_reason == "stack"


def test_TC08_mayor_advanced():
    """TC-08: after two Architects the Mayor discards 2 and draws 4; END_TURN refills nothing."""
    s = turn_state(variant="advanced", stack=9)
    s = play(s, {"kind": "architect", "slot": 1}, {"kind": "architect", "slot": 2}, {"kind": "mayor"})
    assert len(s.discard) == 2 and None not in s.slots and len(s.stack) == 5
    s = play(s, {"kind": "end_turn"})
    assert len(s.stack) == 5 and not s.over
