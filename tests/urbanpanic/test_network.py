"""The network search and the AI's valuation built on it, against small references written from the spec.

``tiles.reach`` (a table-driven search over bit sets), ``value.evaluate`` (remembered per board) and the
planner's rankings (``value.Gains``, which weighs the placements that join nothing once) are fast paths the AI
relies on for its every move: each must give exactly what the plain definitions give, on boards from seeded
games (every city of every position, each with tiles added and swapped as the AI tries them) and on random
boards with loose groups and odd shapes.
"""

from __future__ import annotations

import random
from collections.abc import Iterator, Sequence

import pytest

from bot.rules import core
from bot.rules.urbanpanic import tiles, value
from bot.rules.urbanpanic.rules import RULES
from tests.urbanpanic.helpers import ref_score

Board = list[str | None]
STEPS = {"N": (-1, 0, "S"), "E": (0, 1, "W"), "S": (1, 0, "N"), "W": (0, -1, "E")}


def ref_reach(board: Sequence[str | None]) -> tuple[set[int], set[int]]:
    """Spec 3.3 and 3.4 literally: from the centre, cross every edge where both sides have a passage; an empty plot
    that a reached square's passage faces is on the frontier."""

    def sides(square: int) -> str:
        code = board[square]
        return "NESW" if square == tiles.CENTRE else tiles.KINDS[code].passages  # type: ignore[index]

    linked: set[int] = set()
    frontier: set[int] = set()
    todo = [tiles.CENTRE]
    while todo:
        here = todo.pop()
        row, col = divmod(here, 5)
        for side in sides(here):
            dr, dc, back = STEPS[side]
            if not (0 <= row + dr < 5 and 0 <= col + dc < 5):
                continue
            there = (row + dr) * 5 + col + dc
            if there == tiles.CENTRE or there in linked:
                continue
            if board[there] is None:
                frontier.add(there)
            elif back in sides(there):
                linked.add(there)
                todo.append(there)
    return linked, frontier


def ref_evaluate(board: Sequence[str | None], tracks: Sequence[int], floor: bool) -> float:
    """The greedy player's worth of a city as its docstring defines it: the score now (the tests' own scorer) plus
    ``FRONTIER_WEIGHT`` per empty plot the network faces, minus ``FLOOR_WEIGHT`` per step near the floor."""
    worth: float = ref_score(board, tracks)["score"] + value.FRONTIER_WEIGHT * len(ref_reach(board)[1])
    if floor:
        for v in tracks[2:]:
            if v < tiles.FLOOR + value.FLOOR_MARGIN:
                worth -= value.FLOOR_WEIGHT * (tiles.FLOOR + value.FLOOR_MARGIN - v)
    return worth


def ref_ranked(board: Sequence[str | None], tracks: Sequence[int], code: str, floor: bool) -> list[tuple[float, int]]:
    """Every placement of ``code`` on an empty plot and its gain, best first, the lower plot first on a tie (none
    when the tile would take a track below the floor)."""
    after = tiles.add(tracks, tiles.KINDS[code].deltas)
    if floor and tiles.floor_breach(after) is not None:
        return []
    base = ref_evaluate(board, tracks, floor)
    out = []
    for i in tiles.PLOTS:
        if board[i] is None:
            placed = list(board)
            placed[i] = code
            out.append((ref_evaluate(placed, after, floor) - base, i))
    return sorted(out, key=lambda gi: (-gi[0], gi[1]))


def game_cities() -> Iterator[tuple[Board, tuple[int, ...], bool]]:
    """(board, tracks, floor) of every city in every position of seeded games (greedy and strong seats, every
    variant), each once."""
    seen = set()
    for variant, seats, levels, seed in (
        ("advanced", 2, ("greedy", "strong"), 3),
        ("basic", 3, ("greedy", "greedy", "random"), 4),
        ("party", 2, ("greedy", "random"), 5),
    ):
        state = RULES.setup({"variant": variant}, seats, seed)
        at = 0
        while not state.over:
            for p in state.players:
                tracks = tuple(tiles.tracks_of(p.board) if state.party else p.tracks)
                key = (tuple(p.board), tracks)
                if key not in seen:
                    seen.add(key)
                    yield list(p.board), tracks, not state.party
            seat = min(RULES.awaiting(state))
            move = dict(RULES.ai_move(state, seat, levels[seat], core.derive_seed(seed, "network", at)))
            at += 1000
            if state.party:
                move["at"] = at
            state = RULES.apply(state, seat, move)


