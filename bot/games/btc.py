"""Between Two Cities' rules, declared once: rules, labels, turns, calculator, story."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from bot.games.base import Game, Step, StoryStyle, TurnStyle, View
from bot.i18n import resolve, t
from bot.rules import core
from bot.rules.btc import calculator
from bot.rules.btc.rules import RULES
from bot.rules.btc.viewtypes import BtcView
from bot.rules.core import TERM_KEY, Term


def tile_names(view: BtcView, locale: str = "en") -> dict[int, str]:
    """Names of the tiles this seat may see (its hand, its choice, its tiles to place)."""
    you = view.get("you")
    names: dict[int, str] = {}
    if you:
        for tile in [*(you.get("hand") or []), *(you.get("choice") or []), *(you.get("to_place") or [])]:
            term = tile.get("name", tile["id"])
            if isinstance(term, dict) and term.get(TERM_KEY) == "btc.tile.duplex":  # short on a button
                term = core.term("btc.ui.duplex", a=term["a"], b=term["b"])
            name = resolve(term, locale)  # keeps its grammatical forms
            if tile.get("orientation") in ("vertical", "horizontal"):  # a duplex keeps its printed way
                name = t(f"btc.ui.duplex_{tile['orientation']}", locale, name=name)
            names[int(tile["id"])] = name
    return names


def city_name(view: BtcView, city: int, locale: str = "en") -> str:
    for c in view.get("cities", []):
        if int(c["city"]) == city:
            name: str = resolve(c.get("name", city), locale)  # keeps its grammatical forms
            return name
    return str(city)


def label(move: Mapping[str, Any], view: BtcView, locale: str) -> str | None:
    kind = move.get("kind")
    names = tile_names(view, locale)

    def name(tile: Any) -> str:
        return names.get(int(tile), f"#{tile}")

    if kind == "choose" and "tiles" in move:
        return t("btc.ui.keep", locale, a=name(move["tiles"][0]), b=name(move["tiles"][1]))
    if kind == "choose":
        return t("btc.ui.keep_duplexes", locale, left=name(move["left"]), right=name(move["right"]))
    if kind in ("place", "turned"):
        return t(
            f"btc.ui.{kind}",
            locale,
            tile=name(move["tile"]),
            city=city_name(view, int(move["city"]), locale),
            cell=move["cell"],
        )
    if kind == "you_first":
        return t("btc.ui.you_first", locale, city=city_name(view, int(move["city"]), locale))
    if kind == "assign" and "auto" in move:
        return t(
            "btc.ui.assign_simple", locale, left=name(move["left"]), right=name(move["right"]), auto=name(move["auto"])
        )
    if kind == "assign":
        return t("btc.ui.assign", locale, left=name(move["left"]), right=name(move["right"]))
    if kind == "bonus":
        return t("btc.ui.bonus", locale, type=move["type"], city=city_name(view, int(move["city"]), locale))
    return None


class Turns(TurnStyle[BtcView]):
    """Secret drafting: every choice is private; in solo the channel also hears each Automa turn."""

    secret = True

    def quiet_after(
        self, summary_key: str, acting_seat: int, awaiting: frozenset[int], newly_awaited: frozenset[int], view: BtcView
    ) -> bool:
        if summary_key.endswith("_automa"):
            return False
        return super().quiet_after(summary_key, acting_seat, awaiting, newly_awaited, view)


class Story(StoryStyle):
    """A point after each turn's placements; a player scores the lower of their two cities (2 players: both).

    Solo: the Automas are places at the table too, scored the same way.
    """

    def places(self, view: View) -> Sequence[str | Term | None]:
        return [p["automa"] if p.get("automa") else None for p in view["players"]]

    def scores(self, view: View) -> list[int]:
        totals = {int(c["city"]): int(c["total"]) for c in view["cities"]}
        both = view.get("mode") == "two_player"
        out = []
        for p in view["players"]:
            left, right = totals[int(p["left_city"])], totals[int(p["right_city"])]
            out.append(left + right if both else min(left, right))
        return out

    def round(self, view: View) -> int:
        return int(view["round"])

    def checkpoint(self, step: Step) -> bool:
        """The turn moved on (all its tiles placed) and a city grew, or the game ended."""
        before, after = step.before, step.after
        if after.get("phase") == "over":
            return before.get("phase") != "over"

        def stage(v: View) -> tuple[Any, ...]:
            return v.get("round"), v.get("part"), v.get("turn")

        def size(v: View) -> int:
            return sum(int(c["size"]) for c in v["cities"])

        return stage(before) != stage(after) and size(after) > size(before)


GAME: Game[BtcView] = Game(
    kind="btc",
    rules=RULES,
    aliases=("between-two-cities", "between two cities"),
    labeller=label,
    turns=Turns(),
    calculator=calculator.score_text,
    story=Story(),
)
