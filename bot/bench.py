"""``python -m bot.bench``: performance figures as one JSON object on the last line.

Gathers ``figures(quick)`` from every module in :mod:`bot.benches`. ``--quick`` runs each briefly
(CI uses it to keep the figures computable): its figures are marked (``bench.run``: ``quick``,
``bench.comparable_with_full``: false) because a few channels for a fraction of a second measure
start-up more than throughput. ``--only NAME [NAME ...]`` runs some modules.
Progress goes to stderr; stdout carries only the JSON.

The benches and the test kit they drive (:mod:`bot.testing`) are not in the installed package: they run from a
checkout installed with ``pip install -e ".[bench]"``; elsewhere this says so in one sentence.
"""

from __future__ import annotations

import importlib
import importlib.util
import json
import pkgutil
import sys
import time
from typing import Any

from bot import cli
from bot.cli import say

BENCH_KIT = ("bot.benches", "bot.testing", "jsonschema", "referencing", "hypothesis")
"""What the benches need beyond the runtime: a checkout's bench and test kit, and the bench extra."""


def kit(name: str) -> Any:
    """Import a module of the benches; the sentence "no benches here" when the kit is not installed."""
    try:
        return importlib.import_module(name)
    except ModuleNotFoundError as exc:
        missing = exc.name or name
        if any(missing == k or missing.startswith(f"{k}.") for k in BENCH_KIT):
            raise cli.UsageError("cli.bench.no_kit", missing=missing) from None
        raise


def modules() -> list[str]:
    spec = importlib.util.find_spec("bot.benches")
    if spec is None or not spec.submodule_search_locations:
        raise cli.UsageError("cli.bench.no_kit", missing="bot.benches")
    return sorted(m.name for m in pkgutil.iter_modules(spec.submodule_search_locations))


def pick(name: str, known: list[str]) -> str:
    """A module by its name, or by a part of it that names one module (``turn`` for ``<game>_turn``)."""
    if name in known:
        return name
    found = [m for m in known if name and name in m.split("_")]
    if len(found) == 1:
        return found[0]
    if found:
        raise cli.UsageError("cli.bench.ambiguous_module", module=name, modules=", ".join(found))
    raise cli.UsageError("cli.bench.unknown_module", module=name, modules=", ".join(known))


def command(argv: list[str]) -> int:
    known = modules()
    parser = cli.Parser(
        "python -m bot.bench", say("cli.bench.description"), say("cli.bench.epilog", modules=", ".join(known))
    )
    parser.add_argument("--quick", action="store_true", help=say("cli.bench.quick"))
    parser.add_argument("--only", action="extend", nargs="+", metavar="MODULE", help=say("cli.bench.only"))
    args = parser.parse_args(argv)
    chosen = [pick(name, known) for name in args.only or ()]
    out: dict[str, Any] = {"bench.run": "quick" if args.quick else "full", "bench.comparable_with_full": not args.quick}
    if args.quick:
        print(f"bench: {say('cli.bench.quick_not_comparable')}", file=sys.stderr, flush=True)
    for name in dict.fromkeys(chosen or known):
        t0 = time.perf_counter()
        print(f"bench: {name}…", file=sys.stderr, flush=True)
        module = kit(f"bot.benches.{name}")
        try:
            out.update(module.figures(quick=args.quick))
        except Exception as exc:  # a broken bench is reported, not hidden
            out[f"{name}.error"] = repr(exc)
        out[f"{name}.bench_seconds"] = round(time.perf_counter() - t0, 2)
    print(json.dumps(out, sort_keys=True))
    return 1 if any(k.endswith(".error") for k in out) else 0


def main(argv: list[str] | None = None) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    return cli.run(lambda: command(args))


if __name__ == "__main__":
    raise SystemExit(main())
