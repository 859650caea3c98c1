"""The best move's picture beside the played one (issue 40), for a finished game whose analysis is kept.

A told move of the page may cover several decisions (a take and its placement, a whole turn of a game of long
turns, a round of a simultaneous draft): the one shown is the decision of that move that lost most (the
earliest on a tie). Its picture is the same renderer's picture of the position the best move would have made:
the state before the move's first decision, the move's own moves up to that decision, the best move instead of
the played one, then the move's later moves of the *other* seats that are still legal (a draft round's other
choices, so a reveal happens as it did); the deciding seat's own later moves are left out, since they answered a
move it did not make. It is drawn from ``view(state, None)`` only, the spectator's view, like every picture of
the page, and worded by its move label where the game shows the awaited seat's choices in public, else by the
game's public sentence of it (as the channel would have told it: a secret choice says only who chose). A move
whose played decisions were all the best has no picture: "best move played".
"""

from __future__ import annotations

import base64
import hashlib
import json
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from babel.numbers import format_decimal

from bot import games, labels
from bot.i18n import t
from bot.rules.core import GameError
from bot.service import GameInfo, named
from bot.web.game import Timeline
from render import pictures

LABEL_LIMIT = 120
"""A best move's label at most (characters)."""


@dataclass(frozen=True)
class Best:
    """A told move's weighed decision that lost most: its place in the log, seat, loss and best move."""

    turn: int
    number: int
    seat: int
    loss: float
    expected: float
    move: dict[str, Any]

    @property
    def played(self) -> bool:
        """Whether the played move was the best found (nothing to draw)."""
        return self.loss <= 0


def decision(timeline: Timeline, analysis: Mapping[str, Any], turn: int) -> Best | None:
    """The decision of the told move ``turn`` that lost most (None: the move weighs nothing, or no such turn)."""
    if not 0 < turn < len(timeline.frames):
        return None
    first, last = timeline.frames[turn - 1].moves, timeline.frames[turn].moves
    weighed = [m for m in analysis.get("moves", ()) if first < int(m.get("number", 0)) <= last]
    if not weighed:
        return None
    worst = max(weighed, key=lambda m: (float(m["loss"]), -int(m["number"])))
    return Best(
        turn, int(worst["number"]), int(worst["seat"]), float(worst["loss"]), float(worst["best"]), worst["best_move"]
    )


def mark(turn_mark: str, best: Best) -> str:
    """The best picture's mark: the turn's (its moves, names, language, drawing) and the best move's."""
    digest = hashlib.blake2b(turn_mark.encode(), digest_size=9)
    digest.update(json.dumps([best.number, best.seat, best.move], sort_keys=True).encode())
    return base64.urlsafe_b64encode(digest.digest()).decode("ascii")


def _stamped(move: Mapping[str, Any], played: Mapping[str, Any]) -> dict[str, Any]:
    """The best move at the played move's time (a game that uses time keeps it)."""
    out = {k: v for k, v in move.items() if k != "at"}
    if "at" in played:
        out["at"] = played["at"]
    return out


def positions(kind: str, timeline: Timeline, best: Best) -> tuple[Any, Any]:
    """(the state just before the best decision, the state the best move would have made; see the module)."""
    rules = games.rules(kind)
    first, last = timeline.frames[best.turn - 1].moves, timeline.frames[best.turn].moves
    state = timeline.frames[best.turn - 1].state
    for seat, move in timeline.log[first : best.number - 1]:
        state = rules.apply(state, seat, move)
    before = state
    state = rules.apply(state, best.seat, _stamped(best.move, timeline.log[best.number - 1][1]))
    for seat, move in timeline.log[best.number : last]:
        if seat == best.seat:
            continue
        try:
            state = rules.apply(state, seat, move)
        except GameError:
            continue  # an answer to what was played, which the best move changed
    return before, state


def picture(info: GameInfo, timeline: Timeline, best: Best, locale: str) -> bytes | None:
    """The PNG of the position the best move would have made (None: the game draws no pictures, or the best
    move does not replay)."""
    renderer = pictures.get(info.game.kind)
    if renderer is None:
        return None
    rules = games.rules(info.game.kind)
    try:
        _, after = positions(info.game.kind, timeline, best)
    except GameError:
        return None  # a kept analysis whose best move no longer replays (rules changed since): no picture
    view = rules.view(after, None)
    names = [s.name for s in info.seats]
    if rules.is_over(after):
        return bytes(renderer.render_end(view, names, locale=locale))
    return bytes(renderer.render_turn(view, best.seat, names, locale=locale))


def said(info: GameInfo, timeline: Timeline, best: Best, locale: str) -> str:
    """The best move in words the spectator may read, from the spectator's view only (no seat's own view is read
    here): its move label where the game shows the awaited seat's choices in public (the turn style's
    ``public_choices``), else the game's public sentence of it, as the channel would have told it (a secret
    choice says only who chose)."""
    kind = info.game.kind
    rules = games.rules(kind)
    before, _ = positions(kind, timeline, best)
    public = rules.view(before, None)
    if games.get(kind).turns.public_choices(public):
        return labels.move_label(kind, best.move, public, locale, LABEL_LIMIT)
    move = _stamped(best.move, timeline.log[best.number - 1][1])
    after = rules.apply(before, best.seat, move)
    key, params = rules.describe(before, best.seat, move, after)
    names = [info.name(seat) for seat in range(len(info.seats))]
    told = games.get(kind).tell(key, named(info, best.seat, params), rules.view(after, None), locale, names)
    return labels.shorten(" ".join(told).rstrip("."), LABEL_LIMIT)


def caption(info: GameInfo, timeline: Timeline, best: Best, locale: str) -> str:
    """The best picture's caption ("Best for Ana: …, +4.2 expected"), or "best move played"."""
    if best.played:
        return t("web.analysis.best_played", locale, name=info.name(best.seat))
    expected = format_decimal(best.expected, format="+#,##0.0;-#,##0.0", locale=locale)
    return t(
        "web.analysis.best_caption",
        locale,
        name=info.name(best.seat),
        move=said(info, timeline, best, locale),
        expected=expected,
    )
