"""The shared end-of-game score table."""

from __future__ import annotations

import pytest
from PIL import ImageChops

from bot.rules.core import build_result
from render import common as c
from render.scores import HEADER_HEIGHT, MARGIN, ROW_HEIGHT, score_table, score_table_from_result

CATS = ["Towers", "Shops", "Parks"]


def _row_y(pos: int) -> int:
    return c.TITLE_HEIGHT + MARGIN + HEADER_HEIGHT + pos * ROW_HEIGHT + ROW_HEIGHT // 2


def test_table_size_and_rows() -> None:
    """One row per player under a header; at least 1000 px wide."""
    img = score_table("Final", ["Ann", "Bob", "Cyd"], CATS, [[1, 2, 3], [4, 5, 6], [0, 0, -2]])
    assert img.width >= 1000
    expected = c.TITLE_HEIGHT + MARGIN + HEADER_HEIGHT + 3 * ROW_HEIGHT
    assert img.height > expected


def test_winner_row_first_and_highlighted() -> None:
    """The best total is drawn first, on the highlight tint; others are not."""
    img = score_table("Final", ["Ann", "Bob", "Cyd"], CATS, [[1, 2, 3], [4, 5, 6], [0, 0, -2]])
    x = img.width - MARGIN - 150  # inside the last category column, right of its number
    winner_tint = c.tint(c.HIGHLIGHT, 0.6)
    assert img.getpixel((MARGIN + 4, _row_y(0))) == winner_tint
    assert img.getpixel((MARGIN + 4, _row_y(1))) != winner_tint
    assert img.getpixel((x, _row_y(2))) != winner_tint


def test_shared_first_place_highlights_both() -> None:
    """Equal ranks 1 (after the rules' tie-breaks) both get the winner's row."""
    img = score_table("Final", ["Ann", "Bob", "Cyd"], CATS, [[1, 2, 3], [3, 2, 1], [0, 0, 0]])
    winner_tint = c.tint(c.HIGHLIGHT, 0.6)
    assert img.getpixel((MARGIN + 4, _row_y(0))) == winner_tint
    assert img.getpixel((MARGIN + 4, _row_y(1))) == winner_tint
    assert img.getpixel((MARGIN + 4, _row_y(2))) != winner_tint


def test_given_ranks_override_totals() -> None:
    """Ranks from the rules (tie-breaks) decide the order, not the raw totals alone."""
    a = score_table("Final", ["Ann", "Bob"], CATS, [[1, 1, 1], [1, 1, 1]], ranks=[2, 1])
    b = score_table("Final", ["Bob", "Ann"], CATS, [[1, 1, 1], [1, 1, 1]], ranks=[1, 2], seats=[1, 0])
    assert ImageChops.difference(a, b).getbbox() is None


def test_many_categories_grow_the_image() -> None:
    """Twelve categories do not squash numbers below the minimum column width."""
    img = score_table("Final", ["Ann"], [f"Cat {i}" for i in range(14)], [list(range(14))])
    assert img.width > c.IMAGE_WIDTH


def test_rows_must_match_players() -> None:
    """A row per player is required."""
    with pytest.raises(ValueError):
        score_table("Final", ["Ann", "Bob"], CATS, [[1, 2, 3]])


def test_from_result_uses_rules_ranks_and_keys() -> None:
    """A core Result (with tie-break ranks) feeds the table; icons head the columns."""
    result = build_result(
        [10, 10, 4],
        [{"towers": 6, "parks": 4}, {"towers": 10, "parks": 0}, {"towers": 4, "parks": 0}],
        tiebreaks=[[1], [2], [0]],
    )
    img = score_table_from_result(
        "Quadropolis",
        ["Ödön", "Łukasz", "Жанна"],
        result.to_json(),
        [
            ("towers", "Tower blocks", "quadropolis.tower"),
            ("parks", "Parks", "quadropolis.park"),
            ("shops", "Shops", "points"),
        ],
        subtitle="Classic",
    )
    assert img.width >= 1000
    # seat 1 won on the tie-break: its row is first and highlighted; seat 0 second, not highlighted
    winner_tint = c.tint(c.HIGHLIGHT, 0.6)
    assert img.getpixel((MARGIN + 4, _row_y(0))) == winner_tint
    assert img.getpixel((MARGIN + 4, _row_y(1))) != winner_tint
