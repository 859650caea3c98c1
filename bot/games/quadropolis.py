"""Quadropolis' rules, declared once: rules, labels, turns, calculator, story."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from bot.games.base import Game, Step, StoryStyle, TurnStyle, View
from bot.i18n import resolve, t
from bot.rules.quadropolis import calculator
from bot.rules.quadropolis.rules import RULES
from bot.rules.quadropolis.tiles import slot_target, slot_term
from bot.rules.quadropolis.viewtypes import QuadView


def slot_text(slot: str, locale: str = "en") -> str:
    """A stored slot code (``"L3"``) as players read it (``"→3"``): the words of the sentences and the
    picture (:func:`bot.rules.quadropolis.tiles.slot_term`), for a front-end that matches typed text."""
    return str(resolve(slot_term(slot), locale))


def label(move: Mapping[str, Any], view: QuadView, locale: str) -> str | None:
    kind = move.get("kind")
    if kind == "take":
        row, col = slot_target(str(move["slot"]), int(move["architect"]))
        square = view["site"]["squares"][row][col]
        if square.get("state") == "tile":
            what = resolve(square["tile"]["label"], locale)
        elif square.get("state") == "face_down":
            what = t("quadropolis.ui.face_down", locale)
        else:
            what = t("quadropolis.ui.empty", locale)
        return t(
            "quadropolis.ui.take", locale, architect=move["architect"], slot=slot_term(str(move["slot"])), what=what
        )
    if kind == "build":
        return str(move["square"]) + (f" ▲{move['floor']}" if "floor" in move else "")
    if kind == "discard":
        return t("quadropolis.ui.discard", locale)
    return None


class Turns(TurnStyle[QuadView]):
    """Open choices; a take that picked a tile is a step, the build (or discard) ends the turn."""

    def within_turn(
        self, acting_seat: int, awaiting: frozenset[int], newly_awaited: frozenset[int], view: QuadView
    ) -> bool:
        return not view.get("over") and (view.get("turn") or {}).get("phase") == "build"


class Story(StoryStyle):
    """A point after each player's turn; a city's score is its best allocation."""

    def places(self, view: View) -> list[str | None]:
        return [None] * int(view["players"])

    def scores(self, view: View) -> list[int]:
        return [int(city["score"]["total"]) for city in view["cities"]]

    def round(self, view: View) -> int:
        return int(view["round"])

    def checkpoint(self, step: Step) -> bool:
        """A build or a discard ends a turn; so does taking nothing (the next seat may be the same one,
        when it is first in the next round)."""
        if step.kind in ("build", "discard"):
            return True
        return step.kind == "take" and step.after["turn"]["phase"] != "build"


GAME: Game[QuadView] = Game(
    kind="quadropolis",
    rules=RULES,
    aliases=("qp",),
    labeller=label,
    turns=Turns(),
    calculator=calculator.score_text,
    story=Story(),
)
