"""Quadropolis in Discord: a turn in at most three taps.

Take step: one select menu per side of the construction site (left, top, right, bottom), each
option naming the architect, the slot and the tile it takes. Build step: one button per square the
tile may go to, laid out like the city, plus Discard. Nobody places inhabitants and energy: the
rules place them the best way after the last turn (spec D-24), so there is nothing to offer for it.
"""

from __future__ import annotations

import logging
from typing import Any

import discord

from bot.i18n import t, t_or
from bot.rules.core import of_kind
from bot.rules.quadropolis.movetypes import QuadBuild, QuadDiscard, QuadTake
from bot.rules.quadropolis.viewtypes import QuadView
from cogs import ids
from cogs.presenters import MAX_SELECT_OPTIONS, Presenter
from render.quadropolis import turn_in_round

log = logging.getLogger(__name__)

SIDES = ("L", "T", "R", "B")


class QuadropolisPresenter(Presenter[QuadView]):
    kind = "quadropolis"

    def render_turn(self, view: QuadView, seat: int | None, names: list[str], locale: str = "en") -> bytes | None:
        """The site beside the city of whoever acted (or whose turn it is)."""
        acting = seat if seat is not None else (view.get("turn") or {}).get("seat")
        return super().render_turn(view, acting, names, locale)

    def prompt(self, moves: list[dict[str, Any]], view: QuadView, locale: str) -> str:
        pending = view.get("pending")
        if pending:
            return t("quadropolis.ui.where", locale, tile=pending["tile"]["label"], architect=pending["architect"])
        return t("quadropolis.ui.which", locale)

    def status_lines(self, view: QuadView, locale: str, names: list[str] | None = None) -> list[str]:
        mode = str(view["mode"])
        mode_name = t_or(f"quadropolis.option_value.mode.{mode}", mode.capitalize(), locale)
        turn, of = turn_in_round(view)
        lines = [
            t(
                "quadropolis.ui.status_round",
                locale,
                round=view["round"],
                rounds=view["rounds"],
                mode=mode_name,
                turn=turn,
                of=of,
            )
        ]
        for city in view["cities"]:
            score = city["score"]
            seat = int(city["seat"])
            who = names[seat] if names and seat < len(names) else str(seat + 1)
            lines.append(
                t(
                    "quadropolis.ui.status_city",
                    locale,
                    player=who,
                    total=score["total"],
                    inhabitants=city["inhabitants"],
                    energy=city["energy"],
                )
            )
        return lines

    def controls(
        self, game_id: int, version: int, token: str, moves: list[dict[str, Any]], view: QuadView, locale: str
    ) -> discord.ui.View:
        ui = discord.ui.View(timeout=None)
        takes = of_kind(moves, QuadTake)
        builds = of_kind(moves, QuadBuild)
        discard = of_kind(moves, QuadDiscard)
        if takes:
            n = 0
            for side in SIDES:
                chunk = [m for m in takes if m["slot"].startswith(side)]
                chunk.sort(key=lambda m: (int(m["slot"][1:]), m["architect"]))
                for start in range(0, len(chunk), MAX_SELECT_OPTIONS):
                    part = chunk[start : start + MAX_SELECT_OPTIONS]
                    if n >= 5:
                        log.warning("game %s: more take groups than select rows", game_id)
                        break
                    options = [
                        discord.SelectOption(label=self.move_label(m, view, locale), value=ids.compact(m)) for m in part
                    ]
                    ui.add_item(
                        discord.ui.Select(
                            custom_id=ids.select(game_id, version, token, n),
                            options=options,
                            row=n,
                            placeholder=t(f"quadropolis.ui.side.{side}", locale),
                        )
                    )
                    n += 1
        elif builds or discard:
            rows: dict[str, list[QuadBuild]] = {}
            for m in builds:
                rows.setdefault(m["square"][0], []).append(m)
            r = 0
            for letter in sorted(rows):
                for m in sorted(rows[letter], key=lambda m: int(m["square"][1:]))[:5]:
                    cid = ids.move(game_id, version, token, m)
                    if cid is not None:
                        ui.add_item(
                            discord.ui.Button(
                                label=self.move_label(m, view, locale),
                                custom_id=cid,
                                row=r,
                                style=discord.ButtonStyle.primary,
                            )
                        )
                r += 1
            for d in discard:
                cid = ids.move(game_id, version, token, d)
                if cid is not None:
                    ui.add_item(
                        discord.ui.Button(
                            label=self.move_label(d, view, locale),
                            custom_id=cid,
                            row=min(r, 4),
                            style=discord.ButtonStyle.danger,
                        )
                    )
        ui.stop()
        return ui


PRESENTER = QuadropolisPresenter()
