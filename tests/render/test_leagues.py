"""The league standings picture (render/leagues.py): one row per member, the rating column only in
rated leagues, a sentence when nobody has played."""

from __future__ import annotations

import io

from PIL import Image, ImageChops

from bot.community.leagues import Standing
from render import common as c
from render.leagues import ROW_HEIGHT, standings_png

ROWS = [
    Standing(1, "Ana", 4, 3, 5, 30.0, 2.0),
    Standing(2, "Bea", 4, 1, 7, 24.0, 2.5),
    Standing(3, "Cem", 0, 0, 0, 25.0, 8.3),
]


def picture(data: bytes) -> Image.Image:
    image = Image.open(io.BytesIO(data))
    image.load()
    return image.convert("RGB")


def test_one_row_per_member() -> None:
    three = picture(standings_png("Bids - season 1", "Sealed bids", ROWS, rated=True, loc="en"))
    one = picture(standings_png("Bids - season 1", "Sealed bids", ROWS[:1], rated=True, loc="en"))
    assert three.width == one.width == c.IMAGE_WIDTH
    assert three.height - one.height == 2 * ROW_HEIGHT


def test_rating_column_only_when_rated() -> None:
    rated = picture(standings_png("Bids", "Sealed bids", ROWS, rated=True, loc="en"))
    plain = picture(standings_png("Bids", "Sealed bids", ROWS, rated=False, loc="en"))
    assert rated.size == plain.size
    assert ImageChops.difference(rated, plain).getbbox() is not None


def test_an_empty_table_is_still_a_picture() -> None:
    empty = picture(standings_png("Bids", "Sealed bids", [], rated=False, loc="en"))
    one = picture(standings_png("Bids", "Sealed bids", ROWS[:1], rated=False, loc="en"))
    assert empty.size == one.size
    assert ImageChops.difference(empty, one).getbbox() is not None
