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

The component route and the other extras are registered by :meth:`UrbanPanicPresenter.install`
(or by loading this module as a discord.py extension, see :func:`setup`).
"""

from __future__ import annotations

import logging
import re
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import discord

from bot import errors, games
from bot.i18n import normalise_locale, resolve, t, t_or
from bot.rules.urbanpanic.tiles import tile_term
from bot.rules.urbanpanic.viewtypes import UpAction, UpView
from bot.service import choices_token
from cogs import ids, operations
from cogs.play import play
from cogs.presenters import LABEL_LIMIT, MAX_SELECT_OPTIONS, Presenter

if TYPE_CHECKING:
    from discord.ext import commands

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
GAME_COG = "GameCog"

STEP_PATTERN = re.compile(r"up:([0-9]{1,18}):([0-9]{1,18}):([a-z]{1,2})((?:\.[A-Za-z0-9-]{1,12}){0,2})")
TILE_PATTERN = re.compile(r"[A-Z]{3}-[NESW]{1,4}")
PLOT_PATTERN = re.compile(r"[A-E][1-5]")
SEAT_PATTERN = re.compile(r"[0-9]")
STEP_ARGS: dict[str, tuple[tuple[re.Pattern[str], ...], ...]] = {
    # turn games: Planner, Engineer, Engineer on the board, Engineer with the reserve, Spy
    "p": ((), (TILE_PATTERN,)), "e": ((),), "eb": ((), (PLOT_PATTERN,)), "er": ((TILE_PATTERN,),),
    "s": ((), (SEAT_PATTERN, TILE_PATTERN)),
    # party: Draw, Take (a button naming the tile), Take (select number n; the tile is its value)
    "d": ((),), "t": ((TILE_PATTERN,),), "ts": ((SEAT_PATTERN,),),
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
    if not any(len(shape) == len(args) and all(pattern.fullmatch(arg) for pattern, arg in zip(shape, args))
               for shape in STEP_ARGS.get(name, ())):
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
        return t("urbanpanic.ui.timer", locale, player=seat_name(int(first), names, locale),
                 when=relative_time(int(deadline)))
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
            ui.add_item(discord.ui.Select(
                custom_id=e.custom_id, row=e.row, placeholder=e.label[:LABEL_LIMIT] or t("play.pick", locale),
                options=[discord.SelectOption(label=label[:LABEL_LIMIT], value=value)
                         for label, value in e.options]))
        else:
            ui.add_item(discord.ui.Button(label=e.label[:LABEL_LIMIT] or "?", custom_id=e.custom_id,
                                          row=e.row, style=e.style))
    ui.stop()  # nothing to dispatch in-process: clicks are routed by custom_id
    return ui


def move_entry(game_id: int, version: int, token: str, move: dict[str, Any], label: str, row: int,
               style: discord.ButtonStyle = discord.ButtonStyle.primary) -> Entry | None:
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


# =============================================================================================
# The presenter
# =============================================================================================
class UrbanPanicPresenter(Presenter[UpView]):
    """Urban Panic: step-by-step turns in the basic and advanced games, private hands in the party."""

    kind = KIND
    def render_turn(self, view: UpView, seat: int | None,
                    names: list[str] | None = None, locale: str = "en") -> bytes | None:
        """The turn picture (``seat``: who acted, or whose private view it is; else the table)."""
        acting = seat if seat is not None else view.get("current")
        return super().render_turn(view, acting, names or [], locale)

    def render_end(self, view: UpView, names: list[str] | None = None,
                   locale: str = "en") -> bytes | None:
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
            lines = [t("urbanpanic.ui.prompt.empty_hand", locale, pool=party.get("pool", 0) if party else 0,
                       table=len(party.get("open_table", []) if party else []))]
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
            lines.append(t("urbanpanic.ui.status.turn", locale, turn=view["turn"],
                           player=seat_name(current, names, locale),
                           points=view["points"], architect=t(f"urbanpanic.ui.architect_{architect}", locale)))
        board = view.get("main_board")
        slots = " · ".join(f"{i}: {tile_name(code, locale) if code else '—'}"
                           for i, code in enumerate(board.get("slots", []) if board else [], start=1))
        lines.append(t("urbanpanic.ui.status.main_board", locale, slots=slots,
                       stack=board.get("stack", 0) if board else 0))
        if view.get("goals"):
            lines.append(t("urbanpanic.ui.status.goals", locale,
                           goals=", ".join(t(g["title_key"], locale) for g in view["goals"])))
        for p in view["players"]:
            lines.append(t("urbanpanic.ui.status.city", locale, player=seat_name(p["seat"], names, locale),
                           tiles=p["tiles"],
                           reserve=", ".join(tile_name(c, locale) for c in p.get("reserve", [])) or "—",
                           tracks=self.tracks_text(p["tracks"], view, locale)))
        if view.get("turn_log") and current is not None:
            lines.append(t("urbanpanic.ui.status.this_turn", locale,
                           actions=self.actions_text(view["turn_log"], names, locale)))
        elif prev := view.get("previous_turn"):
            lines.append(self.turn_sentence(seat_name(int(prev["seat"]), names, locale), prev["actions"],
                                            names, locale))
        first = view.get("first_finisher")
        if first is not None:
            lines.append(t("urbanpanic.ui.status.full_city", locale,
                           player=seat_name(int(first), names, locale)))
        if view.get("last_turn"):
            lines.append(t("urbanpanic.ui.status.last_turn", locale))
        return lines

    def _party_status(self, view: UpView, locale: str, names: list[str] | None) -> list[str]:
        party = view.get("party")
        table = party.get("open_table", []) if party else []
        counts: dict[str, int] = {}
        for code in table:
            counts[code] = counts.get(code, 0) + 1
        shown = [tile_name(code, locale) if n == 1 else f"{tile_name(code, locale)} ×{n}"
                 for code, n in list(counts.items())[:OPEN_TABLE_SHOWN]]
        if len(counts) > OPEN_TABLE_SHOWN:
            shown.append(t("urbanpanic.ui.more", locale, n=len(counts) - OPEN_TABLE_SHOWN))
        lines = [t("urbanpanic.ui.status.party", locale, pool=party.get("pool", 0) if party else 0,
                   table=", ".join(shown) or t("urbanpanic.ui.none", locale))]
        for p in view["players"]:
            hand = p.get("hand")
            if p["empty_plots"] == 0:
                state = t("urbanpanic.ui.hand.full_city", locale)
            elif hand is None:
                state = t("urbanpanic.ui.hand.empty", locale)
            else:
                state = t("urbanpanic.ui.hand.holding", locale)  # never the tile: a hand is private
            lines.append(t("urbanpanic.ui.status.party_city", locale, player=seat_name(p["seat"], names, locale),
                           tiles=p["tiles"], state=state))
        deadline = party_deadline_line(view, names, locale)
        if deadline is not None:
            lines.append(deadline)
        return lines

    def tracks_text(self, tracks: list[int], view: UpView, locale: str) -> str:
        legend = view.get("legend")
        names = (legend.get("tracks") if legend else None) or ["residents", "jobs", "ecology", "income",
                                                                 "satisfaction"]
        letters = [t(f"urbanpanic.render.letter.{track}", locale) for track in names]
        return " ".join(f"{letter} {value}" for letter, value in zip(letters, tracks))

    # -- whole-turn summaries ----------------------------------------------------------------
    def action_text(self, entry: UpAction, names: list[str] | None, locale: str) -> str:
        kind = str(entry.get("kind"))
        params: dict[str, Any] = {k: v for k, v in entry.items() if k != "kind"}
        for key in ("tile", "other_tile", "removed"):  # the log keeps codes; the reader gets the notation
            if key in params:
                params[key] = tile_term(params[key])
        if kind == "spy":
            params["victim"] = seat_name(int(entry["victim"]), names, locale)
        return t_or(f"urbanpanic.ui.log.{kind}", kind, locale, **params)

    def actions_text(self, entries: list[UpAction], names: list[str] | None, locale: str) -> str:
        return ", ".join(self.action_text(e, names, locale) for e in entries)

    def turn_sentence(self, player: str, actions: list[UpAction], names: list[str] | None,
                      locale: str) -> str:
        """One line for a whole turn: "alice's turn: took housing ↑↓ (slot 2), built housing ↑↓ on B3."."""
        if not actions:
            return t("urbanpanic.ui.turn.passed", locale, player=player)
        return t("urbanpanic.ui.turn.summary", locale, player=player, actions=self.actions_text(actions, names, locale))

    def summary_lines(self, key: str, params: dict[str, Any], view: UpView, locale: str,
                      names: list[str] | None = None) -> list[str]:
        """The turn message's summary of a move (for a ``Presenter`` summary hook in the cog).

        END_TURN tells the whole turn in one line; the move that starts the hourglass adds the
        deadline as a relative timestamp; anything else is the rules' own sentence.
        """
        lines = [t(key, locale, **params)]
        if key.startswith("urbanpanic.move.end_turn") and (turn := view.get("previous_turn")):
            player = str(params.get("player") or seat_name(int(turn["seat"]), names, locale))
            lines = [self.turn_sentence(player, turn["actions"], names, locale)]
            if view.get("over"):
                lines.append(t("urbanpanic.ui.game_over", locale))
        elif key == "urbanpanic.move.place.full":
            deadline = party_deadline_line(view, names, locale)
            if deadline is not None:
                lines.append(deadline)
        return lines

    # -- controls ------------------------------------------------------------------------------
    def controls(self, game_id: int, version: int, token: str, moves: list[dict[str, Any]],
                 view: UpView, locale: str) -> discord.ui.View:
        if view.get("variant") == "party":
            entries = self.party_entries(game_id, version, token, moves, view, locale)
        else:
            entries = self.top_entries(game_id, version, token, moves, view, locale)
        return build_view(entries, locale)

    def top_entries(self, game_id: int, version: int, token: str, moves: list[dict[str, Any]],
                    view: UpView, locale: str) -> list[Entry]:
        """The first step of a turn: Architect slots, then the other actions (only legal ones)."""
        out: list[Entry] = []
        for m in (m for m in moves if m["kind"] == "architect"):
            entry = move_entry(game_id, version, token, m, self.move_label(m, view, locale), 0)
            if entry is not None:
                out.append(entry)
        kinds = {m["kind"] for m in moves}
        if "planner" in kinds:
            out.append(Entry(t("urbanpanic.ui.step.planner", locale), step_id(game_id, version, "p"), 1))
        if kinds & {"engineer_board", "engineer_reserve"}:
            out.append(Entry(t("urbanpanic.ui.step.engineer", locale), step_id(game_id, version, "e"), 1))
        if "spy" in kinds:
            out.append(Entry(t("urbanpanic.ui.step.spy", locale), step_id(game_id, version, "s"), 1))
        for kind, style in (("mayor", discord.ButtonStyle.secondary), ("end_turn", discord.ButtonStyle.success)):
            found = next((m for m in moves if m["kind"] == kind), None)
            if found is not None:
                entry = move_entry(game_id, version, token, found, self.move_label(found, view, locale), 1,
                                   style)
                if entry is not None:
                    out.append(entry)
        # Always there: the acting player's fresh private menu (the turn message's own move
        # buttons go stale after the first action; its step buttons and this one never do).
        out.append(Entry(t("urbanpanic.ui.refresh", locale), ids.open_(game_id, version), 2))
        return out

    def step_menu(self, step: Step, moves: list[dict[str, Any]], view: UpView, locale: str,
                  game_id: int, version: int, token: str) -> tuple[str, list[Entry]] | None:
        """The next private menu of a turn step, from the legal moves now; None: nothing fits."""
        name, args = step.name, step.args
        viewer = view["viewer"]
        if viewer is None:
            raise TypeError("a step menu needs a seat's own view")
        seat = int(viewer)

        def final(m: dict[str, Any], label: str) -> Entry | None:
            return move_entry(game_id, version, token, m, label, 0)

        def grid(chosen: list[dict[str, Any]], field: str) -> list[Entry]:
            return plot_grid([(str(m[field]), final(m, str(m[field]))) for m in chosen])

        if name == "p":
            planners = [m for m in moves if m["kind"] == "planner"]
            tiles = distinct([str(m["tile"]) for m in planners])
            if not args and len(tiles) == 1:
                args = (tiles[0],)
            if not args:
                return t("urbanpanic.ui.ask.planner_tile", locale), [
                    Entry(t("urbanpanic.ui.pick_tile", locale, tile=tile_name(code, locale)),
                          step_id(game_id, version, "p", code), 0, discord.ButtonStyle.primary) for code in tiles]
            chosen = [m for m in planners if m["tile"] == args[0]]
            if not chosen:
                return None
            return t("urbanpanic.ui.ask.planner_plot", locale, tile=tile_name(args[0], locale)), grid(chosen, "plot")
        if name == "e":
            boards = [m for m in moves if m["kind"] == "engineer_board"]
            tiles = distinct([str(m["tile"]) for m in moves if m["kind"] == "engineer_reserve"])
            options = ([Step(game_id, version, "eb")] if boards else []) + [
                Step(game_id, version, "er", (code,)) for code in tiles]
            if not options:
                return None
            if len(options) == 1:
                return self.step_menu(options[0], moves, view, locale, game_id, version, token)
            entries = [Entry(t("urbanpanic.ui.pick_swap_board", locale) if o.name == "eb"
                             else t("urbanpanic.ui.pick_swap_reserve", locale, tile=tile_name(o.args[0], locale)),
                             step_id(game_id, version, o.name, *o.args), i // ROW_WIDTH,
                             discord.ButtonStyle.primary) for i, o in enumerate(options)]
            return t("urbanpanic.ui.ask.engineer", locale), entries
        if name == "eb":
            boards = [m for m in moves if m["kind"] == "engineer_board"]
            if not args:
                firsts = distinct([str(m["plot"]) for m in boards])
                if not firsts:
                    return None
                return t("urbanpanic.ui.ask.swap_first", locale), plot_grid([
                    (p, Entry(p, step_id(game_id, version, "eb", p), 0, discord.ButtonStyle.primary))
                    for p in firsts])
            chosen = [m for m in boards if m["plot"] == args[0]]
            if not chosen:
                return None
            here = board_tile(view, seat, args[0])
            return (t("urbanpanic.ui.ask.swap_second", locale, plot=args[0],
                                                  tile=tile_name(here, locale) if here else "?"), grid(chosen, "other"))
        if name == "er":
            chosen = [m for m in moves if m["kind"] == "engineer_reserve" and m["tile"] == args[0]]
            if not chosen:
                return None
            return t("urbanpanic.ui.ask.swap_reserve", locale, tile=tile_name(args[0], locale)), grid(chosen, "plot")
        if name == "s":
            spies = [m for m in moves if m["kind"] == "spy"]
            targets = distinct([f"{m['victim']}.{m['tile']}" for m in spies])
            if not args and len(targets) == 1:
                args = tuple(targets[0].split("."))
            if not args:
                entries = []
                for i, target in enumerate(targets[:MAX_BUTTONS]):
                    victim, code = target.split(".")
                    entries.append(Entry(t("urbanpanic.ui.pick_spy", locale, tile=tile_name(code, locale),
                                           victim=seat_name(int(victim), None, locale)),
                                         step_id(game_id, version, "s", victim, code), i // ROW_WIDTH,
                                         discord.ButtonStyle.primary))
                return t("urbanpanic.ui.ask.spy_tile", locale), entries
            chosen = [m for m in spies if str(m["victim"]) == args[0] and m["tile"] == args[1]]
            if not chosen:
                return None
            return t("urbanpanic.ui.ask.spy_plot", locale, tile=tile_name(args[1], locale)), grid(chosen, "plot")
        return None

    def party_entries(self, game_id: int, version: int, token: str, moves: list[dict[str, Any]],
                      view: UpView, locale: str) -> list[Entry]:
        """Empty hand: Draw and the open table. Full hand: the city's empty plots and Drop.

        No label or custom_id ever names the tile in the hand (these controls may be public).
        """
        places = [m for m in moves if m["kind"] == "place"]
        out: list[Entry] = []
        if places or any(m["kind"] == "drop" for m in moves):
            out = plot_grid([(str(m["plot"]), move_entry(game_id, version, token, m, str(m["plot"]), 0))
                             for m in places])
            drop = next((m for m in moves if m["kind"] == "drop"), None)
            if drop is not None:
                entry = move_entry(game_id, version, token, drop, self.move_label(drop, view, locale),
                                   CENTRE_ROW, discord.ButtonStyle.danger)
                if entry is not None:
                    out.append(entry)
        else:
            if any(m["kind"] == "draw" for m in moves):
                out.append(Entry(t("urbanpanic.ui.draw", locale), step_id(game_id, version, "d"), 0,
                                 discord.ButtonStyle.primary))
            codes = [str(m["tile"]) for m in moves if m["kind"] == "take"]
            # in the reader's alphabetical order of the names, so a select's "first to last" is a range
            ordered = sorted(codes, key=lambda c: (tile_name(c, locale).casefold(), c))
            if len(codes) <= TAKE_BUTTON_LIMIT:
                out += [Entry(t("urbanpanic.ui.take", locale, tile=tile_name(code, locale)),
                              step_id(game_id, version, "t", code), 1 + i // ROW_WIDTH)
                        for i, code in enumerate(ordered)]
            else:
                for n in range(MAX_TAKE_SELECTS):
                    chunk = ordered[n * MAX_SELECT_OPTIONS:(n + 1) * MAX_SELECT_OPTIONS]
                    if chunk:
                        out.append(Entry(t("urbanpanic.ui.take_from", locale, first=tile_name(chunk[0], locale),
                                           last=tile_name(chunk[-1], locale)),
                                         step_id(game_id, version, "ts", n), 1 + n,
                                         options=tuple((tile_name(c, locale), c) for c in chunk)))
        # "My choices" (the generic open button) where a row has room: in a private menu it shows the
        # hand and the choices afresh; on a public turn message it opens them.
        room = [r for r in range(MAX_ROWS) if not any(e.row == r and e.options for e in out)
                and sum(1 for e in out if e.row == r) < ROW_WIDTH]
        if room:
            out.append(Entry(t("urbanpanic.ui.refresh", locale), ids.open_(game_id, version), room[0]))
        return out

    # -- the component route -------------------------------------------------------------------
    async def install(self, bot: commands.Bot) -> None:
        """Register the ``up:`` component route on the bot (idempotent)."""
        routes = getattr(bot, "component_routes", None)
        if routes is None:
            log.warning("this bot has no component routes: Urban Panic steps will not answer")
            return
        routes[ROUTE_PREFIX] = self.handle_component

    async def handle_component(self, interaction: discord.Interaction, custom_id: str,
                               data: dict[str, Any]) -> None:
        """An ``up:`` click: the next private step of a turn, or a party Draw / Take."""
        step = parse_step(custom_id)
        cog: Any = interaction.client.get_cog(GAME_COG)  # type: ignore[attr-defined]
        if cog is None:
            raise errors.NotAllowed("error.internal")
        if step.name in ("d", "t", "ts"):
            await self._party_grab(cog, interaction, step, data)
        else:
            await self._show_step(cog, interaction, step)

    async def _party_grab(self, cog: Any, interaction: discord.Interaction, step: Step,
                          data: dict[str, Any]) -> None:
        """Draw or Take, applied in arrival order with no version check: the move means the same
        thing whenever it arrives, and the rules refuse a tile someone else took first."""
        if step.name == "d":
            move: dict[str, Any] = {"kind": "draw"}
        else:
            if step.name == "ts":
                values = data.get("values") or []
                if len(values) != 1 or not TILE_PATTERN.fullmatch(str(values[0])):
                    raise ids.ForgedId("take select")
                code = str(values[0])
            else:
                code = step.args[0]
            move = {"kind": "take", "tile": code}
        await play(interaction.client, interaction, step.game_id, move, update=True)  # type: ignore[arg-type]

    async def _show_step(self, cog: Any, interaction: discord.Interaction, step: Step) -> None:
        loc = normalise_locale(interaction.locale)
        snap = await cog.service.snapshot(step.game_id)
        info = snap.info
        if info.game.kind != KIND:
            raise ids.ForgedId("not an Urban Panic game")
        row = info.seat_of(interaction.user.id)
        if row is None:
            raise errors.NotInGame()
        if info.game.status != "active":
            raise errors.GameOver()
        moves = games.rules(KIND).legal_moves(snap.state, row.seat)
        if not moves:
            raise errors.NotYourTurn()
        view = snap.view(row.seat)
        menu = self.step_menu(step, moves, view, loc, info.id, snap.version, choices_token(moves))
        if menu is None:
            raise errors.StaleAction()
        text, entries = menu
        ui = build_view(entries, loc)
        if interaction.message is not None and interaction.message.flags.ephemeral:
            await operations.edit_original(interaction, content=text, view=ui)
        else:
            await operations.reply(interaction, text, view=ui)


PRESENTER = UrbanPanicPresenter()
