"""``python -m bot.bench``: performance figures as one JSON object on the last line.

Gathers ``figures(quick)`` from every module in :mod:`bot.benches`. ``--quick`` runs each briefly
(CI uses it to keep the figures computable); ``--only NAME`` runs some modules.
Progress goes to stderr; stdout carries only the JSON.
"""

from __future__ import annotations

import argparse
import importlib
import json
import pkgutil
import sys
import time
from typing import Any

import bot.benches


def modules() -> list[str]:
    return sorted(m.name for m in pkgutil.iter_modules(bot.benches.__path__))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bot.bench", description=__doc__)
    parser.add_argument("--quick", action="store_true", help="short runs (seconds, not minutes)")
    parser.add_argument("--only", action="append", choices=modules(), help="run only these modules")
    args = parser.parse_args(argv)
    out: dict[str, Any] = {}
    for name in args.only or modules():
        t0 = time.perf_counter()
        print(f"bench: {name}…", file=sys.stderr, flush=True)
        module = importlib.import_module(f"bot.benches.{name}")
        try:
            out.update(module.figures(quick=args.quick))
        except Exception as exc:  # a broken bench is reported, not hidden
            out[f"{name}.error"] = repr(exc)
        out[f"{name}.bench_seconds"] = round(time.perf_counter() - t0, 2)
    print(json.dumps(out, sort_keys=True))
    return 1 if any(k.endswith(".error") for k in out) else 0


if __name__ == "__main__":
    raise SystemExit(main())
