"""Between Two Cities in Discord: secret hands, private commits, one public reveal.

Nothing secret is ever posted in the channel: the turn message carries only "Open my choices";
each player's hand, choice and placements are ephemeral. Placements are grouped in one select
menu per (tile, city), so no menu grows past Discord's 25 options.
"""

from __future__ import annotations

import logging
from typing import Any

import discord

from bot import labels
from bot.games.btc import city_name
from bot.i18n import resolve, t, t_or
from bot.rules.btc.viewtypes import BtcView
from cogs import ids
from cogs.limits import SELECT_OPTION_LABEL, SELECT_PLACEHOLDER, cut
from cogs.presenters import MAX_SELECT_OPTIONS, MAX_SELECTS, Presenter

log = logging.getLogger(__name__)


class BtcPresenter(Presenter[BtcView]):
    kind = "btc"

    def render_turn(self, view: BtcView, seat: int | None, names: list[str], locale: str = "en") -> bytes | None:
        """A seat's own view shows its hand; the channel gets the whole table (no hands)."""
        return super().render_turn(view, seat if view.get("seat") is not None else None, names, locale)

    def prompt(self, moves: list[dict[str, Any]], view: BtcView, locale: str) -> str:
        kinds = {m.get("kind") for m in moves}
        if "choose" in kinds:
            return t("btc.ui.prompt_choose", locale)
        if "bonus" in kinds:
            return t("btc.ui.prompt_bonus", locale)
        if kinds & {"place", "turned"}:
            return t("btc.ui.prompt_place", locale)
        return t("btc.ui.prompt", locale)

    def status_lines(self, view: BtcView, locale: str, names: list[str] | None = None) -> list[str]:
        phase = str(view.get("phase", ""))
        lines = [
            t(
                "btc.ui.status_round",
                locale,
                round=view.get("round", 1),
                phase=t_or(f"btc.render.phase.{phase}", phase, locale),
            )
        ]
        for city in view.get("cities", []):
            lines.append(
                t(
                    "btc.ui.status_city",
                    locale,
                    city=city.get("name", city["city"]),
                    total=city.get("total", 0),
                    builders=" & ".join(self._who(b, view, names, locale) for b in city.get("builders", [])),
                )
            )
        return lines

    @staticmethod
    def _who(player: Any, view: BtcView, names: list[str] | None, locale: str) -> str:
        """A city builder by name: a seat's player name, or an Automa's name."""
        for p in view.get("players", []):
            if p.get("player") == player:
                if p.get("automa"):
                    return str(resolve(p["automa"], locale))
                seat = p.get("seat")
                if names and isinstance(seat, int) and seat < len(names):
                    return str(names[seat])
        return str(player)

    def controls(
        self, game_id: int, version: int, token: str, moves: list[dict[str, Any]], view: BtcView, locale: str
    ) -> discord.ui.View:
        groups: dict[tuple[str, Any, Any], list[dict[str, Any]]] = {}
        for m in moves:
            kind = str(m.get("kind"))
            if kind in ("place", "turned"):
                key: tuple[str, Any, Any] = ("place", m["tile"], m["city"])
            elif kind == "choose":
                key = ("choose", None, None)
            else:
                key = ("other", None, None)
            groups.setdefault(key, []).append(m)
        ui = discord.ui.View(timeout=None)
        row = 0
        for (kind, _tile, city), group in groups.items():
            for start in range(0, len(group), MAX_SELECT_OPTIONS):
                if row >= MAX_SELECTS:
                    log.warning("game %s: more choice groups than fit in one message", game_id)
                    break
                part = group[start : start + MAX_SELECT_OPTIONS]
                if kind == "place":
                    sample = labels.move_label(self.kind, part[0], view, locale)
                    placeholder = t(
                        "btc.ui.pick_place",
                        locale,
                        tile=sample.split(" → ")[0],
                        city=city_name(view, int(city), locale),
                    )
                else:
                    placeholder = t(f"btc.ui.pick_{kind}", locale)
                options = [
                    discord.SelectOption(
                        label=self.move_label(m, view, locale, SELECT_OPTION_LABEL), value=ids.compact(m)
                    )
                    for m in part
                ]
                ui.add_item(
                    discord.ui.Select(
                        custom_id=ids.select(game_id, version, token, row),
                        options=options,
                        placeholder=cut(placeholder, SELECT_PLACEHOLDER),
                        row=row,
                    )
                )
                row += 1
        ui.stop()
        return ui


PRESENTER = BtcPresenter()
