"""Urban Panic in Discord: turns built from buttons in steps, and the party game's private hands.

Turn games (basic, advanced; spec 8 and 11). The turn message carries the awaited player's first
step: one button per Architect slot (naming the tile it takes), then ``Planner…``, ``Engineer…``,
``Spy…``, ``Mayor`` and ``End turn`` — each only when the rules allow it. A button ending in "…"
opens the next step privately (custom_id ``up:<game>:<version>:<step>``, answered from the game as
it is *now*, so it never offers an illegal choice): Planner → reserve tile → plot; Engineer → two
city tiles, or a reserve tile → plot; Spy → an opponent's reserve tile → plot. A step with a single
choice is skipped. The last choice is an ordinary move button (``mv:``, checked against the game's
version like every move). Every action is a step inside the turn: the acting player gets the next
menu privately and the channel gets one message per turn.

Party game (spec 12). Everyone builds at once; each player's hand and choices are private. Draw and
Take carry ``up:`` ids without a version check: the server applies them strictly in arrival order,
so when two players grab the same open tile the second one is told it is gone, and nothing is lost
or doubled. Place and Drop are ordinary move buttons (they depend only on the player's own hand and
city, so another player's move does not make them stale). The hourglass and the safety cap are
shown as Discord relative timestamps; the cog's timer loop enforces them.

The ``up:`` clicks are answered by the game's cog, :mod:`cogs.urbanpanic`.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

import discord

from bot.games import urbanpanic as up_game
from bot.i18n import t
from bot.rules.core import of_kind
from bot.rules.urbanpanic.movetypes import (
    UpArchitect,
    UpDraw,
    UpDrop,
    UpEndTurn,
    UpEngineerBoard,
    UpEngineerReserve,
    UpMayor,
    UpPlace,
    UpPlanner,
    UpSpy,
    UpTake,
)
from bot.rules.urbanpanic.viewtypes import UpAction, UpView
from cogs import ids
from cogs.common import shown_names
from cogs.presenters import MAX_SELECT_OPTIONS, Presenter
from cogs.urbanpanic_steps import (
    CENTRE_ROW,
    KIND,
    MAX_ROWS,
    MAX_TAKE_SELECTS,
    OPEN_TABLE_SHOWN,
    ROUTE_PREFIX,
    ROW_WIDTH,
    STEP_ARGS,
    TAKE_BUTTON_LIMIT,
    Entry,
    Step,
    build_view,
    move_entry,
    parse_step,
    party_deadline_line,
    plot_grid,
    relative_time,
    seat_name,
    step_id,
    step_menu,
    tile_name,
)

if TYPE_CHECKING:
    pass

log = logging.getLogger(__name__)

__all__ = ["PRESENTER", "ROUTE_PREFIX", "STEP_ARGS", "UrbanPanicPresenter", "parse_step", "relative_time"]
"""Also the menus' names the tests and notation checks read here (defined in :mod:`cogs.games.urbanpanic_steps`)."""


