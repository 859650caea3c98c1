"""Quadropolis images drawn from views of real seeded games."""

from __future__ import annotations

import io
from typing import Any

import pytest
from PIL import Image, ImageChops

from bot.rules.quadropolis.rules import RULES
from render import common as c
from render import pictures
from render import quadropolis as q

QP = pictures.get("quadropolis")
"""The game's pictures as the bot draws them (PNG)."""

NAMES = ["Ödön Łukasz Жанна", "Bob", "Cyd the Great Builder of Cities", "Dee"]


def _play(mode: str, players: int, seed: int, moves: int | None, level: str = "greedy") -> Any:
    state = RULES.setup({"mode": mode}, players, seed)
    i = 0
    while not RULES.is_over(state) and (moves is None or i < moves):
        (seat,) = RULES.awaiting(state)
        state = RULES.apply(state, seat, RULES.ai_move(state, seat, level, seed + i))
        i += 1
    return state


@pytest.fixture(scope="module")
def games() -> dict[str, Any]:
    """Views of seeded games: mid-game (several turns in, in both phases) and finished."""
    out: dict[str, Any] = {}
    mid = _play("classic", 3, 11, 9)
    out["classic_mid"] = RULES.view(mid, 0)
    build = mid
    while RULES.view(build, None)["turn"]["phase"] != "build":
        (seat,) = RULES.awaiting(build)
        build = RULES.apply(build, seat, RULES.ai_move(build, seat, "greedy", 5))
    out["classic_build"] = RULES.view(build, None)
    out["classic_end"] = RULES.view(_play("classic", 4, 19, None), None)  # seed with inactive buildings
    out["expert_mid"] = RULES.view(_play("expert", 2, 13, 23), 1)
    out["expert_end"] = RULES.view(_play("expert", 4, 14, None, "random"), None)
    return out


def _open(data: bytes) -> Image.Image:
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    img = Image.open(io.BytesIO(data))
    img.load()
    return img


@pytest.mark.parametrize("key", ["classic_mid", "classic_build", "classic_end", "expert_mid", "expert_end"])
def test_every_view_renders_every_image(games: dict[str, Any], key: str) -> None:
    """Turn, city, board and end images render from real views, at least 1000 px wide, under 400 KB."""
    view = games[key]
    seat = view["turn"]["seat"] if view["turn"]["seat"] is not None else 0
    for data in (
        QP.render_turn(view, seat, NAMES),
        QP.render_city(view, seat, NAMES),
        QP.render_board(view, NAMES),
        QP.render_end(view, NAMES),
    ):
        img = _open(data)
        assert img.width >= 1000
        assert 400 < img.height < 2600
        assert len(data) < 400_000


def test_default_names_when_none_given(games: dict[str, Any]) -> None:
    """Without names the images still draw ("Player n")."""
    view = games["classic_mid"]
    assert q.turn_image(view, 0).width >= 1000
    assert q._names(view, None) == ["Player 1", "Player 2", "Player 3"]
    assert q._names(view, ["Ann"]) == ["Ann", "Player 2", "Player 3"]


def test_site_shows_face_down_squares_and_architects(games: dict[str, Any]) -> None:
    """Face-down squares draw the face-down card; a slot with an architect shows its owner's marker."""
    view = games["classic_mid"]
    img, _ = c.canvas(1000, 700)
    q.draw_site(img, (0, 0), view)
    squares = view["site"]["squares"]
    face_down = [(r, col) for r in range(5) for col in range(5) if squares[r][col]["state"] == "face_down"]
    assert face_down, "a 3-player game leaves face-down tiles"
    r, col = face_down[0]
    x = q.SITE_SLOT + col * (q.SITE_CELL + q.SITE_GAP)
    y = q.SITE_SLOT + r * (q.SITE_CELL + q.SITE_GAP)
    crop = img.crop((x, y, x + q.SITE_CELL, y + q.SITE_CELL))
    expected = Image.new("RGB", crop.size, (214, 207, 192))
    expected.paste(c.face_down_image(q.SITE_CELL), (0, 0), c.face_down_image(q.SITE_CELL))
    assert ImageChops.difference(crop, expected).getbbox() is None
    placed = {k: v for k, v in view["site"]["slots"].items() if v}
    assert placed
    colours = {c.player_style(v["seat"]).colour for v in placed.values()}
    pixels = {img.getpixel((x, y)) for x in range(0, img.width, 2) for y in range(0, img.height, 2)}
    assert colours <= pixels


