"""Rendering figures: for each game renderer, drawing time beside PNG encoding time, and bytes.

``figures(quick)`` plays seeded games with the rules' own AI, takes views mid-game and at the end,
and times every image kind: drawing (view -> PIL image) p50/p90, then encoding the same image
(image -> PNG bytes) p50, their ratio, and the PNG size. ``quick`` uses fewer repetitions.
Each game gives its own sample pictures (``render_samples`` in ``bot/benches/<kind>.py``), bound to its kind
below (:data:`SAMPLES`, one line per game: the bench's front-end binding). Importing them loads every game's
renderer, as the bot does (:mod:`render.pictures`): the PNG palette keeps the design colours of the renderers
loaded, so the pictures timed are byte for byte the bot's.
"""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable
from typing import Any

from PIL import Image

from bot import games
from bot.benches import btc, quadropolis, urbanpanic
from render import common

Case = tuple[str, Callable[[], Image.Image]]
Sample = tuple[str, Callable[[], Any]]
"""A named picture the render bench times: ``(kind, () -> PIL image)``."""

SAMPLES: dict[str, Callable[[], list[Sample]]] = {
    "quadropolis": quadropolis.render_samples,
    "btc": btc.render_samples,
    "urbanpanic": urbanpanic.render_samples,
}
"""kind -> the pictures of a seeded game the bench times."""


def _ms(seconds: float) -> float:
    return round(seconds * 1000, 2)


def _time_case(draw: Callable[[], Image.Image], repeats: int) -> dict[str, Any]:
    draw()  # warm caches (fonts, glyph sprites) as a running bot would have them
    draw_times: list[float] = []
    encode_times: list[float] = []
    size = 0
    dims = (0, 0)
    for _ in range(repeats):
        t0 = time.perf_counter()
        img = draw()
        t1 = time.perf_counter()
        data = common.png_bytes(img)
        t2 = time.perf_counter()
        draw_times.append(t1 - t0)
        encode_times.append(t2 - t1)
        size = len(data)
        dims = img.size
    draw_p50 = statistics.median(draw_times)
    encode_p50 = statistics.median(encode_times)
    return {
        "draw_ms_p50": _ms(draw_p50),
        "draw_ms_max": _ms(max(draw_times)),
        "encode_ms_p50": _ms(encode_p50),
        "draw_to_encode_ratio": round(draw_p50 / encode_p50, 2) if encode_p50 else None,
        "total_ms_p50": _ms(draw_p50 + encode_p50),
        "png_bytes": size,
        "size_px": list(dims),
        "repeats": repeats,
    }


def figures(quick: bool = False) -> dict[str, Any]:
    """Per game renderer and image kind: draw p50, encode p50, their ratio, bytes per PNG."""
    repeats = 3 if quick else 15
    out: dict[str, Any] = {"render.repeats": repeats, "render.games": {}}
    for game in games.GAMES:
        if game not in SAMPLES:
            continue
        try:
            cases = SAMPLES[game]()
        except Exception as exc:  # a rules package broken mid-edit: report it, measure the others
            out["render.games"][game] = {"available": False, "error": f"{type(exc).__name__}: {exc}"}
            continue
        out["render.games"][game] = {
            "available": True,
            "images": {name: _time_case(draw, repeats) for name, draw in cases},
        }
    out["render.league_table_1000"] = _league_table(repeats)
    return out


def _league_table(repeats: int) -> dict[str, Any]:
    """One page of a 1,000-member league's standings picture (a page is capped at 25 rows)."""
    from dataclasses import dataclass

    from render.leagues import standings_png

    @dataclass(frozen=True)
    class Row:
        name: str
        games: int
        wins: int
        average_place: float
        ordinal: float

    rows = [Row(f"Player {i:04d} with a long name", 10, i % 10, 1.5, 25.0 - i / 100) for i in range(1000)]
    times = []
    data = b""
    for _ in range(repeats):
        t0 = time.perf_counter()
        data = standings_png("A league - season 1", "A game", rows, rated=True, loc="en")
        times.append(time.perf_counter() - t0)
    height = int.from_bytes(data[20:24], "big")  # the PNG header's height
    return {
        "members": len(rows),
        "ms_p50": _ms(statistics.median(times)),
        "png_bytes": len(data),
        "height_px": height,
        "repeats": repeats,
    }


if __name__ == "__main__":
    import json
    import sys

    print(json.dumps(figures("--quick" in sys.argv), indent=2, ensure_ascii=False))
