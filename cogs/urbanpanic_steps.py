"""Urban Panic's menus in Discord: the ``up:`` custom_ids of a turn's steps and the party's grabs, the
players' notation of tiles, plots and deadlines, and how a menu's buttons are laid out (like the city).
The presenter (:mod:`cogs.games.urbanpanic`) builds its menus from these; the game's cog
(:mod:`cogs.urbanpanic`) reads its clicks and answers a step with :func:`step_menu`."""

from __future__ import annotations

import logging
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import discord

from bot.i18n import resolve, t
from bot.rules.core import of_kind
from bot.rules.urbanpanic.movetypes import UpEngineerBoard, UpEngineerReserve, UpPlanner, UpSpy
from bot.rules.urbanpanic.tiles import tile_term
from bot.rules.urbanpanic.viewtypes import UpView
from cogs import ids
from cogs.presenters import LABEL_LIMIT

log = logging.getLogger(__name__)

KIND = "urbanpanic"
ROUTE_PREFIX = "up"
"""custom_id prefix of the step buttons and of the party's Draw / Take."""
GRID_SIZE = 5
COLUMNS = "ABCDE"
CENTRE_ROW = 2
"""Row index of C3, the city centre: the party's Drop button sits there (that row has room)."""
ROW_WIDTH = 5
MAX_ROWS = 5
MAX_BUTTONS = ROW_WIDTH * MAX_ROWS
TAKE_BUTTON_LIMIT = 15
"""Up to this many different open-table tiles are buttons; more become select menus."""
MAX_TAKE_SELECTS = 4
OPEN_TABLE_SHOWN = 20
"""How many different open-table tiles the status lists before saying "and N more"."""

STEP_PATTERN = re.compile(r"up:([0-9]{1,18}):([0-9]{1,18}):([a-z]{1,2})((?:\.[A-Za-z0-9-]{1,12}){0,2})")
TILE_PATTERN = re.compile(r"[A-Z]{3}-[NESW]{1,4}")
PLOT_PATTERN = re.compile(r"[A-E][1-5]")
SEAT_PATTERN = re.compile(r"[0-9]")
STEP_ARGS: dict[str, tuple[tuple[re.Pattern[str], ...], ...]] = {
    # turn games: Planner, Engineer, Engineer on the board, Engineer with the reserve, Spy
    "p": ((), (TILE_PATTERN,)),
    "e": ((),),
    "eb": ((), (PLOT_PATTERN,)),
    "er": ((TILE_PATTERN,),),
    "s": ((), (SEAT_PATTERN, TILE_PATTERN)),
    # party: Draw, Take (a button naming the tile), Take (select number n; the tile is its value)
    "d": ((),),
    "t": ((TILE_PATTERN,),),
    "ts": ((SEAT_PATTERN,),),
}
"""Step name -> the argument lists it may carry (after dots), each argument by its pattern."""


# =============================================================================================
# custom_ids of the steps
# =============================================================================================
@dataclass(frozen=True)
class Step:
    """A parsed ``up:`` custom_id: the game, the version it was offered at, the step and its args."""

    game_id: int
    version: int
    name: str
    args: tuple[str, ...] = ()


def step_id(game_id: int, version: int, name: str, *args: object) -> str:
    return ":".join((ROUTE_PREFIX, str(game_id), str(version), ".".join([name, *map(str, args)])))


def parse_step(custom_id: str) -> Step:
    """Read an ``up:`` custom_id or raise :class:`cogs.ids.ForgedId`."""
    match = STEP_PATTERN.fullmatch(custom_id) if isinstance(custom_id, str) else None
    if match is None or len(custom_id) > ids.MAX_CUSTOM_ID:
        raise ids.ForgedId(str(custom_id)[:100])
    name = match.group(3)
    args = tuple(a for a in match.group(4).split(".") if a)
    if not any(
        len(shape) == len(args) and all(pattern.fullmatch(arg) for pattern, arg in zip(shape, args))
        for shape in STEP_ARGS.get(name, ())
    ):
        raise ids.ForgedId(custom_id)
    return Step(int(match.group(1)), int(match.group(2)), name, args)


# =============================================================================================
# Small text helpers (everything a player reads comes from the catalogue)
# =============================================================================================
def relative_time(epoch_ms: int) -> str:
    """Discord's relative timestamp markup (each reader sees "in 45 seconds" in their own language).

    Rounded up, so the shown moment is never before the real deadline.
    """
    return f"<t:{-(-epoch_ms // 1000)}:R>"