def test_build_phase_outlines_exactly_the_destinations(games: dict[str, Any]) -> None:
    """While a tile waits to be built, the acting city outlines its legal squares, and only those."""
    view = games["classic_build"]
    pending = view["pending"]
    assert pending and pending["destinations"]
    city = view["cities"][pending["seat"]]
    img, _ = c.canvas(1000, 800)
    geo = q.draw_city(img, (0, 0), city, 120, show_allocation=False, pending=pending)
    targets = {d["square"] for d in pending["destinations"]}
    for r in range(city["rows"]):
        for col in range(city["columns"]):
            name = f"{chr(65 + r)}{col + 1}"
            x0, y0, _x1, _ = geo.cell_box(r, col)
            edge = img.getpixel((x0 + 10, y0))  # the top edge, away from the rounded corner
            assert (edge == c.HIGHLIGHT) == (name in targets), name


def _diff(a: Image.Image, b: Image.Image) -> float:
    from PIL import ImageStat

    return sum(ImageStat.Stat(ImageChops.difference(a.convert("RGB"), b.convert("RGB"))).mean) / 3


def _end_with_inactive_building() -> Any:
    """A finished game whose optimal allocation leaves a building inactive (random play: common)."""
    for seed in range(40):
        view = RULES.view(_play("classic", 4, seed, None, "random"), None)
        if any(
            sq["building"] and not sq["building"]["active"]
            for city in view["cities"]
            for row in city["squares"]
            for sq in row
        ):
            return view
    pytest.fail("no seed in 0-39 gives an inactive building")


def test_end_image_marks_inactive_buildings() -> None:
    """At the end, a building left inactive by the optimal allocation is faded; active ones are not."""
    view = _end_with_inactive_building()
    assert view["over"] and view["result"]
    seen = {True: 0, False: 0}
    for city in view["cities"]:
        img, _ = c.canvas(1000, 700)
        geo = q.draw_city(img, (0, 0), city, 120, show_allocation=True)
        for r, row in enumerate(city["squares"]):
            for col, sq in enumerate(row):
                b = sq["building"]
                if not b:
                    continue
                crop = img.crop(geo.cell_box(r, col))
                background = Image.new("RGB", (120, 120), c.BACKGROUND)
                plain, faded = background.copy(), background.copy()
                plain.paste(c.glyph_image(q._tile_key(b), 120), (0, 0), c.glyph_image(q._tile_key(b), 120))
                fimg = c.glyph_image(q._tile_key(b), 120, faded=True)
                faded.paste(fimg, (0, 0), fimg)
                closer_to_faded = _diff(crop, faded) < _diff(crop, plain)
                assert closer_to_faded == (not b["active"]), sq["square"]
                seen[b["active"]] += 1
    assert seen[True] > 0 and seen[False] > 0


def test_end_image_contains_the_score_table(games: dict[str, Any]) -> None:
    """The end image is the cities over the score table (taller than the cities alone)."""
    view = games["expert_end"]
    end = q.end_image(view, NAMES)
    board = q.board_image(view, NAMES)
    assert end.height > board.height + 300


def test_turn_renders_fast(games: dict[str, Any]) -> None:
    """A warm turn image draws in well under 200 ms (median of 5)."""
    import time

    view = games["expert_mid"]
    q.turn_image(view, 1, NAMES)
    times = []
    for _ in range(5):
        t = time.perf_counter()
        q.turn_image(view, 1, NAMES)
        times.append(time.perf_counter() - t)
    assert sorted(times)[2] < 0.2
