"""The after-game analysis on the game page (issue 40): a mark beside each move of the move list and each
player's accuracy in the result, for a finished game whose analysis is kept (:mod:`bot.community.analyses`).

A mark is a symbol and a number, never a colour alone: ✓ the best move found, ≈ a loss under the game's
small threshold, ?! a small miss, ? a medium one, ?? a large one (the chess annotator's signs), then the
points of expected margin the move lost; its title and a hidden text say the same in words for a screen
reader. The colour only repeats the symbol. A move of the list that is a whole turn (a game of long turns) carries
the sum of its decisions' losses and the largest miss among them; a move nobody chose (a single legal move,
a system move) carries no mark.
"""

from __future__ import annotations

import html
from collections.abc import Mapping
from typing import Any

from babel.numbers import format_decimal

from bot.analysis import MISSES
from bot.i18n import t
from bot.service import GameInfo
from bot.web.game import Timeline

SYMBOLS = {"best": "✓", "close": "≈", "small": "?!", "medium": "?", "large": "??"}
ORDER = ("best", "close", *MISSES)


async def kept(app: Any, game_id: int) -> dict[str, Any] | None:
    """A finished game's kept analysis, or None (not yet, or a source without analyses, as a test's)."""
    analyses = getattr(app, "analyses", None)
    row = None if analyses is None else await analyses.get(game_id)
    return None if row is None or row.status != "done" else dict(row.result)


def decimal(value: float, locale: str) -> str:
    return format_decimal(value, format="#,##0.0", locale=locale)


def frame_marks(timeline: Timeline, analysis: Mapping[str, Any]) -> dict[int, tuple[str, float]]:
    """Each told move's (size, loss) by its turn in the replay: the decisions it covers, summed."""
    by_number = {int(m["number"]): m for m in analysis.get("moves", ())}
    marks: dict[int, tuple[str, float]] = {}
    before = 0
    for frame in timeline.frames:
        weighed = [by_number[n] for n in range(before + 1, frame.moves + 1) if n in by_number]
        before = max(before, frame.moves)
        if frame.turn == 0 or not weighed:
            continue
        loss = round(sum(float(m["loss"]) for m in weighed), 2)
        size = max((m.get("miss") or ("close" if float(m["loss"]) > 0 else "best") for m in weighed), key=ORDER.index)
        marks[frame.turn] = (size, loss)
    return marks


def margins(analysis: Mapping[str, Any]) -> dict[int, list[tuple[int, float]]]:
    """Each seat's expected margin after each of its decisions (the played move's value), for the story chart's
    curve (:mod:`render.story.margins`): seat -> [(the move's number, value)]."""
    out: dict[int, list[tuple[int, float]]] = {}
    for m in analysis.get("moves", ()):
        if "played" in m:
            out.setdefault(int(m["seat"]), []).append((int(m["number"]), float(m["played"])))
    return out


def mark_html(size: str, loss: float, locale: str) -> str:
    """The mark of a move: its symbol and loss, the words in its title and for a screen reader."""
    words = t("web.analysis.mark", locale, size=t(f"web.analysis.{size}", locale), loss=decimal(loss, locale))
    said = html.escape(words)
    return (
        f'<span class="loss" data-miss="{size}" title="{said}"><span aria-hidden="true">'
        f'<b class="sign">{SYMBOLS[size]}</b> {decimal(loss, locale)}</span><span class="vh">{said}</span></span>'
    )


def players_lines(info: GameInfo, analysis: Mapping[str, Any], locale: str) -> list[str]:
    """Each player's accuracy, average loss and misses, in the names of ``info`` (marked for the page)."""
    lines = []
    for p in analysis.get("players", ()):
        if not p.get("decisions"):
            continue
        misses = p.get("misses") or {}
        lines.append(
            t(
                "analysis.player",
                locale,
                name=info.name(int(p["seat"])),
                accuracy=decimal(float(p["accuracy"]), locale),
                loss=decimal(float(p["average_loss"]), locale),
                decisions=int(p["decisions"]),
                small=int(misses.get("small", 0)),
                medium=int(misses.get("medium", 0)),
                large=int(misses.get("large", 0)),
            )
        )
    return lines
