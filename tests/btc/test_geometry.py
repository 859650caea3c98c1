"""Placement geometry: TC-23 (section 6), the first tile (D-26) and dead ends (D-5)."""

from __future__ import annotations

import itertools

import pytest

from bot.rules import core
from bot.rules.btc import engine as E
from bot.rules.btc import geometry as G
from bot.rules.btc import tiles as T
from bot.rules.btc.rules import RULES
from bot.rules.btc.state import BtcState, Pending, Player
from tests.btc.helpers import grid_city, new

TC23_CITY = {G.from_spec(c) for c in [(0, 0), (0, 1), (0, 2), (0, 3), (1, 0)]}
H, V, ONE = G.HORIZONTAL_SHAPE, G.VERTICAL_SHAPE, G.SINGLE_SHAPE


@pytest.mark.parametrize(
    ("shape", "anchor", "legal", "reason"),
    [
        (ONE, (0, 4), False, "too_big"),
        (ONE, (1, 1), True, None),
        (ONE, (2, 2), False, "not_touching"),
        (ONE, (-1, 0), True, None),
        (V, (1, 1), True, None),
        (H, (1, 3), False, "too_big"),
        (V, (-3, 0), False, "not_touching"),
        (V, (2, 0), True, None),
    ],
    ids=[
        "single-width5",
        "single-ok",
        "single-alone",
        "single-height3",
        "vertical-touches",
        "horizontal-width5",
        "vertical-alone-height5",
        "vertical-height4",
    ],
)
def test_tc23_placement_legality(shape: G.Shape, anchor: core.Cell, legal: bool, reason: str | None) -> None:
    """TC-23: legality of singles and duplexes next to a 5-cell city (adjacency, 4 x 4 limit)."""
    frame_anchor = G.from_spec(anchor)
    assert (frame_anchor in G.anchors(TC23_CITY, shape)) is legal
    assert G.problem(TC23_CITY, G.cover(frame_anchor, shape)) == reason


def test_occupied_cell_is_refused() -> None:
    """6.2 rule 1: a tile may not cover an occupied cell."""
    assert G.problem(TC23_CITY, [G.from_spec((0, 0))]) == "occupied"


def test_first_tile_goes_to_the_centre() -> None:
    """D-26: the first tile of an empty city goes to D4, and only there."""
    assert G.anchors(set(), ONE) == [G.CENTER]
    assert G.anchors(set(), H) == [G.CENTER]
    state = new("standard", 3, seed=5)
    moves = [RULES.legal_moves(state, s) for s in range(3)]
    state = play_commits(state)
    for seat in range(3):
        cells = {m["cell"] for m in RULES.legal_moves(state, seat) if m["kind"] == "place"}
        assert cells == {"D4"}
    assert all(moves)
    seat = 0
    tile = state.players[seat].pending[0].tile
    city = E.cities_of(state, seat)[0]
    with pytest.raises(core.IllegalMove) as err:
        RULES.apply(state, seat, {"kind": "place", "tile": tile, "city": city, "cell": "A1"})
    assert err.value.key == "btc.place.first_centre"


def play_commits(state: BtcState) -> BtcState:
    for seat in range(state.seats):
        state = RULES.apply(state, seat, RULES.legal_moves(state, seat)[0])
    return state


def test_city_can_never_exceed_four_by_four() -> None:
    """6.2 rule 3: from any legal anchor, the city's bounding box stays within 4 x 4."""
    for anchor in G.anchors(TC23_CITY, ONE):
        box = G.bounds([*TC23_CITY, anchor])
        assert box is not None and box[1] - box[0] <= 3 and box[3] - box[2] <= 3


def _duplex(state: BtcState, orientation: str) -> int:
    return next(
        t for t in range(len(T.SINGLE_POOL), len(state.tiles)) if T.KINDS[state.tiles[t]].orientation == orientation
    )


def _round_two(rows: list[str], pending: dict[int, str]) -> tuple[BtcState, list[int]]:
    """A 3-player state in round 2 with city 0 laid out as ``rows`` and, for each table position
    in ``pending``, a duplex of that orientation assigned to city 0 (positions 0 and 1 build it)."""
    state = new("standard", 3, seed=11).clone()
    state.stage = 1
    state.players = [Player() for _ in range(3)]
    state.cities[0] = grid_city(rows, state.cities[0].name)
    state.cities[0].builders = [state.order[0], state.order[1]]
    seats = []
    for pos, orientation in pending.items():
        seat = state.order[pos]
        state.players[seat].pending = [Pending(_duplex(state, orientation), 0)]
        seats.append(seat)
    return state, seats


STRAND_ROWS = [". O O O", ". . . O", "O O O O", "O O O O"]


