"""The pieces every game's way from taps to a move is made of (issue 38): a :class:`Pick` (a region of the
seat's picture, ``render.common.mark_region``'s ids, or a button), what a game's ways read (:class:`Ask`), and
the one button of a move that has no place on the picture. Each game's ways are in
``bot/web/board_<kind>.py``; :mod:`bot.web.boardpaths` binds them to the games."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from bot import labels
from bot.games import View

Move = dict[str, Any]


@dataclass(frozen=True)
class Pick:
    """One choice on the way to a move: a tap on ``region`` (None: a button), named ``label`` for screen
    readers and on the button, asked by ``prompt``; ``marks``: regions lit while it is chosen."""

    key: str
    label: str
    prompt: str
    region: str | None = None
    marks: tuple[str, ...] = ()
    says: str = ""
    """The move's sentence when this pick ends it, where the move's label is too short to tell it."""


@dataclass(frozen=True)
class Ask:
    """What a game's ways read besides the move: the seat's own view, the seat, the language, the names."""

    kind: str
    view: View
    seat: int
    locale: str
    names: Sequence[str]

    def label(self, move: Move) -> str:
        return labels.move_label(self.kind, move, self.view, self.locale, limit=200)


Ways = Callable[[Move, Ask], list[list[Pick]]]


def button(move: Move, ask: Ask, prompt: str) -> Pick:
    """A move that has no place on the picture: one button, its label the move's."""
    return Pick("button:" + ",".join(f"{k}={move[k]}" for k in sorted(move)), ask.label(move), prompt)
