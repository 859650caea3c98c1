"""The story at a game's end: how long the chart and the animation take, and how big they are.

For every game in every choice of its first option (its mode or variant), at its most seats, a
seeded game played to the end by the rules' own AI (second level), then the story, the chart and
the GIF built from its move log as the bot would. Figures per case (``story.<kind>.<choice>.<n>p``):
``moves``, ``points``, ``story_ms``, ``chart_ms``, ``chart_bytes``, ``gif_ms``, ``gif_bytes``,
``gif_frames``, and each time as CPU time too (``*_cpu_ms``: on a shared machine the wall clock
also counts the others' work); and ``story.largest_gif_bytes`` with the case it came from (Discord
takes 8 MB).

``--quick``: each game's first choice at its fewest seats, the animation with 2 frames (start, end).
"""

from __future__ import annotations

import io
import time
from collections.abc import Mapping
from typing import Any

from PIL import Image

from bot import games
from bot import story as st
from bot.rules import core
from render import story as pictures

THINK_MS = (400, 2500)
"""Timed games: each AI move arrives this many simulated ms after the seat's previous one."""
MAX_STEPS = 5000
NAMES = ("Ödön Łukasz Жанна", "Bob", "Cyd the Great Builder of Cities", "Dee", "Eve", "Fay", "Gus")


def play_logged(
    kind: str, options: Mapping[str, Any], seats: int, seed: int, level: str | None = None
) -> tuple[Any, list[tuple[int, dict[str, Any]]]]:
    """A seeded game played to the end by the rules' AI: (final state, move log as stored).

    Games that use time get moves stamped with a simulated clock per seat, and the system's move
    (a timer running out) when it falls due, as the service would apply it.
    """
    rules = games.rules(kind)
    level = level or (rules.ai_levels[1] if len(rules.ai_levels) > 1 else rules.ai_levels[0])
    state = rules.setup(options, seats, seed)
    clock_rng = core.rng(seed, "story", "clock")
    clock = {seat: clock_rng.randint(*THINK_MS) for seat in range(seats)}
    log: list[tuple[int, dict[str, Any]]] = []
    steps = 0
    while not rules.is_over(state):
        if steps >= MAX_STEPS:
            raise RuntimeError(f"{kind} {dict(options)} seed {seed}: no end after {MAX_STEPS} moves")
        awaited = rules.awaiting(state)
        if rules.uses_time:
            seat = min(awaited, key=lambda s: (clock.get(s, 0), s))
            due = rules.system_move(state, clock[seat])
            if due is not None:
                move = {**due, "at": clock[seat]}
                state = rules.apply(state, core.SYSTEM_SEAT, move)
                log.append((core.SYSTEM_SEAT, move))
                continue
        else:
            seat = min(awaited)
        move = dict(rules.ai_move(state, seat, level, core.derive_seed(seed, "story", steps)))
        if rules.uses_time:
            move["at"] = clock[seat]
            clock[seat] += clock_rng.randint(*THINK_MS)
        state = rules.apply(state, seat, move)
        log.append((seat, move))
        steps += 1
    return state, log


def cases(quick: bool = False) -> list[tuple[str, dict[str, str], int]]:
    """(kind, options, seats): every game in every choice of its first option at its most seats
    (quick: the first choice at the fewest seats)."""
    out = []
    for kind, game in games.GAMES.items():
        specs = game.rules.option_specs
        choices = [{specs[0].name: choice} for choice in specs[0].choices] if specs else [{}]
        for options in choices[:1] if quick else choices:
            low, high = game.rules.seat_range(options)
            out.append((kind, options, low if quick else high))
    return out


def measure(kind: str, options: Mapping[str, Any], seats: int, seed: int, most_frames: int) -> dict[str, Any]:
    """One case's figures (see the module's docstring)."""
    _, log = play_logged(kind, options, seats, seed)
    names = list(NAMES[:seats])
    clocks = [(time.perf_counter(), time.process_time())]
    told = st.build(kind, options, seats, seed, log, keep_views=True)
    clocks.append((time.perf_counter(), time.process_time()))
    chart = pictures.chart_png(told, names)
    clocks.append((time.perf_counter(), time.process_time()))
    gif = pictures.growth_gif(told, names, most_frames=most_frames)
    clocks.append((time.perf_counter(), time.process_time()))

    def ms(step: int, which: int) -> float:
        return round((clocks[step][which] - clocks[step - 1][which]) * 1000, 1)

    frames = getattr(Image.open(io.BytesIO(gif)), "n_frames", 1)
    return {
        "moves": len(log),
        "points": len(told.points),
        "story_ms": ms(1, 0),
        "story_cpu_ms": ms(1, 1),
        "chart_ms": ms(2, 0),
        "chart_cpu_ms": ms(2, 1),
        "chart_bytes": len(chart),
        "gif_ms": ms(3, 0),
        "gif_cpu_ms": ms(3, 1),
        "gif_bytes": len(gif),
        "gif_frames": frames,
    }


def figures(quick: bool = False) -> dict[str, Any]:
    out: dict[str, Any] = {}
    largest = (0, "")
    for number, (kind, options, seats) in enumerate(cases(quick)):
        choice = next(iter(options.values()), "default")
        name = f"story.{kind}.{choice}.{seats}p"
        figures_ = measure(kind, options, seats, 101 + number, 1 if quick else pictures.MAX_FRAMES)
        out.update({f"{name}.{key}": value for key, value in figures_.items()})
        if figures_["gif_bytes"] > largest[0]:
            largest = (figures_["gif_bytes"], name)
    out["story.largest_gif_bytes"] = largest[0]
    out["story.largest_gif_case"] = largest[1]
    out["story.gif_limit_bytes"] = 8 * 1024 * 1024
    return out
