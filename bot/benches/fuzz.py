"""Hostile files: mutated score inputs and game exports fed to ``python -m bot score`` and
``python -m bot local --replay``, in-process through :func:`bot.__main__.main`.

Every input must end with a valid result (exit 0 and, for ``score``, JSON on standard output) or with
one sentence on standard error starting ``error:`` and exit status 2; never a traceback, never the
calculator's safety-net sentence (``cli.score.unreadable``, which means a check is missing), and
within :data:`SECONDS_PER_INPUT`. Inputs come from hypothesis mutating valid files: the example file
of every game's calculator (``docs/examples/``), the sample export, and short exports of every game
played by its AI.

Figures: ``fuzz.inputs`` tried, ``fuzz.failures`` (inputs that broke a rule above), and
``fuzz.max_seconds`` for one input. The full run tries :data:`FULL_EXAMPLES` inputs; the tests run a
bounded number in CI (``tests/cli/test_fuzz.py``). Replays write no pictures here (drawing is not
input handling and would dominate the time); the tests run a few replays with pictures as real processes.

Needs a checkout (the examples in ``docs/``) and the test extra (hypothesis).
"""

from __future__ import annotations

import contextlib
import functools
import io
import json
import tempfile
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from bot import export, games

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = ROOT / "docs" / "examples"
FULL_EXAMPLES = 20_000
QUICK_EXAMPLES = 400
SECONDS_PER_INPUT = 5.0
EXPORT_MOVES = 6
"""Moves kept in each generated export (replays stay short; the mutations reach every field anyway)."""


@dataclass(frozen=True)
class Seed:
    """A valid file and the command that reads it."""

    command: str  # "score" or "replay"
    kind: str
    data: Any


@dataclass
class Outcome:
    status: int
    out: str
    err: str
    seconds: float


@dataclass
class Tally:
    inputs: int = 0
    failures: list[str] = field(default_factory=list)
    max_seconds: float = 0.0


def export_of(kind: str, moves: int = EXPORT_MOVES, seed: int = 4242) -> dict[str, Any]:
    """A short export (the first ``moves`` moves) of a game of ``kind`` played by its AI."""
    rules = games.rules(kind)
    opts = rules.normalise_options({})
    seats = rules.seat_range(opts)[0]
    state = rules.setup(opts, seats, seed)
    level = "random" if "random" in rules.ai_levels else rules.ai_levels[0]
    log = []
    at = 1_718_100_000_000
    for version in range(1, moves + 1):
        if rules.is_over(state) or not rules.awaiting(state):
            break
        seat = min(rules.awaiting(state))
        move = dict(rules.ai_move(state, seat, level, seed + version))
        at += 60_000
        if rules.uses_time:
            move["at"] = at
        state = rules.apply(state, seat, move)
        log.append({"version": version, "seat": seat, "move": move, "at": at})
    return {
        "format": export.FORMAT,
        "id": 1,
        "game": kind,
        "options": opts,
        "seed": seed,
        "status": "abandoned",
        "seats": [{"seat": i, "name": f"P{i + 1}", "ai": level, "resigned": False} for i in range(seats)],
        "moves": log,
        "result": None,
        "created_at": at,
        "started_at": at,
        "finished_at": at,
    }


def seeds() -> list[Seed]:
    out = []
    for kind in games.available():
        if games.get(kind).calculator is not None:
            path = EXAMPLES / f"{kind}.json"
            out.append(Seed("score", kind, json.loads(path.read_text(encoding="utf-8"))))
        out.append(Seed("replay", kind, export_of(kind)))
    sample = EXAMPLES / "sample-export.json"
    data = json.loads(sample.read_text(encoding="utf-8"))
    data["moves"] = data["moves"][:EXPORT_MOVES]
    data["status"], data["result"] = "abandoned", None  # cut short: it no longer ends as it says
    out.append(Seed("replay", str(data["game"]), data))
    return out


def run(command: str, kind: str, text: str, folder: Path) -> Outcome:
    """One input through ``bot.__main__.main``, in this process, its output captured."""
    from bot.__main__ import main

    path = folder / "input.json"
    path.write_text(text, encoding="utf-8", errors="surrogatepass")
    argv = (
        ["score", kind, str(path)]
        if command == "score"
        else ["local", "--replay", str(path), "--out", str(folder / "out")]
    )
    out, err = io.StringIO(), io.StringIO()
    t0 = time.perf_counter()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        status = main(argv)
    return Outcome(status, out.getvalue(), err.getvalue(), time.perf_counter() - t0)


