"""SQLite and PostgreSQL side by side in one load bench: the two process modes run in turns (``REPEATS`` times,
the order swapped each time so neither always runs on the warmer or quieter machine), and the figures say
how far apart the repetitions were and what PostgreSQL costs against SQLite.

For each mode (``load.process``, ``load.postgres.process``):

- its usual names carry the repetition with the median moves per second (every figure of that one run);
- ``<mode>.runs`` how many ran; ``<mode>.<figure>.runs`` every repetition's value, ``.min``, ``.max`` and
  ``.stdev`` (for ``moves_per_s``, ``cpu_ms_per_move.bot``, ``move_ack_p95_ms``,
  ``db.round_trips_per_move``); ``<mode>.loadavg_1m.runs``: the machine's load average as each began;
- ``lost``, ``duplicated``, ``unacknowledged`` and ``errors`` summed over every repetition (one bad run
  is not hidden by a good median).

``load.ratio.postgres_to_sqlite.moves_per_s`` and ``.cpu_ms_per_move`` compare the two medians (PostgreSQL
over SQLite: the aim is at least 0.8 and at most 1.2), with ``.min`` / ``.max`` over the repetitions' pairs.

Split from :mod:`bot.benches.load` (the module budget, ARCHITECTURE.md).
"""

from __future__ import annotations

import os
import statistics
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

REPEATS = 3
"""Repetitions of each process mode in a full run (a quick run: one)."""
SPREAD = ("moves_per_s", "cpu_ms_per_move.bot", "move_ack_p95_ms", "db.round_trips_per_move")
SUMMED = ("lost", "duplicated", "unacknowledged", "errors")
SQLITE_MODE = "load.process"
POSTGRES_MODE = "load.postgres.process"

Step = Callable[[str, int, float, Path], Awaitable[dict[str, Any]]]
"""Runs one mode: (prefix, channels, seconds, workdir) -> its figures."""


async def side_by_side(step: Step, channels: int, seconds: float, workdir: Path, repeats: int) -> dict[str, Any]:
    """Both process modes ``repeats`` times, in alternating order; their figures (module docstring)."""
    runs: dict[str, list[dict[str, Any]]] = {SQLITE_MODE: [], POSTGRES_MODE: []}
    for turn in range(repeats):
        order = (SQLITE_MODE, POSTGRES_MODE) if turn % 2 == 0 else (POSTGRES_MODE, SQLITE_MODE)
        for prefix in order:
            loadavg = round(os.getloadavg()[0], 2)
            run_dir = workdir / f"{prefix}-{turn}"
            run_dir.mkdir(parents=True, exist_ok=True)
            figures = await step(prefix, channels, seconds, run_dir)
            runs[prefix].append({**figures, f"{prefix}.loadavg_1m": loadavg})
    out: dict[str, Any] = {}
    for prefix, done in runs.items():
        out.update(combine(prefix, done))
    out.update(ratios(runs[SQLITE_MODE], runs[POSTGRES_MODE]))
    return out


def combine(prefix: str, runs: list[dict[str, Any]]) -> dict[str, Any]:
    """One mode's repetitions as one set of figures (the median run's, the spread, the sums)."""
    if any(f"{prefix}.skipped" in r for r in runs):
        return next(r for r in runs if f"{prefix}.skipped" in r)
    measured = [r for r in runs if isinstance(r.get(f"{prefix}.moves_per_s"), int | float)]
    if not measured:
        return runs[0] if runs else {}
    ordered = sorted(measured, key=lambda r: r[f"{prefix}.moves_per_s"])
    out = dict(ordered[(len(ordered) - 1) // 2])
    out[f"{prefix}.runs"] = len(runs)
    out[f"{prefix}.loadavg_1m.runs"] = [r.get(f"{prefix}.loadavg_1m") for r in runs]
    for name in SPREAD:
        values = [r[f"{prefix}.{name}"] for r in measured if isinstance(r.get(f"{prefix}.{name}"), int | float)]
        if values:
            out.update(spread(f"{prefix}.{name}", values))
    for name in SUMMED:
        out[f"{prefix}.{name}"] = sum(int(r.get(f"{prefix}.{name}", 0) or 0) for r in runs)
    if len(measured) < len(runs):
        first = next(r for r in runs if r not in measured)
        out[f"{prefix}.first_error"] = first.get(f"{prefix}.first_error", "a repetition gave no figures")
    return out


def spread(key: str, values: list[float]) -> dict[str, Any]:
    """``key.runs`` (in the order run), ``.min``, ``.max`` and ``.stdev`` (0 for one value)."""
    return {
        f"{key}.runs": values,
        f"{key}.min": min(values),
        f"{key}.max": max(values),
        f"{key}.stdev": round(statistics.stdev(values), 2) if len(values) > 1 else 0.0,
    }


def ratios(sqlite: list[dict[str, Any]], postgres: list[dict[str, Any]]) -> dict[str, Any]:
    """PostgreSQL over SQLite: moves per second and the bot's CPU per move, of the medians and of each
    repetition's pair (min / max)."""
    out: dict[str, Any] = {}
    for name, figure in (("moves_per_s", "moves_per_s"), ("cpu_ms_per_move", "cpu_ms_per_move.bot")):
        a = [r.get(f"{SQLITE_MODE}.{figure}") for r in sqlite]
        b = [r.get(f"{POSTGRES_MODE}.{figure}") for r in postgres]
        pairs = [(x, y) for x, y in zip(a, b) if isinstance(x, int | float) and isinstance(y, int | float) and x > 0]
        key = f"load.ratio.postgres_to_sqlite.{name}"
        if not pairs:
            out[key] = None
            continue
        out[key] = round(statistics.median(y for _, y in pairs) / statistics.median(x for x, _ in pairs), 2)
        each = [round(y / x, 2) for x, y in pairs]
        out[f"{key}.min"], out[f"{key}.max"] = min(each), max(each)
    return out
