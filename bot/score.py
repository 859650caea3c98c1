"""``python -m bot score GAME FILE``: score a physical game's city (FILE, or ``-`` for stdin).

Prints the calculator's JSON on stdout; bad input gets one sentence on stderr and exit status 2.
The file formats are in each game's spec (Quadropolis section 16, Between Two Cities section 14).
"""

from __future__ import annotations

import importlib
import json
import sys

from bot.i18n import error_text
from bot.rules.core import GameError

CALCULATORS = {
    "quadropolis": "bot.rules.quadropolis.calculator",
    "btc": "bot.rules.btc.calculator",
    "urbanpanic": "bot.rules.urbanpanic.calculator",
}
USAGE = "usage: python -m bot score {quadropolis|btc|urbanpanic} FILE   (FILE may be - for standard input)"


def main(argv: list[str]) -> int:
    if len(argv) != 2 or argv[0] not in CALCULATORS:
        print(USAGE, file=sys.stderr)
        return 2
    game, path = argv
    try:
        module = importlib.import_module(CALCULATORS[game])
    except ModuleNotFoundError:
        print(f"error: the {game} score calculator is not available in this version.", file=sys.stderr)
        return 2
    try:
        text = sys.stdin.read() if path == "-" else open(path, encoding="utf-8").read()  # noqa: SIM115
    except OSError as exc:
        print(f"error: cannot read {path}: {exc.strerror}.", file=sys.stderr)
        return 2
    except UnicodeDecodeError:
        print(f"error: {path} is not a UTF-8 text file.", file=sys.stderr)
        return 2
    try:
        result = module.score_text(text)
    except GameError as exc:
        print(f"error: {error_text(exc)}", file=sys.stderr)
        return 2
    print(json.dumps(result, indent=2, ensure_ascii=False))
    return 0
