"""Between Two Cities images drawn from views of real seeded games (every mode)."""

from __future__ import annotations

import io
import itertools
from typing import Any

import pytest
from PIL import Image

from bot.rules.btc.rules import RULES
from render import btc as b
from render import common as c
from render import pictures

BTC = pictures.get("btc")
"""The game's pictures as the bot draws them (PNG)."""

NAMES = ["Ödön Łukasz Жанна", "Bob", "Cyd the Great Builder of Cities", "Dee", "Eve", "Fay", "Gus"]


def _play(options: dict[str, Any], seats: int, seed: int, moves: int | None) -> Any:
    state = RULES.setup(options, seats, seed)
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
    """Seeded games per mode, several turns in and finished, as seat 0 sees them."""
    out: dict[str, Any] = {}
    for mode, seats in (("standard", 5), ("two_player", 2), ("solo_full", 1), ("solo_simple", 1)):
        out[f"{mode}_mid"] = RULES.view(_play({"mode": mode}, seats, 21, 14), 0)
        out[f"{mode}_end"] = RULES.view(_play({"mode": mode}, seats, 22, None), 0)
    out["seven_end"] = RULES.view(_play({}, 7, 23, None), None)
    return out


def _open(data: bytes) -> Image.Image:
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    img = Image.open(io.BytesIO(data))
    img.load()
    return img


@pytest.mark.parametrize(
    "key",
    [
        "standard_mid",
        "standard_end",
        "two_player_mid",
        "two_player_end",
        "solo_full_mid",
        "solo_full_end",
        "solo_simple_mid",
        "solo_simple_end",
        "seven_end",
    ],
)
def test_every_view_renders_every_image(games: dict[str, Any], key: str) -> None:
    """Turn, board and end images render from real views: PNG, at least 1000 px wide, under 400 KB; portrait
    pictures (a row per player, two cities per row) at most about three and a half times as tall as wide."""
    view = games[key]
    for data in (BTC.render_turn(view, 0, NAMES), BTC.render_board(view, NAMES), BTC.render_end(view, NAMES)):
        img = _open(data)
        assert img.width >= 1000
        assert 400 < img.height < 4400
        assert len(data) < 400_000


def test_game_ends_with_a_result(games: dict[str, Any]) -> None:
    """The finished views carry a result, and the end image opens with the ranking: the winner named, with
    their score, near the top, at the key size."""
    view = games["standard_end"]
    assert view["phase"] == "over" and view["result"]
    winner = next(s for s in view["result"]["seats"] if s["rank"] == 1)
    with c.record_text() as drawn:
        img = b.end_image(view, NAMES)
    top = [d for d in drawn.on(img) if d.box[3] < 400 and d.key and d.size >= c.KEY_TEXT]
    assert any(d.text == NAMES[winner["seat"]] for d in top)
    assert any(d.text == str(winner["total"]) for d in top)


def test_hand_is_drawn_only_for_its_owner(games: dict[str, Any]) -> None:
    """The hand section appears for the viewer's own seat and never for another seat."""
    view = games["standard_mid"]
    assert view["you"] and view["you"]["seat"] == 0
    img, _ = c.canvas(1200, 800)
    assert b._hand_section(img, 100, view, 0) > 100
    img2, _ = c.canvas(1200, 800)
    assert b._hand_section(img2, 100, view, 1) == 100
    spectator = dict(view, you=None)
    assert b._hand_section(img2, 100, spectator, 0) == 100


def test_names_for_seats_and_automas(games: dict[str, Any]) -> None:
    """Seats take the given names (else "Player n"); Automas keep their own names, in the language's script."""
    solo = games["solo_full_mid"]
    who = b.player_names(solo, ["Ödön"])
    assert who[0] == "Ödön"
    assert who[1:] == ["Autommaso", "Automarta"]
    assert b.player_names(solo, ["Ödön"], "ru")[1:] == ["Автоммазо", "Автомарта"]
    assert b.player_names(games["two_player_mid"], None) == ["Player 1", "Player 2"]


def test_window_shrinks_to_four_by_four() -> None:
    """While placing, the frame shows every row/column the city can still use; a full-size city shows 4x4."""
    empty = {"cells": {}}
    assert b._window(empty, True) == (0, 0, 7, 7)
    one = {"cells": {"D4": {"face": "SHOP"}}}
    assert b._window(one, True) == (0, 0, 7, 7)
    wide = {"cells": {f"D{col}": {"face": "SHOP"} for col in range(2, 6)}}
    assert b._window(wide, True) == (0, 1, 7, 4)
    full = {"cells": {f"{r}{col}": {"face": "SHOP"} for r in "CDEF" for col in range(3, 7)}}
    assert b._window(full, True) == (2, 2, 4, 4)
    assert b._window(full, False) == (2, 2, 4, 4)