# =============================================================================================
# The presenter
# =============================================================================================
class UrbanPanicPresenter(Presenter[UpView]):
    """Urban Panic: step-by-step turns in the basic and advanced games, private hands in the party."""

    kind = KIND

    def render_turn(
        self, view: UpView, seat: int | None, names: list[str] | None = None, locale: str = "en"
    ) -> bytes | None:
        """The turn picture (``seat``: who acted, or whose private view it is; else the table)."""
        acting = seat if seat is not None else view.get("current")
        return super().render_turn(view, acting, names or [], locale)

    def render_end(self, view: UpView, names: list[str] | None = None, locale: str = "en") -> bytes | None:
        return super().render_end(view, names or [], locale)

    # -- labels --------------------------------------------------------------------------------
    def prompt(self, moves: list[dict[str, Any]], view: UpView, locale: str) -> str:
        if view.get("variant") == "party":
            return self._party_prompt(moves, view, locale)
        lines = [t("urbanpanic.ui.prompt.turn", locale, turn=view["turn"], points=view["points"])]
        viewer = view.get("viewer")
        me = view["players"][viewer] if viewer is not None else None
        if view.get("architect_owed"):
            lines.append(t("urbanpanic.ui.prompt.owed", locale))
        elif not view.get("architect_done"):
            lines.append(t("urbanpanic.ui.prompt.stuck", locale))
        if me is not None:
            reserve = ", ".join(tile_name(c, locale) for c in me.get("reserve", [])) or t("urbanpanic.ui.none", locale)
            lines.append(t("urbanpanic.ui.prompt.reserve", locale, reserve=reserve))
        if view.get("last_turn"):
            lines.append(t("urbanpanic.ui.status.last_turn", locale))
        if [m.get("kind") for m in moves] == ["end_turn"]:
            lines.append(t("urbanpanic.ui.prompt.only_end", locale))
        return "\n".join(lines)

    def _party_prompt(self, moves: list[dict[str, Any]], view: UpView, locale: str) -> str:
        viewer = view.get("viewer")
        hand = view["players"][viewer].get("hand") if viewer is not None else None
        party = view.get("party")
        if isinstance(hand, str) and hand != "hidden":
            lines = [t("urbanpanic.ui.prompt.hand", locale, tile=tile_name(hand, locale))]
        else:
            lines = [
                t(
                    "urbanpanic.ui.prompt.empty_hand",
                    locale,
                    pool=party.get("pool", 0) if party else 0,
                    table=len(party.get("open_table", []) if party else []),
                )
            ]
        deadline = party_deadline_line(view, None, locale)
        if deadline is not None:
            lines.append(deadline)
        return "\n".join(lines)

    def status_lines(self, view: UpView, locale: str, names: list[str] | None = None) -> list[str]:
        if view.get("variant") == "party":
            return self._party_status(view, locale, names)
        lines: list[str] = []
        current = view.get("current")
        if current is not None:
            architect = "done" if view.get("architect_done") else "owed" if view.get("architect_owed") else "stuck"
            lines.append(
                t(
                    "urbanpanic.ui.status.turn",
                    locale,
                    turn=view["turn"],
                    player=seat_name(current, names, locale),
                    points=view["points"],
                    architect=t(f"urbanpanic.ui.architect_{architect}", locale),
                )
            )
        board = view.get("main_board")
        slots = " · ".join(
            f"{i}: {tile_name(code, locale) if code else '—'}"
            for i, code in enumerate(board.get("slots", []) if board else [], start=1)
        )
        lines.append(
            t("urbanpanic.ui.status.main_board", locale, slots=slots, stack=board.get("stack", 0) if board else 0)
        )
        if view.get("goals"):
            lines.append(
                t(
                    "urbanpanic.ui.status.goals",
                    locale,
                    goals=", ".join(t(g["title_key"], locale) for g in view["goals"]),
                )
            )
        for p in view["players"]:
            lines.append(
                t(
                    "urbanpanic.ui.status.city",
                    locale,
                    player=seat_name(p["seat"], names, locale),
                    tiles=p["tiles"],
                    reserve=", ".join(tile_name(c, locale) for c in p.get("reserve", [])) or "—",
                    tracks=self.tracks_text(p["tracks"], view, locale),
                )
            )
        if view.get("turn_log") and current is not None:
            lines.append(
                t("urbanpanic.ui.status.this_turn", locale, actions=self.actions_text(view["turn_log"], names, locale))
            )
        elif prev := view.get("previous_turn"):
            lines.append(
                self.turn_sentence(seat_name(int(prev["seat"]), names, locale), prev["actions"], names, locale)
            )
        first = view.get("first_finisher")
        if first is not None:
            lines.append(t("urbanpanic.ui.status.full_city", locale, player=seat_name(int(first), names, locale)))
        if view.get("last_turn"):
            lines.append(t("urbanpanic.ui.status.last_turn", locale))
        return lines

    def _party_status(self, view: UpView, locale: str, names: list[str] | None) -> list[str]:
        party = view.get("party")
        table = party.get("open_table", []) if party else []
        counts: dict[str, int] = {}
        for code in table:
            counts[code] = counts.get(code, 0) + 1
        shown = [
            tile_name(code, locale) if n == 1 else f"{tile_name(code, locale)} ×{n}"
            for code, n in list(counts.items())[:OPEN_TABLE_SHOWN]
        ]
        if len(counts) > OPEN_TABLE_SHOWN:
            shown.append(t("urbanpanic.ui.more", locale, n=len(counts) - OPEN_TABLE_SHOWN))
        lines = [
            t(
                "urbanpanic.ui.status.party",
                locale,
                pool=party.get("pool", 0) if party else 0,
                table=", ".join(shown) or t("urbanpanic.ui.none", locale),
            )
        ]
        for p in view["players"]:
            hand = p.get("hand")
            if p["empty_plots"] == 0:
                state = t("urbanpanic.ui.hand.full_city", locale)
            elif hand is None:
                state = t("urbanpanic.ui.hand.empty", locale)
            else:
                state = t("urbanpanic.ui.hand.holding", locale)  # never the tile: a hand is private
            lines.append(
                t(
                    "urbanpanic.ui.status.party_city",
                    locale,
                    player=seat_name(p["seat"], names, locale),
                    tiles=p["tiles"],
                    state=state,
                )
            )
        deadline = party_deadline_line(view, names, locale)
        if deadline is not None:
            lines.append(deadline)
        return lines

    def tracks_text(self, tracks: list[int], view: UpView, locale: str) -> str:
        legend = view.get("legend")
        names = (legend.get("tracks") if legend else None) or ["residents", "jobs", "ecology", "income", "satisfaction"]
        letters = [t(f"urbanpanic.render.letter.{track}", locale) for track in names]
        return " ".join(f"{letter} {value}" for letter, value in zip(letters, tracks))

    # -- whole-turn summaries (told by the game's declaration, :func:`bot.games.urbanpanic.tell`) ----------
    def actions_text(self, entries: list[UpAction], names: list[str] | None, locale: str) -> str:
        return up_game.actions_text(entries, names, locale)

    def turn_sentence(self, player: str, actions: list[UpAction], names: list[str] | None, locale: str) -> str:
        return up_game.turn_sentence(player, actions, names, locale)

    def summary_lines(
        self, key: str, params: dict[str, Any], view: UpView, locale: str, names: list[str] | None = None
    ) -> list[str]:
        """The turn message's summary of a move: the game's telling (an END_TURN as the whole turn),
        and, Discord only, the deadline as a relative timestamp after the move that starts the hourglass.
        """
        lines = super().summary_lines(key, params, view, locale, names)
        if key == "urbanpanic.move.place.full":
            deadline = party_deadline_line(view, shown_names(names) if names is not None else None, locale)
            if deadline is not None:
                lines.append(deadline)
        return lines

    # -- controls ------------------------------------------------------------------------------
    def controls(
        self, game_id: int, version: int, token: str, moves: list[dict[str, Any]], view: UpView, locale: str
    ) -> discord.ui.View:
        if view.get("variant") == "party":
            entries = self.party_entries(game_id, version, token, moves, view, locale)
        else:
            entries = self.top_entries(game_id, version, token, moves, view, locale)
        return build_view(entries, locale)

    def top_entries(
        self, game_id: int, version: int, token: str, moves: list[dict[str, Any]], view: UpView, locale: str
    ) -> list[Entry]:
        """The first step of a turn: Architect slots, then the other actions (only legal ones)."""
        out: list[Entry] = []
        for m in of_kind(moves, UpArchitect):
            entry = move_entry(game_id, version, token, m, self.move_label(m, view, locale), 0)
            if entry is not None:
                out.append(entry)
        if of_kind(moves, UpPlanner):
            out.append(Entry(t("urbanpanic.ui.step.planner", locale), step_id(game_id, version, "p"), 1))
        if any(of_kind(moves, shape) for shape in (UpEngineerBoard, UpEngineerReserve)):
            out.append(Entry(t("urbanpanic.ui.step.engineer", locale), step_id(game_id, version, "e"), 1))
        if of_kind(moves, UpSpy):
            out.append(Entry(t("urbanpanic.ui.step.spy", locale), step_id(game_id, version, "s"), 1))
        for shape, style in ((UpMayor, discord.ButtonStyle.secondary), (UpEndTurn, discord.ButtonStyle.success)):
            found: Mapping[str, Any] | None = next(iter(of_kind(moves, shape)), None)
            if found is not None:
                entry = move_entry(game_id, version, token, found, self.move_label(found, view, locale), 1, style)
                if entry is not None:
                    out.append(entry)
        # Always there: the acting player's fresh private menu (the turn message's own move
        # buttons go stale after the first action; its step buttons and this one never do).
        out.append(Entry(t("urbanpanic.ui.refresh", locale), ids.open_(game_id, version), 2))
        return out

    def step_menu(
        self, step: Step, moves: list[dict[str, Any]], view: UpView, locale: str, game_id: int, version: int, token: str
    ) -> tuple[str, list[Entry]] | None:
        """The next private menu of a turn step (:func:`cogs.urbanpanic_steps.step_menu`)."""
        return step_menu(step, moves, view, locale, game_id, version, token)

    def party_entries(
        self, game_id: int, version: int, token: str, moves: list[dict[str, Any]], view: UpView, locale: str
    ) -> list[Entry]:
        """Empty hand: Draw and the open table. Full hand: the city's empty plots and Drop.

        No label or custom_id ever names the tile in the hand (these controls may be public).
        """
        places = of_kind(moves, UpPlace)
        drops = of_kind(moves, UpDrop)
        out: list[Entry] = []
        if places or drops:
            out = plot_grid([(m["plot"], move_entry(game_id, version, token, m, m["plot"], 0)) for m in places])
            drop = next(iter(drops), None)
            if drop is not None:
                entry = move_entry(
                    game_id,
                    version,
                    token,
                    drop,
                    self.move_label(drop, view, locale),
                    CENTRE_ROW,
                    discord.ButtonStyle.danger,
                )
                if entry is not None:
                    out.append(entry)
        else:
            if of_kind(moves, UpDraw):
                out.append(
                    Entry(
                        t("urbanpanic.ui.draw", locale), step_id(game_id, version, "d"), 0, discord.ButtonStyle.primary
                    )
                )
            codes = [m["tile"] for m in of_kind(moves, UpTake)]
            # in the reader's alphabetical order of the names, so a select's "first to last" is a range
            ordered = sorted(codes, key=lambda c: (tile_name(c, locale).casefold(), c))
            if len(codes) <= TAKE_BUTTON_LIMIT:
                out += [
                    Entry(
                        t("urbanpanic.ui.take", locale, tile=tile_name(code, locale)),
                        step_id(game_id, version, "t", code),
                        1 + i // ROW_WIDTH,
                    )
                    for i, code in enumerate(ordered)
                ]
            else:
                for n in range(MAX_TAKE_SELECTS):
                    chunk = ordered[n * MAX_SELECT_OPTIONS : (n + 1) * MAX_SELECT_OPTIONS]
                    if chunk:
                        out.append(
                            Entry(
                                t(
                                    "urbanpanic.ui.take_from",
                                    locale,
                                    first=tile_name(chunk[0], locale),
                                    last=tile_name(chunk[-1], locale),
                                ),
                                step_id(game_id, version, "ts", n),
                                1 + n,
                                options=tuple((tile_name(c, locale), c) for c in chunk),
                            )
                        )
        # "My choices" (the generic open button) where a row has room: in a private menu it shows the
        # hand and the choices afresh; on a public turn message it opens them.
        room = [
            r
            for r in range(MAX_ROWS)
            if not any(e.row == r and e.options for e in out) and sum(1 for e in out if e.row == r) < ROW_WIDTH
        ]
        if room:
            out.append(Entry(t("urbanpanic.ui.refresh", locale), ids.open_(game_id, version), room[0]))
        return out


PRESENTER = UrbanPanicPresenter()
