"""How each game looks in Discord: move labels, pictures, status lines.

The generic :class:`Presenter` works for any game (labels from the move's fields, no picture); a
game registers a subclass in :data:`PRESENTERS` to add its pictures and friendlier labels.
"""

from __future__ import annotations

import importlib
import logging
from typing import Any

import discord

from bot import labels
from bot.i18n import t
from cogs import ids

log = logging.getLogger(__name__)

LABEL_LIMIT = labels.LABEL_LIMIT
MAX_BUTTONS = 20
MAX_SELECT_OPTIONS = 25
MAX_SELECTS = 5


class Presenter:
    """Defaults for any game."""

    kind = ""
    public_controls = True
    """True: the awaited player's choices are buttons on the public turn message (open games).
    False: the turn message has a button that opens each player's choices privately (secret hands)."""

    def install(self, bot: Any) -> None:
        """Register what this game needs on the bot (component routes of its own prefix)."""

    def controls_on_turn_message(self, view: dict[str, Any]) -> bool:
        """Whether the awaited player's controls go on the public turn message for this view.

        Default: :attr:`public_controls`. A game whose variants differ (Urban Panic's party) says so.
        """
        return self.public_controls

    def summary_lines(self, key: str, params: dict[str, Any], view: dict[str, Any], locale: str,
                      names: list[str] | None = None) -> list[str]:
        """The turn message's lines about the move that was just played (default: its sentence)."""
        return [t(key, locale, **params)]

    def move_label(self, move: dict[str, Any], view: dict[str, Any], locale: str) -> str:
        return labels.move_label(self.kind, move, view, locale)

    def within_turn(self, acting_seat: int, awaiting: frozenset[int], newly_awaited: frozenset[int],
                    view: dict[str, Any]) -> bool:
        """Whether a move was a step inside a turn (no channel post) rather than a whole turn.

        Default: the same seat is still awaited and nobody new is. Games whose turns have several
        steps and may give the same player two turns in a row (a new round) say it from the view.
        """
        return acting_seat in awaiting and not newly_awaited

    def quiet_after(self, outcome: Any, view: dict[str, Any]) -> bool:
        """Whether a move needs no channel post (a step in a turn, or a secret choice); the status
        message still shows who is left. ``outcome`` is the service's MoveOutcome.

        Default: open games ask :meth:`within_turn`; secret games stay quiet until someone new is
        awaited (a reveal, a new round).
        """
        if self.public_controls:
            return self.within_turn(outcome.seat, outcome.info.awaiting, outcome.newly_awaited, view)
        return not outcome.newly_awaited

    def prompt(self, moves: list[dict[str, Any]], view: dict[str, Any], locale: str) -> str:
        return t("play.choose", locale)

    render_module = ""
    """The game's module in ``render/`` (``render_turn``, ``render_board``, ``render_end``)."""
    _render_module: Any | None = None

    def _renderer(self) -> Any | None:
        """The render module, imported once; None when this build has no pictures for the game."""
        if self._render_module is None and self.render_module:
            try:
                self._render_module = importlib.import_module(self.render_module)
            except ModuleNotFoundError as exc:
                if exc.name is None or not self.render_module.startswith(exc.name):
                    raise
        return self._render_module

    def draw(self, what: str, *args: Any, locale: str = "en") -> bytes | None:
        """One picture from the render module, its words in ``locale``; a drawing bug costs the
        picture, never the turn."""
        mod = self._renderer()
        if mod is None:
            return None
        try:
            return bytes(getattr(mod, what)(*args, locale=locale))
        except Exception:
            log.exception("%s %s picture failed", self.kind, what)
            return None

    def render_turn(self, view: dict[str, Any], seat: int | None, names: list[str],
                    locale: str = "en") -> bytes | None:
        """The picture after a turn (``seat``: who acted, or whose private view it is; None: the
        whole table)."""
        if seat is None:
            return self.draw("render_board", view, names, locale=locale)
        return self.draw("render_turn", view, seat, names, locale=locale)

    def render_end(self, view: dict[str, Any], names: list[str], locale: str = "en") -> bytes | None:
        """The end-of-game picture: every city and the score table."""
        return self.draw("render_end", view, names, locale=locale)

    def status_lines(self, view: dict[str, Any], locale: str, names: list[str] | None = None) -> list[str]:
        """Lines for the status message (round, scores so far); ``names`` in seat order."""
        return []

    def controls(self, game_id: int, version: int, token: str, moves: list[dict[str, Any]],
                 view: dict[str, Any], locale: str) -> discord.ui.View:
        """Buttons when few moves fit, else select menus; never an illegal choice."""
        ui = discord.ui.View(timeout=None)
        labels = [self.move_label(m, view, locale) for m in moves]
        button_ids = [ids.move(game_id, version, token, m) for m in moves]
        if len(moves) <= MAX_BUTTONS and all(button_ids):
            for i, (label, cid) in enumerate(zip(labels, button_ids)):
                ui.add_item(discord.ui.Button(label=label or "?", custom_id=cid, row=i // 5,
                                              style=self.button_style(moves[i])))
        else:
            options = [discord.SelectOption(label=label or "?", value=ids.compact(m))
                       for label, m in zip(labels, moves) if len(ids.compact(m)) <= 100]
            for n in range(MAX_SELECTS):
                chunk = options[n * MAX_SELECT_OPTIONS:(n + 1) * MAX_SELECT_OPTIONS]
                if not chunk:
                    break
                ui.add_item(discord.ui.Select(custom_id=ids.select(game_id, version, token, n),
                                              options=chunk, placeholder=t("play.pick", locale), row=n))
            if len(options) > MAX_SELECTS * MAX_SELECT_OPTIONS:
                log.warning("game %s offers %d moves; only %d fit", game_id, len(options),
                            MAX_SELECTS * MAX_SELECT_OPTIONS)
        ui.stop()  # nothing to dispatch in-process: clicks are routed by custom_id
        return ui

    def button_style(self, move: dict[str, Any]) -> discord.ButtonStyle:
        return discord.ButtonStyle.secondary


class _Registry(dict[str, Presenter]):
    def __missing__(self, kind: str) -> Presenter:
        presenter = Presenter()
        presenter.kind = kind
        return presenter


PRESENTERS: dict[str, Presenter] = _Registry()

GAME_PRESENTER_MODULES = {
    "quadropolis": "cogs.games.quadropolis",
    "btc": "cogs.games.btc",
    "urbanpanic": "cogs.games.urbanpanic",
}


def load_game_presenters() -> None:
    """Import the per-game presenter modules that exist (each registers itself)."""
    for module in GAME_PRESENTER_MODULES.values():
        try:
            importlib.import_module(module)
        except ModuleNotFoundError as exc:
            if exc.name is None or not module.startswith(exc.name):
                raise


def get(kind: str) -> Presenter:
    return PRESENTERS[kind]