def test_d5b_placement_that_strands_the_other_duplex_is_refused() -> None:
    """D-5 (b): a horizontal duplex may not take the spot that leaves the partner's vertical
    duplex for the same city without a legal spot, since another spot avoids it."""
    state, (first, _) = _round_two(STRAND_ROWS, {0: "horizontal", 1: "vertical"})
    tile = state.players[first].pending[0].tile
    cells = [m["cell"] for m in RULES.legal_moves(state, first) if m["kind"] == "place"]
    assert cells == ["E5"]  # spec (1, 1); spec (1, 0) = E4 would strand the vertical duplex
    assert G.problem(state.cities[0].cells.keys(), G.cover((4, 3), H)) is None
    with pytest.raises(core.IllegalMove) as err:
        RULES.apply(state, first, {"kind": "place", "tile": tile, "city": 0, "cell": "E4"})
    assert err.value.key == "btc.place.strands"
    after = RULES.apply(state, first, {"kind": "place", "tile": tile, "city": 0, "cell": "E5"})
    second = state.order[1]
    assert [m["cell"] for m in RULES.legal_moves(after, second)] == ["D4"]


def test_d5b_without_a_safe_spot_every_spot_stays_legal() -> None:
    """D-5 (b): when every spot strands the other tile, the rule does not forbid them all."""
    rows = ["O O O O", "O . . O", "O . . O", "O O O O"]  # a 2 x 2 hole: H then V never both fit
    state, (first, _) = _round_two(rows, {0: "horizontal", 1: "vertical"})
    cells = sorted(m["cell"] for m in RULES.legal_moves(state, first) if m["kind"] == "place")
    assert cells == ["E5", "F5"]


def test_d5c_duplex_with_no_spot_is_placed_turned() -> None:
    """D-5 (c): a horizontal duplex that fits nowhere upright is offered turned, and only so."""
    state, (seat,) = _round_two([". O O O", ". O O O", "O O O O", "O O O O"], {0: "horizontal"})
    tile = state.players[seat].pending[0].tile
    assert RULES.legal_moves(state, seat) == [{"kind": "turned", "tile": tile, "city": 0, "cell": "D4"}]
    with pytest.raises(core.IllegalMove) as err:
        RULES.apply(state, seat, {"kind": "place", "tile": tile, "city": 0, "cell": "D4"})
    assert err.value.key == "btc.place.must_turn"
    after = RULES.apply(state, seat, {"kind": "turned", "tile": tile, "city": 0, "cell": "D4"})
    kind = T.KINDS[state.tiles[tile]]
    cells = after.cities[0].cells
    assert cells[(3, 3)] == (kind.faces[0], tile, 1) and cells[(4, 3)] == (kind.faces[1], tile, 2)


def test_d5c_turning_is_refused_when_not_needed() -> None:
    """D-5 (c): a duplex that fits upright may not be turned; a single can never be turned."""
    state, (first, _) = _round_two(STRAND_ROWS, {0: "horizontal", 1: "vertical"})
    tile = state.players[first].pending[0].tile
    with pytest.raises(core.IllegalMove) as err:
        RULES.apply(state, first, {"kind": "turned", "tile": tile, "city": 0, "cell": "E5"})
    assert err.value.key == "btc.place.turn_not_needed"
    fresh = play_commits(new("standard", 3, seed=2))
    single = fresh.players[0].pending[0].tile
    with pytest.raises(core.IllegalMove) as err:
        RULES.apply(fresh, 0, {"kind": "turned", "tile": single, "city": E.cities_of(fresh, 0)[0], "cell": "D4"})
    assert err.value.key == "btc.place.turn_single"


def test_dead_ends_cannot_arise_in_play() -> None:
    """6.3 / D-5: every connected city of 6 or 8 cells (when duplexes arrive) has an upright spot
    for both orientations, and no first duplex can strand a second: D-5 (b)/(c) never trigger in
    a real game (exhaustive over all layouts within a 4 x 4 window)."""
    window = list(itertools.product(range(4), range(4)))
    for n in (6, 8):
        for layout in itertools.combinations(window, n):
            if len(core.connected_groups(layout)) != 1:
                continue
            top = min(layout)
            city = {(r - top[0] + 3, c - top[1] + 3) for r, c in layout}
            for shape in (H, V):
                spots = G.anchors(city, shape)
                assert spots, (layout, shape)
                if n == 6:
                    for a in spots:
                        grown = city | set(G.cover(a, shape))
                        assert G.anchors(grown, H) and G.anchors(grown, V)


def test_normalised_grid() -> None:
    """6.4: a city's cells shift so its minimum row and column are 0."""
    assert G.normalised([(2, 3), (3, 3), (2, 4)]) == {(2, 3): (0, 0), (3, 3): (1, 0), (2, 4): (0, 1)}
