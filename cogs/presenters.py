"""How each game looks in Discord: move labels, pictures, status lines, controls.

The generic :class:`Presenter` works for any game (labels from the move's fields, the game's turn style
from :mod:`bot.games`, its pictures from :mod:`render.pictures`); each game's subclass sits in
``cogs/games/<kind>.py`` and is bound to its kind once in :mod:`cogs.games`.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping
from typing import Any, Generic

import discord

from bot import errors, games, labels
from bot.games import V
from bot.i18n import t
from cogs import ids
from cogs.common import shown_names, shown_params
from render import pictures

log = logging.getLogger(__name__)

LABEL_LIMIT = labels.LABEL_LIMIT
MAX_BUTTONS = 20
MAX_SELECT_OPTIONS = 25
MAX_SELECTS = 5


class Presenter(Generic[V]):
    """Defaults for any game. ``V``: the game's view type (its TypedDict); generic code holds a
    ``Presenter[Any]``."""

    kind = ""

    def __init__(self, kind: str = "") -> None:
        if kind:
            self.kind = kind

    @property
    def game(self) -> games.Game[Any]:
        return games.get(self.kind)

    @property
    def public_controls(self) -> bool:
        """True: an open game (choices on the public turn message); False: secret hands."""
        return not self.game.turns.secret

    def controls_on_turn_message(self, view: V) -> bool:
        """Whether the awaited player's controls go on the public turn message for this view (the
        game's turn style decides: open games yes, secret hands never)."""
        return self.game.turns.public_choices(view)

    def summary_lines(
        self, key: str, params: dict[str, Any], view: V, locale: str, names: list[str] | None = None
    ) -> list[str]:
        """The turn message's lines about the move that was just played: the game's telling
        (:meth:`bot.games.Game.tell`, the same on the web page and in the terminal); a game not
        registered (gone) gets the rules' sentence. ``names``: the seats' names as typed, and ``params``
        named with them (:func:`bot.service.named`); every name is told as text, never as Discord's
        markdown or a mention (:func:`cogs.common.shown_params`)."""
        shown = shown_params(params, names or [])
        try:
            game = self.game
        except errors.GameError:
            return [t(key, locale, **shown)]
        return game.tell(key, shown, view, locale, shown_names(names) if names is not None else None)

    def move_label(self, move: Mapping[str, Any], view: V, locale: str, limit: int = LABEL_LIMIT) -> str:
        """A move's label, shortened at a word boundary to ``limit`` (a button's; a select option takes
        :data:`cogs.limits.SELECT_OPTION_LABEL`)."""
        return labels.move_label(self.kind, move, view, locale, limit)

    def prompt(self, moves: list[dict[str, Any]], view: V, locale: str) -> str:
        return t("play.choose", locale)

    def draw(self, what: str, *args: Any, locale: str = "en") -> bytes | None:
        """One picture of the game's (:mod:`render.pictures`), its words in ``locale``; a drawing bug costs the
        picture, never the turn."""
        try:
            mod = pictures.get(self.kind)
        except errors.GameError:
            return None
        if mod is None:
            return None
        try:
            return bytes(getattr(mod, what)(*args, locale=locale))
        except Exception:
            log.exception("%s %s picture failed", self.kind, what)
            return None

    def render_turn(self, view: V, seat: int | None, names: list[str], locale: str = "en") -> bytes | None:
        """The picture after a turn (``seat``: who acted, or whose private view it is; None: the
        whole table)."""
        if seat is None:
            return self.draw("render_board", view, names, locale=locale)
        return self.draw("render_turn", view, seat, names, locale=locale)

    def render_end(self, view: V, names: list[str], locale: str = "en") -> bytes | None:
        """The end-of-game picture: every city and the score table."""
        return self.draw("render_end", view, names, locale=locale)

    def status_lines(self, view: V, locale: str, names: list[str] | None = None) -> list[str]:
        """Lines for the status message (round, scores so far); ``names`` in seat order."""
        return []

    def controls(
        self, game_id: int, version: int, token: str, moves: list[dict[str, Any]], view: V, locale: str
    ) -> discord.ui.View:
        """Buttons when few moves fit, else select menus; never an illegal choice."""
        ui = discord.ui.View(timeout=None)
        labels = [self.move_label(m, view, locale) for m in moves]
        button_ids = [ids.move(game_id, version, token, m) for m in moves]
        if len(moves) <= MAX_BUTTONS and all(button_ids):
            for i, (label, cid) in enumerate(zip(labels, button_ids)):
                ui.add_item(
                    discord.ui.Button(label=label or "?", custom_id=cid, row=i // 5, style=self.button_style(moves[i]))
                )
        else:
            options = [
                discord.SelectOption(label=label or "?", value=ids.compact(m))
                for label, m in zip(labels, moves)
                if len(ids.compact(m)) <= 100
            ]
            for n in range(MAX_SELECTS):
                chunk = options[n * MAX_SELECT_OPTIONS : (n + 1) * MAX_SELECT_OPTIONS]
                if not chunk:
                    break
                ui.add_item(
                    discord.ui.Select(
                        custom_id=ids.select(game_id, version, token, n),
                        options=chunk,
                        placeholder=t("play.pick", locale),
                        row=n,
                    )
                )
            if len(options) > MAX_SELECTS * MAX_SELECT_OPTIONS:
                log.warning(
                    "game %s offers %d moves; only %d fit", game_id, len(options), MAX_SELECTS * MAX_SELECT_OPTIONS
                )
        ui.stop()  # nothing to dispatch in-process: clicks are routed by custom_id
        return ui

    def button_style(self, move: Mapping[str, Any]) -> discord.ButtonStyle:
        return discord.ButtonStyle.secondary


_registered: dict[str, Presenter[Any]] = {}


def register(presenter: Presenter[Any]) -> None:
    """List a game's presenter: every game's, by :mod:`cogs.games` (which the bot imports), and the
    tests' toy game at run time."""
    _registered[presenter.kind] = presenter


def get(kind: str) -> Presenter[Any]:
    """The presenter of a game kind (the generic one for a game that has none)."""
    return _registered.get(kind) or Presenter(kind)
