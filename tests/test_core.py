"""The rules core: geometry, ranking, seeded randomness, and the protocol through a toy game."""

from __future__ import annotations

import json

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bot.rules import core
from bot.testing.toygame import RULES


def test_neighbours_stay_on_grid() -> None:
    """A corner has two neighbours, an inner cell four, listed N, E, S, W."""
    assert core.neighbours((0, 0), 4, 4) == [(0, 1), (1, 0)]
    assert core.neighbours((1, 1), 4, 4) == [(0, 1), (1, 2), (2, 1), (1, 0)]


def test_connected_groups_split_by_gaps() -> None:
    """Two blocks separated by an empty column are two groups; diagonals do not connect."""
    groups = core.connected_groups([(0, 0), (1, 0), (0, 2), (1, 3), (1, 2)])
    assert groups == [[(0, 0), (1, 0)], [(0, 2), (1, 2), (1, 3)]]
    assert core.connected_groups([(0, 0), (1, 1)]) == [[(0, 0)], [(1, 1)]]


def test_connected_groups_respect_links() -> None:
    """A link predicate can cut an orthogonal step (roads, passages)."""
    groups = core.connected_groups([(0, 0), (0, 1)], linked=lambda a, b: False)
    assert groups == [[(0, 0)], [(0, 1)]]


def test_runs_are_maximal_rows_then_columns() -> None:
    """Runs are the maximal straight lines, rows first then columns."""
    members = [(0, 0), (0, 1), (0, 2), (1, 1), (2, 1)]
    assert core.runs(members, min_length=2) == [[(0, 0), (0, 1), (0, 2)], [(0, 1), (1, 1), (2, 1)]]


def test_reachable_follows_links() -> None:
    """Reachability stops where the link predicate says no."""
    members = [(0, 0), (0, 1), (0, 2)]
    assert core.reachable((0, 0), members, lambda a, b: b != (0, 2)) == {(0, 0), (0, 1)}


def test_cell_names_round_trip() -> None:
    """A1 is the top-left cell; names off the grid are refused with a sentence id."""
    assert core.cell_name((1, 2)) == "B3"
    assert core.parse_cell("b3", 4, 4) == (1, 2)
    with pytest.raises(core.IllegalMove) as err:
        core.parse_cell("E9", 4, 4)
    assert err.value.key == "error.bad_cell"


def test_competition_ranks_share_places() -> None:
    """Equal keys share a rank and the next rank is skipped (1, 1, 3)."""
    assert core.competition_ranks([(5, 1), (5, 1), (3, 9)]) == [1, 1, 3]
    assert core.competition_ranks([(5, 1), (5, 2), (3, 9)]) == [2, 1, 3]


def test_build_result_names_the_deciding_tiebreak() -> None:
    """When totals tie, the result says which tie-break decided."""
    res = core.build_result([10, 10], [{"a": 10}, {"a": 10}], [(2,), (3,)], names=("score", "tb.x"))
    assert [s.rank for s in res.seats] == [2, 1]
    assert res.decided_by == "tb.x"
    assert core.build_result([9, 10], [{}, {}]).decided_by == "score"
    assert core.build_result([10, 10], [{}, {}]).decided_by == "shared"


def test_seeded_randomness_is_stable() -> None:
    """The same seed and labels give the same order, other labels another."""
    a = core.shuffled(range(20), 42, "stack")
    assert a == core.shuffled(range(20), 42, "stack")
    assert a != core.shuffled(range(20), 42, "other")
    assert core.derive_seed(1, "x") == core.derive_seed(1, "x")


def test_errors_render_sentences() -> None:
    """A rules error becomes an English sentence through the catalogue."""
    import bot.i18n  # noqa: F401  (installs the translator)

    assert str(core.IllegalMove("error.bad_cell", cell="Z9")) == "Z9 is not a square of this board."


def play(seed: int, script: list[tuple[int, int]]) -> core.Any:
    state = RULES.setup({}, 2, seed)
    for seat, card in script:
        state = RULES.apply(state, seat, {"kind": "bid", "card": card})
    return state


def test_toy_both_seats_awaited_at_once() -> None:
    """Simultaneous choice: both seats are awaited; after one bids only the other is."""
    state = RULES.setup({}, 2, 1)
    assert RULES.awaiting(state) == {0, 1}
    state = RULES.apply(state, 1, {"kind": "bid", "card": 2})
    assert RULES.awaiting(state) == {0}
    with pytest.raises(core.NotYourTurn):
        RULES.apply(state, 1, {"kind": "bid", "card": 3})


def test_toy_view_never_shows_other_pending_choice() -> None:
    """A seat's view and the spectator's never contain another seat's uncommitted bid."""
    state = play(1, [(0, 3)])
    other = json.dumps(RULES.view(state, 1))
    spectator = RULES.view(state, None)
    assert RULES.view(state, 0)["my_bid"] == 3
    assert RULES.view(state, 1)["my_bid"] is None
    assert "3" not in json.dumps(RULES.view(state, 1)["revealed"]) and '"my_bid": null' in other
    assert spectator["hand"] is None and spectator["committed"] == [True, False]


def test_toy_reveal_together() -> None:
    """When the last seat commits, both bids appear at once."""
    state = play(1, [(0, 3), (1, 1)])
    assert RULES.view(state, None)["revealed"] == [[3, 1]]


@given(st.integers(0, 2**32), st.permutations([1, 2, 3]), st.permutations([1, 2, 3]))
def test_toy_json_round_trip_and_totals(seed: int, a: list[int], b: list[int]) -> None:
    """Any game round-trips through JSON at every step and ends with ranks from the scores."""
    state = RULES.setup({}, 2, seed)
    for x, y in zip(a, b):
        for seat, card in ((1, y), (0, x)):
            state = RULES.apply(state, seat, {"kind": "bid", "card": card})
            assert RULES.to_json(RULES.from_json(RULES.to_json(state))) == RULES.to_json(state)
    assert RULES.is_over(state)
    res = RULES.result(state)
    assert sum(s.total for s in res.seats) <= 3
    assert all(s.total == sum(s.breakdown.values()) for s in res.seats)


def test_apply_does_not_mutate() -> None:
    """apply returns a new state and leaves the old one as it was."""
    state = RULES.setup({}, 2, 5)
    before = RULES.to_json(state)
    RULES.apply(state, 0, {"kind": "bid", "card": 2})
    assert RULES.to_json(state) == before


def test_illegal_card_refused_with_sentence() -> None:
    """Bidding a card you do not hold is refused with a readable sentence."""
    import bot.i18n  # noqa: F401

    state = play(1, [(0, 3), (1, 1)])
    with pytest.raises(core.IllegalMove) as err:
        RULES.apply(state, 0, {"kind": "bid", "card": 3})
    assert str(err.value) == "You do not hold card 3."
