"""Correspondence clocks in Discord (issue 41): the time controls offered by ``/game new`` and
``/game settings`` (the presets of :data:`bot.community.clock.PRESETS`), and the players' banks as lines of
the turn post, the status and the reminders."""

from __future__ import annotations

from typing import TYPE_CHECKING

from discord import app_commands

from bot.community.base import HOUR_MS, MINUTE_MS
from bot.community.clock import PRESETS
from bot.i18n import t
from bot.service import GameInfo, MoveOutcome
from cogs import limits
from cogs.common import shown_name

if TYPE_CHECKING:
    from cogs.app import CityBot


def clock_choices() -> list[app_commands.Choice[str]]:
    """The time controls as a command's choices (their names localised as ``cmd.choice.<preset>``)."""
    return [app_commands.Choice(name=CHOICE_NAMES[p], value=p) for p in PRESETS]


CHOICE_NAMES = {
    "off": "no time bank",
    "3d+1d": "3 days, plus 1 day a turn, at most 7 days",
    "1d+12h": "1 day, plus 12 hours a turn, at most 3 days",
}
"""The English names of the choices (Discord shows the catalogue's in other languages)."""


def stamp(ms: int) -> str:
    """Discord's relative timestamp (each reader sees it count down in their own language)."""
    return f"<t:{ms // 1000}:R>"


def left_text(ms: int, loc: str) -> str:
    """What is left in a bank, in whole hours (in minutes under an hour)."""
    if ms >= HOUR_MS:
        return t("clock.hours", loc, count=ms // HOUR_MS)
    return t("clock.minutes", loc, count=max(0, ms) // MINUTE_MS)


async def clock_lines(bot: CityBot, info: GameInfo, loc: str, outcome: MoveOutcome | None = None) -> list[str]:
    """Each human player's bank, and when it runs out for whoever is to play (a Discord timestamp that
    counts down by itself); nothing when the game has no bank. ``outcome``: the move that left the game at this
    version, whose own statement read the settings where it did (not read again)."""
    if info.game.status != "active":
        return []
    stored = None
    if outcome is not None and outcome.info.id == info.id and outcome.version == info.game.version:
        stored = outcome.settings
    control = (await bot.app.preferences.of_game(info.game, stored=stored)).time_control
    banks = await bot.app.clocks.of_game(info, control)
    now = bot.app.clocks.now
    lines = []
    for seat in info.seats[: limits.MENTION_IDS]:
        bank = banks.get(seat.seat)
        if bank is None or seat.is_ai:
            continue
        left, player = left_text(bank.bank_ms, loc), shown_name(seat.name)
        expires = bank.expires_at(now)
        if bank.running and expires is not None:
            lines.append(t("community.bank.running", loc, player=player, left=left, when=stamp(expires)))
        else:
            lines.append(t("community.bank.resting", loc, player=player, left=left))
    return lines
