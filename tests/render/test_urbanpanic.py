"""Urban Panic images drawn from views of real seeded games, and the road drawing on the spec's city."""

from __future__ import annotations

import io
from typing import Any

import pytest
from PIL import Image

from bot.rules.urbanpanic.rules import RULES
from render import common as c
from render import pictures
from render import urbanpanic as u

UP = pictures.get("urbanpanic")
"""The game's pictures as the bot draws them (PNG)."""

NAMES = ["Ödön Łukasz Жанна", "Bob", "Cyd the Great Builder of Cities", "Dee"]

# TC-14 of the spec (section 15): a realistic city; D1 and D4 are not reachable from the centre.
TC14 = """G:.ES.   F:.ES.   H:..SW   P:.E.W   ------
H:N.S.   H:NES.   O:NESW   F:N.S.   G:..SW
F:NE..   O:.E.W   CENTRE   A:NE.W   H:N..W
------   P:NE..   G:N.SW   F:.E.W   O:N.S.
G:NE..   H:.E.W   F:NE.W   P:NE.W   A:N..W"""
LETTERS = {"G": "PRK", "F": "FAC", "H": "HOU", "P": "POW", "O": "OFF", "A": "AMU"}
CELL = 120


def _tc14_grid() -> list[list[dict[str, Any] | None]]:
    grid: list[list[dict[str, Any] | None]] = []
    for r, line in enumerate(TC14.splitlines()):
        row: list[dict[str, Any] | None] = []
        for col, token in enumerate(line.split()):
            plot = f"{'ABCDE'[col]}{r + 1}"
            if token == "CENTRE":
                row.append({"centre": True})
            elif token.startswith("-"):
                row.append(None)
            else:
                letter, passages = token.split(":")
                passages = passages.replace(".", "")
                kind = LETTERS[letter]
                row.append(
                    {
                        "plot": plot,
                        "tile": f"{kind}-{passages}",
                        "type": kind,
                        "passages": passages,
                        "reachable": plot not in ("D1", "D4"),
                    }
                )
        grid.append(row)
    return grid


def _play(variant: str, seats: int, seed: int, moves: int | None) -> Any:
    state = RULES.setup({"variant": variant}, seats, seed)
    done = 0
    while not RULES.is_over(state) and (moves is None or done < moves):
        for seat in sorted(RULES.awaiting(state)):
            state = RULES.apply(state, seat, RULES.ai_move(state, seat, "greedy", seed + done))
            done += 1
            if RULES.is_over(state):
                break
    return state


@pytest.fixture(scope="module")
def games() -> dict[str, Any]:
    """Seeded games per variant, several turns in and finished."""
    out: dict[str, Any] = {}
    for variant, seats in (("basic", 2), ("advanced", 4), ("party", 3)):
        mid = _play(variant, seats, 31, 25)
        out[f"{variant}_mid"] = (RULES.view(mid, 0), min(RULES.awaiting(mid) or {0}))
        out[f"{variant}_end"] = (RULES.view(_play(variant, seats, 32, None), None), 0)
    return out


def _open(data: bytes) -> Image.Image:
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    img = Image.open(io.BytesIO(data))
    img.load()
    return img


@pytest.mark.parametrize("key", ["basic_mid", "basic_end", "advanced_mid", "advanced_end", "party_mid", "party_end"])
def test_every_view_renders_every_image(games: dict[str, Any], key: str) -> None:
    """Turn, board and end images render from real views: PNG, at least 1000 px wide (portrait: one city per
    row, so up to about 900 px a player), under 400 KB."""
    view, seat = games[key]
    for data in (UP.render_turn(view, seat, NAMES), UP.render_board(view, NAMES), UP.render_end(view, NAMES)):
        img = _open(data)
        assert img.width >= 1000
        assert 400 < img.height < 1200 + 900 * len(view["players"])
        assert len(data) < 400_000


def test_end_image_has_the_score_table(games: dict[str, Any]) -> None:
    """A finished game's end image is the final ranking over the cities as scored."""
    view, _ = games["advanced_end"]
    assert view["over"] and view["result"]
    assert u.end_image(view, NAMES).height > u.board_image(view, NAMES).height + 300