def problem(command: str, outcome: Outcome) -> str | None:
    """What is wrong with an outcome (None when it is one of the two allowed endings)."""
    from bot.cli import say

    if outcome.seconds > SECONDS_PER_INPUT:
        return f"took {outcome.seconds:.1f} s"
    if "Traceback" in outcome.err or "Traceback" in outcome.out:
        return "traceback"
    if outcome.status == 0:
        if outcome.err:
            return f"exit 0 with standard error: {outcome.err[:200]!r}"
        if command == "score":
            try:
                result = json.loads(outcome.out)
            except ValueError:
                return "exit 0 without JSON"
            if not isinstance(result, dict) or "total" not in result:
                return "exit 0 without a total"
        return None
    if outcome.status != 2:
        return f"exit status {outcome.status}"
    lines = outcome.err.splitlines()
    if len(lines) != 1 or not lines[0].startswith("error: "):
        return f"not one sentence: {outcome.err[:300]!r}"
    net = say("cli.score.unreadable", game="\x00").split("\x00")[0]
    if net and lines[0].startswith("error: " + net):
        return f"the calculator's safety net answered: {lines[0][:200]!r}"
    return None


# -- mutations --------------------------------------------------------------------------------

HUGE = ("9" * 5000, "1" + "0" * 19, "-" + "9" * 40, "1e18", "1e400", "-1e400", "NaN", "Infinity", "-0")


def _paths(value: Any, prefix: tuple[Any, ...] = ()) -> Iterator[tuple[Any, ...]]:
    yield prefix
    if isinstance(value, dict):
        for key, inner in value.items():
            yield from _paths(inner, (*prefix, key))
    elif isinstance(value, list):
        for i, inner in enumerate(value):
            yield from _paths(inner, (*prefix, i))


def _replace(value: Any, path: tuple[Any, ...], new: Callable[[Any], Any]) -> Any:
    if not path:
        return new(value)
    head, rest = path[0], path[1:]
    if isinstance(value, dict):
        return {k: (_replace(v, rest, new) if k == head else v) for k, v in value.items()}
    if isinstance(value, list):
        return [(_replace(v, rest, new) if i == head else v) for i, v in enumerate(value)]
    return value


_DELETE = object()


def _prune(value: Any) -> Any:
    if isinstance(value, dict):
        return {k: _prune(v) for k, v in value.items() if v is not _DELETE}
    if isinstance(value, list):
        return [_prune(v) for v in value if v is not _DELETE]
    return value


def strategy() -> Any:
    """Hypothesis strategy of (command, kind, text): a valid file, mutated."""
    from hypothesis import strategies as st

    scalars = st.one_of(
        st.none(),
        st.booleans(),
        st.integers(min_value=-(10**30), max_value=10**30),
        st.sampled_from([0, -1, 1, 2, 3, 4, 5, 7, 16, 17, 999, 1000, 10**18, 2**63, -(2**63)]),
        st.floats(allow_nan=False, allow_infinity=False),
        st.text(max_size=30),
        st.sampled_from(
            [
                "",
                ".",
                "-",
                "S",
                "T9",
                "O0",
                "S5",
                "U7",
                "H:NESW",
                "CENTRE",
                "G01",
                "G99",
                "x" * 3000,
                "classic",
                "expert",
                "given",
                "optimal",
                "two_player",
                *games.available(),
                "\ud800",
                "\x00",
                "é" * 50,
            ]
        ),
    )
    values = st.recursive(
        scalars,
        lambda inner: st.one_of(st.lists(inner, max_size=6), st.dictionaries(st.text(max_size=8), inner, max_size=4)),
        max_leaves=6,
    )
    all_seeds = seeds()

    @st.composite
    def mutated(draw: Any) -> tuple[str, str, str]:
        seed = draw(st.sampled_from(all_seeds))
        data: Any = seed.data
        for _ in range(draw(st.integers(min_value=1, max_value=3))):
            paths = list(_paths(data))
            path = draw(st.sampled_from(paths))
            how = draw(st.sampled_from(["value", "value", "delete", "duplicate", "wrap", "key", "string"]))
            if how == "value":
                data = _replace(data, path, lambda _old: draw(values))
            elif how == "delete" and path:
                data = _prune(_replace(data, path, lambda _old: _DELETE))
            elif how == "duplicate":
                data = _replace(data, path, lambda old: [*old, *old] if isinstance(old, list) else [old, old])
            elif how == "wrap":
                depth: int = draw(st.sampled_from([1, 5, 40]))
                data = _replace(data, path, functools.partial(_nest, depth=depth))
            elif how == "key":
                data = _replace(
                    data,
                    path,
                    lambda old: {**old, draw(st.text(max_size=8)): draw(values)} if isinstance(old, dict) else old,
                )
            elif how == "string":
                data = _replace(data, path, lambda old: _edit(old, draw))
        text = _dumps(data)
        edit = draw(st.sampled_from(["none", "none", "none", "truncate", "number", "insert", "deep"]))
        if edit == "truncate":
            text = text[: draw(st.integers(min_value=0, max_value=max(0, len(text) - 1)))]
        elif edit == "number":
            at = draw(st.integers(min_value=0, max_value=len(text)))
            digits = [i for i in range(at, len(text)) if text[i].isdigit()]
            if digits:
                i = digits[0]
                text = text[:i] + draw(st.sampled_from(HUGE)) + text[i + 1 :]
        elif edit == "insert":
            at = draw(st.integers(min_value=0, max_value=len(text)))
            text = text[:at] + draw(st.text(max_size=5)) + text[at:]
        elif edit == "deep":
            n = draw(st.sampled_from([33, 1000, 100_000]))
            text = "[" * n + text + "]" * n
        return seed.command, seed.kind, text

    return mutated()


