"""Bounded JSON for files a user hands to the command line (score inputs, game exports).

``json.loads`` on untrusted text can fail in ways that are not ``JSONDecodeError``: nesting a few
thousand levels deep raises ``RecursionError``, an integer of more than 4,300 digits raises a
``ValueError`` about Python's conversion limit, and ``NaN``/``Infinity`` are accepted although JSON
has no such numbers. :func:`loads` refuses all of these up front with :class:`JsonLimit`, whose
``key`` and ``params`` name the problem for the message catalogue (``cli.input.*``).

Pure: no I/O. The limits are generous for any real file and small enough that nothing downstream
can be made slow by them.
"""

from __future__ import annotations

import json
from typing import Any

from bot.rules.core import IllegalMove

MAX_CHARS = 1 << 20
"""1 MiB of text (a real calculator input is under 1 KiB; a long game's export under 200 KiB)."""
MAX_DEPTH = 32
"""Nesting of arrays and objects (real files use at most 5)."""
MAX_INT_DIGITS = 20
"""Whole numbers have at most 20 digits (every Discord id, 62-bit seed and timestamp fits; far below Python's 4,300)."""


class JsonLimit(ValueError):
    """The text is not acceptable JSON; ``key`` and ``params`` say why (a ``cli.input.*`` message)."""

    def __init__(self, key: str, /, **params: Any) -> None:
        super().__init__(key)
        self.key = key
        self.params = params

    def refusal(self) -> IllegalMove:
        """The same sentence as a rules refusal (what a calculator raises)."""
        return IllegalMove(self.key, **self.params)


def nesting_depth(text: str, limit: int = MAX_DEPTH) -> int:
    """The deepest nesting of ``[``/``{`` outside strings; stops counting once past ``limit``."""
    depth = deepest = 0
    in_string = escaped = False
    for ch in text:
        if in_string:
            if escaped:
                escaped = False
            elif ch == "\\":
                escaped = True
            elif ch == '"':
                in_string = False
        elif ch == '"':
            in_string = True
        elif ch in "[{":
            depth += 1
            if depth > deepest:
                deepest = depth
                if deepest > limit:
                    return deepest
        elif ch in "]}":
            depth -= 1
    return deepest


def _int(text: str) -> int:
    digits = text.lstrip("-")
    if len(digits) > MAX_INT_DIGITS:
        raise JsonLimit("cli.input.long_number", digits=len(digits), most=MAX_INT_DIGITS)
    return int(text)


def _float(text: str) -> float:
    value = float(text)
    if value in (float("inf"), float("-inf")):
        raise JsonLimit("cli.input.long_number", digits=len(text), most=MAX_INT_DIGITS)
    return value


def _constant(name: str) -> Any:
    raise JsonLimit("cli.input.not_a_number", word=name)


def loads(text: str) -> Any:
    """Decode ``text`` within the limits; ``JsonLimit`` for a limit, ``json.JSONDecodeError`` for bad syntax."""
    if len(text) > MAX_CHARS:
        raise JsonLimit("cli.input.too_big", size=len(text), most=MAX_CHARS)
    if nesting_depth(text) > MAX_DEPTH:
        raise JsonLimit("cli.input.too_deep", most=MAX_DEPTH)
    return json.loads(text, parse_int=_int, parse_float=_float, parse_constant=_constant)