def tried(board: Board, rnd: random.Random) -> Iterator[Board]:
    """The board, and boards the AI weighs from it: a tile added on every empty plot, two tiles swapped."""
    yield board
    codes = sorted(tiles.KINDS)
    for i in tiles.PLOTS:
        if board[i] is None:
            yield [rnd.choice(codes) if j == i else board[j] for j in tiles.SQUARES]
    built = [i for i in tiles.PLOTS if board[i] is not None]
    if len(built) >= 2:
        a, b = rnd.sample(built, 2)
        swapped = list(board)
        swapped[a], swapped[b] = swapped[b], swapped[a]
        yield swapped


def random_boards(count: int, seed: int) -> Iterator[Board]:
    """Boards filled at random to every density, with tiles that need not connect."""
    rnd = random.Random(seed)
    codes = sorted(tiles.KINDS)
    for n in range(count):
        density = n / count
        yield [None if i == tiles.CENTRE or rnd.random() > density else rnd.choice(codes) for i in tiles.SQUARES]


def boards() -> Iterator[tuple[Board, tuple[int, ...], bool]]:
    rnd = random.Random(7)
    for board, tracks, floor in game_cities():
        for b in tried(board, rnd):
            yield b, tracks, floor
    for b in random_boards(400, 11):
        yield b, tuple(tiles.tracks_of(b)), True


@pytest.fixture(scope="module")
def cases() -> list[tuple[Board, tuple[int, ...], bool]]:
    out = list(boards())
    assert len(out) > 2000
    return out


def test_reach_is_the_spec_search(cases: list[tuple[Board, tuple[int, ...], bool]]) -> None:
    """Linked tiles and frontier plots as the plain search finds them, on every board; the bit sets name the same
    squares; partly linked boards and boards with a frontier are among them."""
    partly = facing = 0
    for board, _, _ in cases:
        linked, frontier = ref_reach(board)
        assert tiles.reach(board) == (linked, frontier), board
        assert tiles.reachable(board) == linked
        bits = tiles.reach_bits(board)
        assert (tiles.squares_of(bits[0]), tiles.squares_of(bits[1])) == (linked, frontier)
        partly += bool(linked) and any(board[i] is not None and i not in linked for i in tiles.PLOTS)
        facing += bool(frontier)
    assert partly > 100 and facing > 1000


def test_evaluate_is_the_defined_worth(cases: list[tuple[Board, tuple[int, ...], bool]]) -> None:
    """The valuation gives exactly the worth its definition gives, board after board (the memo keeps every board's
    own network: the cases follow each other with one tile changed), with and without the floor, and the same
    again when asked twice."""
    for board, tracks, floor in cases:
        expected = ref_evaluate(board, tracks, floor)
        assert value.evaluate(board, tracks, floor) == expected, (board, tracks)
        assert value.evaluate(board, tracks, floor) == expected
        assert value.evaluate(board, tracks, not floor) == ref_evaluate(board, tracks, not floor)


def test_a_board_changed_in_place_is_weighed_afresh() -> None:
    """The planners change one list in place and weigh it again: the memo goes by the board's contents."""
    board = tiles.empty_board()
    tracks = (0, 0, 0, 0, 0)
    empty = value.evaluate(board, tracks)
    board[tiles.square_index("C2")] = "PRK-NESW"  # type: ignore[index]
    linked = value.evaluate(board, tracks)
    assert linked == ref_evaluate(board, tracks, True) != empty
    board[tiles.square_index("C2")] = None  # type: ignore[index]
    assert value.evaluate(board, tracks) == empty


def test_the_planner_ranks_every_placement_as_the_definition(cases: list[tuple[Board, tuple[int, ...], bool]]) -> None:
    """Every tile's placements on the cities of seeded games, ranked with their gains exactly as weighing each
    placement on its own ranks them (those that join nothing are weighed once by the planner)."""
    codes = sorted(tiles.KINDS)
    for n, (board, tracks, floor) in enumerate(cases[::7]):
        planner = value.Gains(board, tracks, floor)
        for code in codes[n % 4 :: 4]:
            assert planner.ranked(code) == ref_ranked(board, tracks, code, floor), (board, tracks, code)