def _centre_of(geo: c.GridGeometry, r: int, col: int) -> tuple[int, int]:
    x0, y0, x1, y1 = geo.cell_box(r, col)
    return ((x0 + x1) // 2, (y0 + y1) // 2)


def test_tc14_cut_off_tiles_are_hatched_and_crossed() -> None:
    """TC-14: D1 and D4 (unreachable) are drawn on the cut-off plot colour with a cross; reachable ones are not."""
    img, _ = c.canvas(1000, 800)
    geo = u.draw_city(img, (0, 0), _tc14_grid(), CELL)
    for plot, cut in (("D1", True), ("D4", True), ("C2", False), ("E4", False), ("A5", False)):
        col, r = "ABCDE".index(plot[0]), int(plot[1]) - 1
        x0, y0, x1, y1 = geo.cell_box(r, col)
        corner = img.getpixel((x0 + 3, y1 - 12))
        assert (corner in (u.CUT_PLOT, (214, 196, 188))) == cut, plot
        cross = img.crop((x1 - CELL // 4 - 3, y0 + 3, x1 - 3, y0 + 3 + CELL // 4))
        has_ink = any(cross.getpixel((x, y)) == c.INK for x in range(cross.width) for y in range(cross.height))
        assert has_ink == cut, plot


def test_tc14_roads_link_only_matching_passages() -> None:
    """TC-14: a road crosses the shared edge only where both sides have a passage (C2-C3 yes, C1-D1 no)."""
    img, _ = c.canvas(1000, 800)
    geo = u.draw_city(img, (0, 0), _tc14_grid(), CELL)

    def edge_pixel(a: str, b: str) -> tuple[int, int, int]:
        (ca, ra), (cb, rb) = ("ABCDE".index(a[0]), int(a[1]) - 1), ("ABCDE".index(b[0]), int(b[1]) - 1)
        xa, ya = _centre_of(geo, ra, ca)
        xb, yb = _centre_of(geo, rb, cb)
        # one pixel beside the road's centre line (the line itself carries white dashes)
        if ra == rb:
            return img.getpixel(((xa + xb) // 2, ya + 4))
        return img.getpixel((xa + 4, (ya + yb) // 2))

    assert edge_pixel("C2", "C3") == u.ROAD  # O:NESW over the centre
    assert edge_pixel("B3", "C3") == u.ROAD  # O:.E.W into the centre
    assert edge_pixel("E4", "E5") == u.ROAD  # reached from the south
    assert edge_pixel("C1", "D1") != u.ROAD  # H:..SW has no E
    assert edge_pixel("E3", "E4") != u.ROAD  # H:N..W has no S
    assert edge_pixel("C4", "D4") != u.ROAD  # G:N.SW has no E


def test_tracks_show_the_floor_and_values() -> None:
    """Track bars carry their printed values; the −5 floor is drawn as a dashed vermillion line."""
    img, _ = c.canvas(1000, 300)
    u.draw_tracks(img, (20, 20, 620, 240), [20, 26, -1, 17, -5])
    colours = {img.getpixel((x, y)) for x in range(20, 620, 2) for y in range(20, 240, 2)}
    assert c.VERMILLION in colours
    assert c.BLUISH_GREEN in colours


def test_tile_sprite_shows_its_passages() -> None:
    """A loose tile draws a road to each open edge and none to the closed ones."""
    sprite = u.tile_sprite("FAC-NE", 100)
    assert sprite.getpixel((50 + 4, 3)) == u.ROAD  # north
    assert sprite.getpixel((97, 50 + 4)) == u.ROAD  # east
    assert sprite.getpixel((50 + 4, 97)) != u.ROAD  # south
    assert sprite.getpixel((3, 50 + 4)) != u.ROAD  # west


def test_changed_plots_are_framed() -> None:
    """The plots given as ``highlight`` get the highlight frame; the others do not."""
    img, _ = c.canvas(1000, 800)
    geo = u.draw_city(img, (0, 0), _tc14_grid(), CELL, highlight=["C2"])
    for plot, framed in (("C2", True), ("E4", False)):
        col, r = "ABCDE".index(plot[0]), int(plot[1]) - 1
        x0, y0, _, y1 = geo.cell_box(r, col)
        assert (img.getpixel((x0 + 1, (y0 + y1) // 2)) == c.HIGHLIGHT) == framed, plot
