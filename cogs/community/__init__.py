"""Playing over days, one cog per feature: the reminder loop (:mod:`.reminders`), settings and
preferences (:mod:`.settings`), deadlines and votes (:mod:`.votes`), undo (:mod:`.undo`), history,
replay and export (:mod:`.history`), followers (:mod:`.followers`) and leagues (:mod:`.leagues`).

The logic lives in :mod:`bot.community`; these cogs turn interactions into calls and actions into
Discord messages, with the feature objects the composition root built (``bot.app``). Expected
Discord failures are handled in :mod:`cogs.operations`.

Subcommands are added to the existing ``/game`` group (snooze, away, mine, notify, settings,
history, replay, export, undo, follow, unfollow, give-time); ``/league`` is the leagues cog's own group. Vote and
undo buttons are routed by custom_id (``cvote:`` and ``undo:``), so they keep working after a restart.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from cogs.community.analysis import AnalysisCog
from cogs.community.erasure import ErasureCog
from cogs.community.followers import FollowersCog
from cogs.community.givetime import GiveTimeCog
from cogs.community.history import HistoryCog
from cogs.community.leagues import LeaguesCog
from cogs.community.reminders import RemindersCog
from cogs.community.settings import SettingsCog
from cogs.community.undo import UndoCog
from cogs.community.votes import VotesCog
from cogs.community.weblinks import LinksCog

if TYPE_CHECKING:
    from cogs.app import CityBot


async def setup(bot: CityBot) -> None:
    loop = RemindersCog(bot)
    for cog in (
        loop,
        SettingsCog(bot),
        HistoryCog(bot),
        UndoCog(bot, loop),
        FollowersCog(bot),
        VotesCog(bot, loop),
        LeaguesCog(bot),
        ErasureCog(bot),
        LinksCog(bot),
        AnalysisCog(bot, loop),
        GiveTimeCog(bot),
    ):
        await bot.add_cog(cog)
