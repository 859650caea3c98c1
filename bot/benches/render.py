"""Rendering figures: for each game renderer, drawing time beside PNG encoding time, and bytes.

``figures(quick)`` plays seeded games with the rules' own AI, takes views mid-game and at the end,
and times every image kind: drawing (view -> PIL image) p50/p90, then encoding the same image
(image -> PNG bytes) p50, their ratio, and the PNG size. ``quick`` uses fewer repetitions.
Games whose rules or renderer cannot be imported yet are reported as unavailable.
"""

from __future__ import annotations

import importlib
import statistics
import time
from collections.abc import Callable
from typing import Any

from PIL import Image

from render import common

NAMES = ["Ödön Łukasz Жанна", "Bob", "Cyd the Great Builder of Cities", "Dee", "Eve", "Fay", "Gus"]

Case = tuple[str, Callable[[], Image.Image]]


def _play(rules: Any, options: dict[str, Any], seats: int, seed: int, moves: int | None) -> Any:
    """A seeded game played by the rules' first AI level for ``moves`` moves (None: to the end)."""
    state = rules.setup(options, seats, seed)
    level = rules.ai_levels[1] if len(rules.ai_levels) > 1 else rules.ai_levels[0]
    done = 0
    while not rules.is_over(state) and (moves is None or done < moves):
        for seat in sorted(rules.awaiting(state)):
            move = rules.ai_move(state, seat, level, seed + done)
            state = rules.apply(state, seat, move)
            done += 1
            if rules.is_over(state):
                break
    return state


def _quadropolis_cases() -> list[Case]:
    from bot.rules.quadropolis.rules import RULES
    from render import quadropolis as q

    mid = RULES.view(_play(RULES, {"mode": "classic"}, 4, 1, 30), None)
    seat = mid["turn"]["seat"] or 0
    end = RULES.view(_play(RULES, {"mode": "expert"}, 4, 2, None), None)
    return [
        ("turn", lambda: q.turn_image(mid, seat, NAMES)),
        ("city", lambda: q.city_image(mid, seat, NAMES)),
        ("board", lambda: q.board_image(mid, NAMES)),
        ("end", lambda: q.end_image(end, NAMES)),
    ]


def _btc_cases() -> list[Case]:
    from bot.rules.btc.rules import RULES

    b = importlib.import_module("render.btc")
    mid_state = _play(RULES, {}, 5, 1, 25)
    end_state = _play(RULES, {}, 5, 2, None)
    mid = RULES.view(mid_state, 0)
    end = RULES.view(end_state, None)
    return [
        ("turn", lambda: b.turn_image(mid, 0, NAMES)),
        ("board", lambda: b.board_image(mid, NAMES)),
        ("end", lambda: b.end_image(end, NAMES)),
    ]


def _urbanpanic_cases() -> list[Case]:
    from bot.rules.urbanpanic.rules import RULES

    u = importlib.import_module("render.urbanpanic")
    mid_state = _play(RULES, {}, 4, 1, 40)
    end_state = _play(RULES, {}, 4, 2, None)
    mid = RULES.view(mid_state, None)
    end = RULES.view(end_state, None)
    seat = min(RULES.awaiting(mid_state) or {0})
    return [
        ("turn", lambda: u.turn_image(mid, seat, NAMES)),
        ("board", lambda: u.board_image(mid, NAMES)),
        ("end", lambda: u.end_image(end, NAMES)),
    ]


GAMES: dict[str, Callable[[], list[Case]]] = {
    "quadropolis": _quadropolis_cases,
    "btc": _btc_cases,
    "urbanpanic": _urbanpanic_cases,
}


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
    for game, make_cases in GAMES.items():
        try:
            cases = make_cases()
        except ModuleNotFoundError as exc:  # rules or renderer not written yet
            out["render.games"][game] = {"available": False, "reason": str(exc)}
            continue
        except Exception as exc:  # a rules package broken mid-edit: report it, measure the others
            out["render.games"][game] = {"available": False, "error": f"{type(exc).__name__}: {exc}"}
            continue
        out["render.games"][game] = {"available": True,
                              "images": {name: _time_case(draw, repeats) for name, draw in cases}}
    return out


if __name__ == "__main__":
    import json
    import sys

    print(json.dumps(figures("--quick" in sys.argv), indent=2, ensure_ascii=False))
