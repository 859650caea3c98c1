"""AI players and whole seeded games: completion, conservation, scores equal the spec's scoring."""

from __future__ import annotations

import pytest

from bot.benches import urbanpanic as bench
from bot.rules import core
from bot.rules.core import IllegalMove
from bot.rules.urbanpanic import ai
from bot.rules.urbanpanic.rules import RULES

from .helpers import board_with, full_board, player, ref_score, ref_tracks, turn_state


def ref_goal_winners(goal_id: str, boards, tracks, first_finisher):
    """Spec 11.4 / D-17 written again from the text, on the reference scorer's output."""
    sheets = [ref_score(b, t) for b, t in zip(boards, tracks)]
    kept = []
    for b, sheet in zip(boards, sheets):
        names = set(sheet["reachable"])
        kept.append(
            {
                f"{'ABCDE'[i % 5]}{i // 5 + 1}": c.split("-")[0]
                for i, c in enumerate(b)
                if c is not None and f"{'ABCDE'[i % 5]}{i // 5 + 1}" in names
            }
        )

    def largest(city, typ):
        cells = {n for n, t in city.items() if t == typ}
        best = 0
        while cells:
            todo, size = [cells.pop()], 1
            while todo:
                n = todo.pop()
                col, row = "ABCDE".index(n[0]), int(n[1])
                for dc, dr in ((0, 1), (0, -1), (1, 0), (-1, 0)):
                    if 0 <= col + dc < 5:
                        m = f"{'ABCDE'[col + dc]}{row + dr}"
                        if m in cells:
                            cells.discard(m)
                            todo.append(m)
                            size += 1
            best = max(best, size)
        return best

    number = int(goal_id[1:])
    if number == 18:
        return [] if first_finisher is None else [first_finisher]
    if number == 15:
        return [i for i, city in enumerate(kept) if len(city) == 24]
    if number <= 12:
        typ = ["OFF", "HOU", "POW", "FAC", "PRK", "AMU", "OFF", "POW", "PRK", "FAC", "AMU", "HOU"][number - 1]
        values = [largest(c, typ) if number <= 6 else sum(1 for t in c.values() if t == typ) for c in kept]
        if max(values) == 0:
            return []
    else:
        track = {13: 2, 14: 1, 16: 3, 17: 4}[number]
        values = [s["final"][track] for s in sheets]
    return [i for i, v in enumerate(values) if v == max(values)]


def check_final_scores(state, res):
    """Every seat's total equals the reference scoring of its final board (+ goals, + bonus)."""
    boards = [p.board for p in state.players]
    if state.party:
        tracks = [ref_tracks(b) for b in boards]
    else:
        tracks = [tuple(p.tracks) for p in state.players]
    won = [[] for _ in boards]
    for g in state.goals:
        for seat in ref_goal_winners(g, boards, tracks, state.first_finisher):
            won[seat].append(g)
    for seat, (b, t) in enumerate(zip(boards, tracks)):
        expected = ref_score(b, t)["score"] + 10 * len(won[seat])
        if state.party and seat == state.first_finisher:
            expected += 5
        assert res.seats[seat].total == expected, (seat, res.seats[seat].breakdown)
        assert res.seats[seat].details["goals_won"] == won[seat]
    keys = [(s.total, s.breakdown["empty_plots"]) for s in res.seats]  # fewer empty plots is better
    assert [s.rank for s in res.seats] == [1 + sum(k > mine for k in keys) for mine in keys]


@pytest.mark.parametrize("variant", ["basic", "advanced", "party"])
@pytest.mark.parametrize("seats", [2, 3, 4])
def test_seeded_games_complete_conserve_tiles_and_score_by_the_spec(variant, seats):
    """AI games end, conserve all 120 tiles at every step, and score as the spec's steps say."""
    for seed in (1, 2):
        levels = ["greedy", "random", "greedy", "random"][:seats] if seed == 1 else ["greedy"] * seats
        played = bench.play_game(variant, seats, seed * 101 + seats, levels)
        state, res = played["state"], played["result"]
        assert state.over and state.end_reason
        check_final_scores(state, res)


def test_ai_is_deterministic_in_the_seed():
    """The same seed gives the same move; every AI move is legal."""
    state = RULES.setup({"variant": "advanced"}, 3, 8)
    seat = state.current
    for level in RULES.ai_levels:
        moves = [RULES.ai_move(state, seat, level, s) for s in range(20)]
        assert moves == [RULES.ai_move(state, seat, level, s) for s in range(20)]
        for m in moves:
            assert m in RULES.legal_moves(state, seat)
    randoms = {str(RULES.ai_move(state, seat, "random", s)) for s in range(20)}
    assert len(randoms) > 1