def test_duplex_halves_are_joined(games: dict[str, Any]) -> None:
    """A duplex's two halves are drawn over one dark band that fills the gap between them."""
    view = games["standard_end"]
    for city in view["cities"]:
        for name, info in (city.get("cells") or {}).items():
            if info.get("half") == 1 and info.get("other"):
                img, _ = c.canvas(1000, 800)
                geo = b.draw_city_grid(img, (0, 0), city, 500)
                r0, c0, _, _ = b._window(city, False)
                (ra, ca), (rb, cb) = b._parse(name), b._parse(info["other"])
                ba, bb = geo.cell_box(ra - r0, ca - c0), geo.cell_box(rb - r0, cb - c0)
                gap = (
                    ((ba[2] + bb[0]) // 2, (ba[1] + ba[3]) // 2)
                    if ra == rb
                    else ((ba[0] + ba[2]) // 2, (ba[3] + bb[1]) // 2)
                )
                assert img.getpixel(gap) == c.INK
                return
    pytest.fail("a finished game has duplexes")


def test_open_cells_are_named(games: dict[str, Any]) -> None:
    """While placing, every open cell of the city is drawn white (named), others are not."""
    view = games["standard_mid"]
    city = next(cty for cty in view["cities"] if cty.get("open"))
    img, _ = c.canvas(1000, 900)
    geo = b.draw_city_grid(img, (0, 0), city, 600, placing=True)
    r0, c0, rows, cols = b._window(city, True)
    for r in range(rows):
        for col in range(cols):
            name = b._cell_name(r0 + r, c0 + col)
            if name in (city.get("cells") or {}):
                continue
            x0, _, _, y1 = geo.cell_box(r, col)
            corner = img.getpixel((x0 + 6, y1 - 6))
            assert (corner == c.PANEL) == (name in city["open"]), name


def _card(city: dict[str, Any], max_grid: int | None = None) -> tuple[int, list[c.DrawnText], list[c.DrawnText]]:
    """A table card drawn at the board's card width: (bottom, the six category numbers, the note lines)."""
    width = (c.IMAGE_WIDTH - 2 * b.MARGIN - b.GAP) // 2
    with c.record_text() as drawn:
        img, _ = c.canvas(width + 40, 1200)
        bottom = b.city_card(img, (20, 20), width, city, NAMES, max_grid=max_grid)
    texts = drawn.on(img)
    size = round(b.CARD_SCORE * 0.72)
    numbers = [d for d in texts if d.text.isdigit() and not d.key and d.size == size]
    notes = [d for d in texts if d.size == b.NOTE_TEXT]
    assert len(numbers) == len(b.CATEGORIES)
    return bottom, numbers, notes


def test_card_scores_stand_beside_the_grid_and_the_note_under_them_or_the_grid(games: dict[str, Any]) -> None:
    """On the table a card's six category scores stand in one column right of its grid, within the grid's
    height, with the factories' worth under them; when the worth does not fit there it goes under the grid
    across the card; a grid too short for the column has the scores in rows under it, as before."""
    city = next(cty for cty in games["standard_end"]["cities"] if cty.get("factories") and cty.get("grid", True))
    width = (c.IMAGE_WIDTH - 2 * b.MARGIN - b.GAP) // 2
    side = min(width - 2 * b.PAD, b._grid_side(b.CARD_CELL, 4, False))
    for max_grid, beside in ((None, True), (300, False)):
        grid_w, grid_h = b._grid_width(city, max_grid or side, False)
        bottom, numbers, notes = _card(city, max_grid)
        grid_right = 20 + b.PAD + grid_w
        grid_top = (numbers[0].box[1] + numbers[0].box[3]) / 2 - b.CARD_SCORE / 2
        grid_bottom = grid_top + grid_h
        assert len({d.box[0] for d in numbers}) == 1 and numbers[0].box[0] > grid_right
        assert all(a.box[3] < n.box[1] for a, n in itertools.pairwise(numbers))
        assert numbers[-1].box[3] <= grid_bottom
        assert notes, "a city with factories notes their worth"
        if beside:
            assert all(grid_right < d.box[0] < numbers[0].box[0] and d.box[1] > numbers[-1].box[3] for d in notes)
            assert notes[-1].box[3] <= grid_bottom + 2
            assert bottom <= grid_bottom + b.PAD + 2
        else:
            assert all(d.box[0] < grid_right - grid_w // 2 and d.box[1] >= grid_bottom - 2 for d in notes)
    _, numbers, _ = _card(city, 200)  # a grid shorter than the column: the scores in rows under it
    assert len({d.box[1] for d in numbers}) == 2
