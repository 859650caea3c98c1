"""``python -m bot score GAME FILE``: score a physical game's city (FILE, or ``-`` for stdin).

Prints the calculator's JSON on stdout; bad input gets one sentence on stderr and exit status 2.
Each game declares its calculator in ``bot/games/<kind>.py``.
"""

from __future__ import annotations

import json
import sys

from bot import games
from bot.i18n import error_text
from bot.rules.core import GameError


def usage() -> str:
    kinds = "|".join(k for k in games.available() if games.get(k).calculator is not None)
    return f"usage: python -m bot score {{{kinds}}} FILE   (FILE may be - for standard input)"


def main(argv: list[str]) -> int:
    kind = games.resolve(argv[0]) if len(argv) == 2 else None
    calculator = games.get(kind).calculator if kind is not None else None
    if calculator is None:
        print(usage(), file=sys.stderr)
        return 2
    path = argv[1]
    try:
        text = sys.stdin.read() if path == "-" else open(path, encoding="utf-8").read()  # noqa: SIM115
    except OSError as exc:
        print(f"error: cannot read {path}: {exc.strerror}.", file=sys.stderr)
        return 2
    except UnicodeDecodeError:
        print(f"error: {path} is not a UTF-8 text file.", file=sys.stderr)
        return 2
    try:
        result = calculator(text)
    except GameError as exc:
        print(f"error: {error_text(exc)}", file=sys.stderr)
        return 2
    print(json.dumps(result, indent=2, ensure_ascii=False))
    return 0
