"""Pictures and the event loop: drawn inline, in a thread, or in a process pool (figures ``quadropolis_renderloop.*``).

The bot draws a picture for every announced turn and every private menu. Drawn on the event loop,
every other interaction waits for it; in a thread (``asyncio.to_thread``, what the bot does), the
loop runs whenever the drawing thread lets go of the GIL (Pillow's C code does, the Python drawing
code between its calls does not, and Python switches threads every 5 ms); in a process pool the loop
only pickles the view and unpickles the PNG. Here ``BURST`` turn pictures of a mid-game Quadropolis
table are asked for at once, as a busy evening would, while a ticker measures how late the loop
wakes up (what every other click waits on top of its own work). Per strategy: the burst's wall time,
pictures per second, and the loop's lag p50 / p95 / max.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import multiprocessing
import time
from collections.abc import Awaitable, Callable
from typing import Any

BURST = 16
QUICK_BURST = 3
TICK_SECONDS = 0.005
KIND = "quadropolis"


def draw_turn(view: Any, seat: int, names: list[str]) -> bytes:
    """One turn picture as the bot posts it (module level: a process pool can call it)."""
    from render import pictures

    renderer = pictures.get(KIND)
    assert renderer is not None
    return bytes(renderer.render_turn(view, seat, names, locale="en"))


def sample() -> tuple[Any, int, list[str]]:
    from bot.benches.quadropolis import SAMPLE_NAMES
    from bot.games import sample_state
    from bot.rules.quadropolis.rules import RULES

    view = RULES.view(sample_state(RULES, {"mode": "classic"}, 4, 1, 30), None)
    return view, int(view["turn"]["seat"] or 0), list(SAMPLE_NAMES)


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))] if ordered else float("nan")


async def burst(draw: Callable[[], Awaitable[bytes]], count: int) -> dict[str, float]:
    """``count`` pictures at once, with the loop's lag measured meanwhile."""
    lags: list[float] = []
    running = True

    async def ticker() -> None:
        while running:
            t0 = time.perf_counter()
            await asyncio.sleep(TICK_SECONDS)
            lags.append(time.perf_counter() - t0 - TICK_SECONDS)

    tick = asyncio.create_task(ticker())
    await asyncio.sleep(TICK_SECONDS * 2)
    t0 = time.perf_counter()
    pictures = await asyncio.gather(*(draw() for _ in range(count)))
    wall = time.perf_counter() - t0
    running = False
    await tick
    assert all(p.startswith(b"\x89PNG") for p in pictures)
    return {
        "wall_ms": round(1000 * wall, 1),
        "pictures_per_s": round(count / wall, 1),
        "loop_lag_p50_ms": round(1000 * pct(lags, 0.5), 1),
        "loop_lag_p95_ms": round(1000 * pct(lags, 0.95), 1),
        "loop_lag_max_ms": round(1000 * max(lags, default=float("nan")), 1),
    }


async def measure(count: int) -> dict[str, Any]:
    view, seat, names = sample()
    draw_turn(view, seat, names)  # fonts and sprites loaded, as in a running bot
    loop = asyncio.get_running_loop()

    async def inline() -> bytes:
        await asyncio.sleep(0)
        return draw_turn(view, seat, names)

    async def thread() -> bytes:
        return await asyncio.to_thread(draw_turn, view, seat, names)

    out: dict[str, Any] = {"quadropolis_renderloop.burst": count}
    for name, draw in (("inline", inline), ("thread", thread)):
        out.update({f"quadropolis_renderloop.{name}.{k}": v for k, v in (await burst(draw, count)).items()})
    context = multiprocessing.get_context("spawn")
    with concurrent.futures.ProcessPoolExecutor(max_workers=2, mp_context=context) as pool:
        await asyncio.gather(*(loop.run_in_executor(pool, draw_turn, view, seat, names) for _ in range(2)))

        async def process() -> bytes:
            return await loop.run_in_executor(pool, draw_turn, view, seat, names)

        out.update({f"quadropolis_renderloop.process_pool.{k}": v for k, v in (await burst(process, count)).items()})
    return out


def figures(quick: bool = False) -> dict[str, Any]:
    """Loop lag and throughput of a burst of turn pictures, drawn inline, in a thread, in a process pool."""
    try:
        return asyncio.run(measure(QUICK_BURST if quick else BURST))
    except ImportError as exc:  # the game or its pictures are not in this build
        return {"quadropolis_renderloop.skipped": repr(exc)}


if __name__ == "__main__":
    import json

    print(json.dumps(figures(quick=True), indent=2))
