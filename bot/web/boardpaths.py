"""Each game's way from taps to a move (issue 38), bound to its kind: for one legal move, the picks that lead
to it, each a region of the seat's picture (``render.common.mark_region``'s ids) or a button, with its label
and the question of the step it is picked in. :mod:`bot.web.board` joins every move's picks into one tree;
each game's ways are its own module (``bot/web/board_<kind>.py``), one line each here.

A move may have several ways (two tiles of a hand are kept whichever is tapped first). The picks of
one step are told apart by their ``key``; two moves never share all their keys (the tests check that
the tree's leaves are exactly the seat's legal moves)."""

from __future__ import annotations

from bot.i18n import t
from bot.web import board_btc, board_quadropolis, board_urbanpanic
from bot.web.boardsteps import Ask, Move, Pick, Ways, button

__all__ = ["WAYS", "Ask", "Move", "Pick", "Ways", "button", "ways"]

WAYS: dict[str, Ways] = {
    "quadropolis": board_quadropolis.quadropolis,
    "btc": board_btc.btc,
    "urbanpanic": board_urbanpanic.urbanpanic,
}


def ways(kind: str, move: Move, ask: Ask) -> list[list[Pick]]:
    """The ways to ``move``: the game's own, else one button (a game without a board to tap)."""
    game = WAYS.get(kind)
    return game(move, ask) if game is not None else [[button(move, ask, t("web.board.choose", ask.locale))]]