def tile_name(code: str, locale: str) -> str:
    """``FAC-NE`` -> "factory ↑→" ("fabryka ↑→" in Polish): the players' notation of a tile, the
    type in their language and its open sides as the arrows the pictures draw as roads
    (:func:`bot.rules.urbanpanic.tiles.tile_term`). Codes stay in custom_ids and moves only.

    The text is an :class:`bot.i18n.Inflected` string that keeps the term's other forms, so a sentence
    that asks for one (``"Gdzie budujesz {tile:acc}?"``) reads "fabrykę ↑→"; as a plain string it is
    the nominative."""
    name: str = resolve(tile_term(code), locale)
    return name


def seat_name(seat: int, names: list[str] | None, locale: str) -> str:
    if names and 0 <= seat < len(names):
        return names[seat]
    return t("urbanpanic.ui.seat", locale, n=seat + 1)


def plot_row(plot: str) -> int:
    return int(plot[1]) - 1


def plot_column(plot: str) -> int:
    return COLUMNS.index(plot[0])


def board_tile(view: UpView, seat: int, plot: str) -> str | None:
    cell = view["players"][seat]["grid"][plot_row(plot)][plot_column(plot)]
    return None if not cell or "centre" in cell else str(cell["tile"])


def distinct(values: list[str]) -> list[str]:
    return list(dict.fromkeys(values))


def party_deadline_line(view: UpView, names: list[str] | None, locale: str) -> str | None:
    """The hourglass (once a city is full) or the safety cap, as a relative timestamp."""
    party = view.get("party")
    deadline = party.get("deadline") if party else None
    if party is None or deadline is None or view.get("over"):
        return None
    first = view.get("first_finisher")
    if party.get("timer_running") and first is not None:
        return t(
            "urbanpanic.ui.timer",
            locale,
            player=seat_name(int(first), names, locale),
            when=relative_time(int(deadline)),
        )
    return t("urbanpanic.ui.cap", locale, when=relative_time(int(deadline)))


# =============================================================================================
# Menus: entries (buttons or selects) and how they are laid out
# =============================================================================================
@dataclass(frozen=True)
class Entry:
    """One button of a menu (``options`` set: a select menu whose values are tile codes)."""

    label: str
    custom_id: str
    row: int
    style: discord.ButtonStyle = discord.ButtonStyle.secondary
    options: tuple[tuple[str, str], ...] = ()


def build_view(entries: list[Entry], locale: str) -> discord.ui.View:
    ui = discord.ui.View(timeout=None)
    for e in entries:
        if e.options:
            ui.add_item(
                discord.ui.Select(
                    custom_id=e.custom_id,
                    row=e.row,
                    placeholder=e.label[:LABEL_LIMIT] or t("play.pick", locale),
                    options=[
                        discord.SelectOption(label=label[:LABEL_LIMIT], value=value) for label, value in e.options
                    ],
                )
            )
        else:
            ui.add_item(
                discord.ui.Button(label=e.label[:LABEL_LIMIT] or "?", custom_id=e.custom_id, row=e.row, style=e.style)
            )
    ui.stop()  # nothing to dispatch in-process: clicks are routed by custom_id
    return ui


def move_entry(
    game_id: int,
    version: int,
    token: str,
    move: Mapping[str, Any],
    label: str,
    row: int,
    style: discord.ButtonStyle = discord.ButtonStyle.primary,
) -> Entry | None:
    cid = ids.move(game_id, version, token, move)
    if cid is None:
        log.warning("game %s: a %s move does not fit in a custom_id", game_id, move.get("kind"))
        return None
    return Entry(label, cid, row, style)


def plot_grid(items: list[tuple[str, Entry | None]]) -> list[Entry]:
    """Buttons laid out like the city: one row per board row (1-5), columns A to E left to right.

    ``items``: (plot, its button); the plot decides the row. At most 24 plots: always fits.
    """
    out: list[Entry] = []
    for plot, entry in sorted(items, key=lambda i: (plot_row(i[0]), plot_column(i[0]))):
        if entry is not None:
            out.append(Entry(entry.label, entry.custom_id, plot_row(plot), entry.style, entry.options))
    return out


