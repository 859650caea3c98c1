"""Every game's Discord side, bound to its kind in one place: one line per game (a test keeps this in step
with :data:`bot.games.GAMES`): its presenter (``cogs/games/<kind>.py``) and, where the game has its own
commands or clicks, its cog (``cogs/<kind>.py``). The bot imports this module to register the presenters
and add the cogs; a test binds its own game at run time with :func:`bind`."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from discord import app_commands
from discord.ext import commands

from bot import games
from cogs import presenters
from cogs.btc import BtcCog
from cogs.common import game_choices
from cogs.games import btc, quadropolis, urbanpanic
from cogs.presenters import Presenter
from cogs.quadropolis import QuadropolisCog
from cogs.urbanpanic import UrbanPanicCog


@dataclass(frozen=True)
class DiscordSide:
    """A game as Discord shows it: its presenter and its own cog (None: the shared commands suffice)."""

    presenter: Presenter[Any]
    cog: type[commands.Cog] | None = None


SIDES: dict[str, DiscordSide] = {}
"""kind -> the game's Discord side, in the order the cogs are added."""


def bind(presenter: Presenter[Any], cog: type[commands.Cog] | None = None) -> None:
    """Bind a game's presenter (and its cog, added with the bot, ``Cog(bot)``) to its kind."""
    SIDES[presenter.kind] = DiscordSide(presenter, cog)
    presenters.register(presenter)


def game_cogs() -> tuple[type[commands.Cog], ...]:
    """The games' own cogs, each made with the bot (``Cog(bot)``)."""
    return tuple(side.cog for side in SIDES.values() if side.cog is not None)


def offer_every_game(tree: app_commands.CommandTree[Any]) -> None:
    """Every ``game`` option that offers the games (``/game new``, ``rules``, ``tiles``) offers the games known
    now, when the bot adds its commands: its choices were made when the commands were declared, before a
    game bound at run time (a test's) was known. Choices that are already the games known are left as
    they are (the bot's own games: nothing changes)."""
    known = game_choices()
    for command in tree.walk_commands():
        if isinstance(command, app_commands.Command):
            game = command._params.get("game")  # discord.py keeps a command's options there
            choices = game.choices if game is not None and isinstance(game.choices, list) else []
            values = [choice.value for choice in choices]
            if game is None or not set(values) & set(games.GAMES) or values == [c.value for c in known]:
                continue
            # Each name a catalogue string, as discord.py makes the declared choices' (translated on sync).
            game.choices = [app_commands.Choice(name=app_commands.locale_str(c.name), value=c.value) for c in known]


bind(btc.PRESENTER, BtcCog)
bind(quadropolis.PRESENTER, QuadropolisCog)
bind(urbanpanic.PRESENTER, UrbanPanicCog)

PRESENTERS: dict[str, Presenter[Any]] = {kind: side.presenter for kind, side in SIDES.items()}
"""kind -> presenter, of the games bound here."""