def test_ai_refusals():
    """An unknown level, a seat not to move and a finished game are refused."""
    state = RULES.setup({}, 2, 1)
    with pytest.raises(IllegalMove) as info:
        RULES.ai_move(state, state.current, "genius", 1)
    assert info.value.key == "urbanpanic.ai.level"
    with pytest.raises(core.NotYourTurn):
        RULES.ai_move(state, 1 - state.current, "greedy", 1)
    over = bench.play_game("basic", 2, 3, ["random", "random"])["state"]
    with pytest.raises(core.GameOver):
        RULES.ai_move(over, 0, "random", 1)


def test_greedy_beats_random():
    """Greedy wins clearly against random in seeded 2-player games."""
    timings: dict[str, list[float]] = {}
    figures = bench.greedy_vs_random(8, timings)
    assert figures["greedy_win_rate"] >= 0.85


def test_greedy_builds_the_useful_tile():
    """With a park and a housing tile in reserve and no jobs, greedy builds the park next to the centre."""
    state = turn_state([player(reserve=["PRK-NESW", "HOU-NESW"])])
    move = RULES.ai_move(state, 0, "greedy", 1)
    assert move["kind"] == "planner" and move["tile"] == "PRK-NESW"
    assert move["plot"] in ("C2", "B3", "D3", "C4")


def test_greedy_repairs_a_loose_tile():
    """After the Architect, greedy uses the Engineer to connect the TC-07 tiles."""
    me = player(
        board=board_with({"C2": "HOU-EW", "D3": "POW-NS"}),
        tracks=(4, 1, -2, 2, -2),
        reserve=["HOU-NS", "HOU-EW", "HOU-NSW"],
    )
    state = turn_state([me], architect_done=True, points=2)
    move = RULES.ai_move(state, 0, "greedy", 1)
    assert move == {"kind": "engineer_board", "plot": "C2", "other": "D3"}


def test_decisions_are_fast():
    """AI decisions stay well under a second (p95 in the bench is about a millisecond)."""
    timings: dict[str, list[float]] = {}
    bench.play_game("advanced", 4, 77, ["greedy"] * 4, check=False, timings=timings)
    assert max(timings["greedy"]) < 500


def test_minimal_move_D26():
    """D-26: full reserve: first Planner in canonical order, then Architect on slot 1, then END_TURN."""
    me = player(board=full_board(empty=("B1", "E5")), reserve=["HOU-NS", "PRK-NES", "OFF-NE"])
    state = turn_state([me])
    move = ai.minimal_move(RULES, state)
    assert move == {"kind": "planner", "tile": "HOU-NS", "plot": "B1"}
    state = RULES.apply(state, 0, move)
    move = ai.minimal_move(RULES, state)
    assert move == {"kind": "architect", "slot": 1}
    state = RULES.apply(state, 0, move)
    assert ai.minimal_move(RULES, state) == {"kind": "end_turn"}


def test_minimal_move_stuck_player_ends_turn():
    """D-26: a player who cannot take the Architect simply ends the turn."""
    me = player(board=full_board(empty=("B1",)), tracks=(0, 0, 0, -5, 0), reserve=["HOU-NS", "HOU-EW", "PRK-NE"])
    state = turn_state([me])
    assert ai.minimal_move(RULES, state) == {"kind": "end_turn"}


def test_bench_quick_figures():
    """The bench's quick run produces every figure and finds no broken invariant."""
    figures = bench.figures(quick=True)  # its time is the bench's to measure, not a test's
    assert all(key.startswith("urbanpanic.") for key in figures)
    games = figures["urbanpanic.games"]
    assert set(games) == {f"{v}/{n}" for v in ("basic", "advanced", "party") for n in (2, 3, 4)}
    assert all(g["conservation_checked"] for g in games.values())
    assert figures["urbanpanic.checked_games_completed"] == 9
    assert figures["urbanpanic.decision_ms_p95_greedy"] < 1000
    assert 0 <= figures["urbanpanic.greedy_win_rate"] <= 1


def test_greedy_unblocks_a_stuck_city():
    """Stuck at ecology −5 with three factories in reserve, greedy swaps a power plant out (D-10)."""
    me = player(
        board=board_with({"C2": "POW-NS", "B3": "HOU-NESW"}),
        tracks=(4, 1, -5, 2, -2),
        reserve=["FAC-NW", "FAC-NS", "FAC-NEW"],
    )
    state = turn_state([me])
    assert {"kind": "end_turn"} in RULES.legal_moves(state, 0)
    move = RULES.ai_move(state, 0, "greedy", 1)
    assert move["kind"] == "engineer_reserve" and move["plot"] == "C2"
    state = RULES.apply(state, 0, move)
    assert {"kind": "end_turn"} not in RULES.legal_moves(state, 0)  # the Architect is owed again
