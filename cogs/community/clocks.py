"""Correspondence clocks in Discord (issue 41): the time controls offered by ``/game new`` and
``/game settings`` (the presets of :data:`bot.community.clock.PRESETS`)."""

from __future__ import annotations

from discord import app_commands

from bot.community.clock import PRESETS


def clock_choices() -> list[app_commands.Choice[str]]:
    """The time controls as a command's choices (their names localised as ``cmd.choice.<preset>``)."""
    return [app_commands.Choice(name=CHOICE_NAMES[p], value=p) for p in PRESETS]


CHOICE_NAMES = {
    "off": "no time bank",
    "3d+1d": "3 days, plus 1 day a turn, at most 7 days",
    "1d+12h": "1 day, plus 12 hours a turn, at most 3 days",
}
"""The English names of the choices (Discord shows the catalogue's in other languages)."""