def _nest(value: Any, depth: int) -> Any:
    for _ in range(depth):
        value = [value]
    return value


def _edit(old: Any, draw: Any) -> Any:
    from hypothesis import strategies as st

    if not isinstance(old, str):
        return old
    tokens = old.split(" ")
    i = draw(st.integers(min_value=0, max_value=len(tokens) - 1))
    tokens[i] = draw(
        st.one_of(
            st.text(max_size=6),
            st.sampled_from(
                ["T99", "S" + "9" * 5000, "U-1", "H" + "1" * 30, "O6", "M-", "A:NESW", "------", "C", "T0", "S4-", ""]
            ),
        )
    )
    return " ".join(tokens)


def _dumps(data: Any) -> str:
    return json.dumps(data, ensure_ascii=False)


@contextlib.contextmanager
def no_pictures() -> Iterator[None]:
    """Replays draw nothing while fuzzing (see the module docstring)."""
    from bot import local

    real = local.Terminal.picture
    local.Terminal.picture = lambda self, *a, **k: None  # type: ignore[method-assign]
    try:
        yield
    finally:
        local.Terminal.picture = real  # type: ignore[method-assign]


def campaign(examples: int, tally: Tally, folder: Path, seed: int | None = None) -> None:
    """Run ``examples`` mutated inputs, recording every failure in ``tally`` (never stopping at one)."""
    from hypothesis import HealthCheck, Phase, given, settings
    from hypothesis import seed as fixed_seed

    # No shrinking: every failure is recorded as found (the run never stops at one).
    @settings(
        max_examples=examples,
        deadline=None,
        database=None,
        derandomize=seed is None,
        suppress_health_check=list(HealthCheck),
        phases=[Phase.explicit, Phase.generate],
    )
    @given(strategy())
    def one(case: tuple[str, str, str]) -> None:
        command, kind, text = case
        outcome = run(command, kind, text, folder)
        tally.inputs += 1
        tally.max_seconds = max(tally.max_seconds, outcome.seconds)
        found = problem(command, outcome)
        if found is not None:
            tally.failures.append(f"{command} {kind}: {found} <- {text[:300]!r}")

    test = fixed_seed(seed)(one) if seed is not None else one
    with no_pictures():
        test()


def figures(quick: bool = False) -> dict[str, Any]:
    tally = Tally()
    with tempfile.TemporaryDirectory() as tmp:
        campaign(QUICK_EXAMPLES if quick else FULL_EXAMPLES, tally, Path(tmp), seed=None if quick else 20_000)
    out: dict[str, Any] = {
        "fuzz.inputs": tally.inputs,
        "fuzz.failures": len(tally.failures),
        "fuzz.max_seconds": round(tally.max_seconds, 3),
    }
    if tally.failures:
        out["fuzz.first_failure"] = tally.failures[0]
    return out