def step_menu(
    step: Step, moves: list[dict[str, Any]], view: UpView, locale: str, game_id: int, version: int, token: str
) -> tuple[str, list[Entry]] | None:
    """The next private menu of a turn step, from the legal moves now; None: nothing fits."""
    name, args = step.name, step.args
    viewer = view["viewer"]
    if viewer is None:
        raise TypeError("a step menu needs a seat's own view")
    seat = int(viewer)

    def final(m: Mapping[str, Any], label: str) -> Entry | None:
        return move_entry(game_id, version, token, m, label, 0)

    def grid(chosen: Sequence[Mapping[str, Any]], field: str) -> list[Entry]:
        return plot_grid([(str(m[field]), final(m, str(m[field]))) for m in chosen])

    if name == "p":
        planners = of_kind(moves, UpPlanner)
        tiles = distinct([m["tile"] for m in planners])
        if not args and len(tiles) == 1:
            args = (tiles[0],)
        if not args:
            return t("urbanpanic.ui.ask.planner_tile", locale), [
                Entry(
                    t("urbanpanic.ui.pick_tile", locale, tile=tile_name(code, locale)),
                    step_id(game_id, version, "p", code),
                    0,
                    discord.ButtonStyle.primary,
                )
                for code in tiles
            ]
        chosen: Sequence[Mapping[str, Any]] = [m for m in planners if m["tile"] == args[0]]
        if not chosen:
            return None
        return t("urbanpanic.ui.ask.planner_plot", locale, tile=tile_name(args[0], locale)), grid(chosen, "plot")
    if name == "e":
        boards = of_kind(moves, UpEngineerBoard)
        tiles = distinct([m["tile"] for m in of_kind(moves, UpEngineerReserve)])
        options = ([Step(game_id, version, "eb")] if boards else []) + [
            Step(game_id, version, "er", (code,)) for code in tiles
        ]
        if not options:
            return None
        if len(options) == 1:
            return step_menu(options[0], moves, view, locale, game_id, version, token)
        entries = [
            Entry(
                t("urbanpanic.ui.pick_swap_board", locale)
                if o.name == "eb"
                else t("urbanpanic.ui.pick_swap_reserve", locale, tile=tile_name(o.args[0], locale)),
                step_id(game_id, version, o.name, *o.args),
                i // ROW_WIDTH,
                discord.ButtonStyle.primary,
            )
            for i, o in enumerate(options)
        ]
        return t("urbanpanic.ui.ask.engineer", locale), entries
    if name == "eb":
        boards = of_kind(moves, UpEngineerBoard)
        if not args:
            firsts = distinct([m["plot"] for m in boards])
            if not firsts:
                return None
            return t("urbanpanic.ui.ask.swap_first", locale), plot_grid(
                [(p, Entry(p, step_id(game_id, version, "eb", p), 0, discord.ButtonStyle.primary)) for p in firsts]
            )
        chosen = [m for m in boards if m["plot"] == args[0]]
        if not chosen:
            return None
        here = board_tile(view, seat, args[0])
        return (
            t("urbanpanic.ui.ask.swap_second", locale, plot=args[0], tile=tile_name(here, locale) if here else "?"),
            grid(chosen, "other"),
        )
    if name == "er":
        chosen = [m for m in of_kind(moves, UpEngineerReserve) if m["tile"] == args[0]]
        if not chosen:
            return None
        return t("urbanpanic.ui.ask.swap_reserve", locale, tile=tile_name(args[0], locale)), grid(chosen, "plot")
    if name == "s":
        spies = of_kind(moves, UpSpy)
        targets = distinct([f"{m['victim']}.{m['tile']}" for m in spies])
        if not args and len(targets) == 1:
            args = tuple(targets[0].split("."))
        if not args:
            entries = []
            for i, target in enumerate(targets[:MAX_BUTTONS]):
                victim, code = target.split(".")
                entries.append(
                    Entry(
                        t(
                            "urbanpanic.ui.pick_spy",
                            locale,
                            tile=tile_name(code, locale),
                            victim=seat_name(int(victim), None, locale),
                        ),
                        step_id(game_id, version, "s", victim, code),
                        i // ROW_WIDTH,
                        discord.ButtonStyle.primary,
                    )
                )
            return t("urbanpanic.ui.ask.spy_tile", locale), entries
        chosen = [m for m in spies if str(m["victim"]) == args[0] and m["tile"] == args[1]]
        if not chosen:
            return None
        return t("urbanpanic.ui.ask.spy_plot", locale, tile=tile_name(args[1], locale)), grid(chosen, "plot")
    return None
