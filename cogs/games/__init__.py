"""Every game's Discord side, listed once (a test keeps this in step with :data:`bot.games.GAMES`): its
presenter (``cogs/games/<kind>.py``) and, where the game has its own commands or clicks, its cog
(``cogs/<kind>.py``). The bot imports this module to register the presenters and add the cogs."""

from __future__ import annotations

from typing import Any

from discord.ext import commands

from cogs import presenters
from cogs.btc import BtcCog
from cogs.games import btc, quadropolis, urbanpanic
from cogs.presenters import Presenter
from cogs.quadropolis import QuadropolisCog
from cogs.urbanpanic import UrbanPanicCog

PRESENTERS: dict[str, Presenter[Any]] = {
    p.kind: p for p in (quadropolis.PRESENTER, btc.PRESENTER, urbanpanic.PRESENTER)
}
"""kind -> presenter."""
for _presenter in PRESENTERS.values():
    presenters.register(_presenter)

GAME_COGS: tuple[type[commands.Cog], ...] = (BtcCog, QuadropolisCog, UrbanPanicCog)
"""The games' own cogs, each made with the bot (``Cog(bot)``)."""
