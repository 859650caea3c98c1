"""``/game notify`` (a player's preferences) and ``/game settings`` (reminders, deadlines and the
timeout rule, for a game or the whole server)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands

from bot import errors
from bot.community.base import CommunityError
from bot.community.clocks import MAX_CORRECTION_HOURS
from bot.community.settings import ANALYSIS_SCOPES, POLICIES, SETTING_SPECS, Settings
from bot.i18n import t
from cogs import operations
from cogs.clocks import clock_choices, left_text
from cogs.common import EMBED_COLOUR, language_choices, mention
from cogs.community.common import GameSubcommands, is_admin, locale_of, number

if TYPE_CHECKING:
    from cogs.app import CityBot


def setting_value(name: str, value: Any, loc: str) -> str:
    if name == "timeout_policy":
        return t(f"community.policy.{value}", loc)
    if name == "analysis":
        return t(f"community.analysis_scope.{value}", loc)
    if name == "clock":
        return t(f"community.clock.{value}", loc)
    if isinstance(value, bool):
        return t("community.yes" if value else "community.no", loc)
    if name == "deadline_hours" and not value:
        return t("community.settings.no_deadline", loc)
    return number(value)


def settings_lines(settings: Settings, loc: str, *, game_only: bool = False) -> list[str]:
    lines = []
    for name, spec in SETTING_SPECS.items():
        if game_only and not spec.per_game:
            continue
        lines.append(
            t(
                "community.settings.line",
                loc,
                name=t(f"community.setting.{name}", loc),
                value=setting_value(name, getattr(settings, name), loc),
            )
        )
    return lines


class SettingsCog(GameSubcommands):
    """Settings and preferences."""

    game_subcommands = ("notify", "settings")

    def __init__(self, bot: CityBot) -> None:
        super().__init__(bot)
        self.preferences = bot.app.preferences

    @app_commands.describe(
        dm="Also send my reminders by direct message",
        turn_dm="A direct message each time it is my turn",
        quiet="Quiet hours in your time, e.g. 22:00-07:30 (or off): no reminders then",
        timezone="Your time zone, e.g. Europe/Budapest or UTC+2",
        language="The language of my direct messages (default: the game's)",
    )
    @app_commands.choices(language=language_choices())
    async def game_notify(
        self,
        interaction: discord.Interaction,
        dm: bool | None = None,
        turn_dm: bool | None = None,
        quiet: str | None = None,
        timezone: str | None = None,
        language: str | None = None,
    ) -> None:
        """Choose how I remind you: DMs, a DM when it is your turn, quiet hours, time zone."""
        if not await operations.defer(interaction):
            return  # Discord refused: the user saw a failure, so nothing is saved
        loc = locale_of(interaction)
        prefs = await self.preferences.set_prefs(
            interaction.user.id,
            timezone_name=timezone,
            quiet=quiet,
            dm_reminders=dm,
            dm_turns=turn_dm,
            language=language,
        )
        yes, no = t("community.yes", loc), t("community.no", loc)
        await operations.reply(
            interaction,
            t(
                "community.notify.saved",
                loc,
                zone=prefs.timezone,
                quiet=prefs.quiet_text() or t("community.notify.none", loc),
                dm=yes if prefs.dm_reminders else no,
                turn=yes if prefs.dm_turns else no,
            ),
        )

    async def set_game_language(self, interaction: discord.Interaction, language: str) -> None:
        """The channel's game speaks ``language`` from its next post on (its host, or a server manager)."""
        info = await self.service.game_in_channel(interaction.channel_id or 0)
        if info.game.host_xid != interaction.user.id and not is_admin(interaction):
            raise CommunityError("community.error.settings_host")
        await self.service.set_locale(info.id, language)
        await operations.reply(interaction, t("community.settings.language", language, game=info.id), ephemeral=False)

    async def correct_bank(
        self, interaction: discord.Interaction, player: discord.Member | None, hours: int | None
    ) -> None:
        """The host or a moderator adds time to one player's bank in the channel's game, or takes some away;
        the channel is told who did, in the game's language (its post kept as a line of the game)."""
        if player is None or hours is None:
            raise CommunityError("community.error.correct_both")
        info = await self.service.game_in_channel(interaction.channel_id or 0)
        allowed = info.game.host_xid == interaction.user.id or is_admin(interaction)
        info, _seat, ms, bank = await self.bot.app.clocks.correct(info.id, player.id, hours, allowed=allowed)
        loc = info.game.locale
        text = t(
            "community.bank.corrected_added" if ms > 0 else "community.bank.corrected_taken",
            loc,
            moderator=mention(interaction.user.id),
            player=mention(player.id),
            hours=left_text(abs(ms), loc),
            left=left_text(bank, loc),
            game=info.id,
        )
        if await operations.reply(interaction, text, ephemeral=False):
            await self.bot.app.erasure.record_post(info.id, "line", await operations.original_message_id(interaction))

    @app_commands.describe(
        server="Change this server's defaults instead of this channel's game (server managers)",
        reminder_hours="First reminder after this many hours (later ones back off)",
        deadline_hours="The game's speed: one move per this many hours (0: no deadline)",
        timeout_policy="What happens at the deadline",
        vote_hours="How long a timeout vote stays open",
        clock="Each player's time bank",
        max_reminders="Server: reminders per player per turn",
        backoff="Server: each reminder waits this many times longer",
        min_reminder_hours="Server: the shortest interval a game may set",
        daily_reminder_cap="Server: reminders per player per day",
        away_max_days="Server: longest vacation",
        away_pauses_deadlines="Server: vacations pause deadlines",
        recap_gif="Server: the end-of-game recap shows the cities growing (an animation)",
        analysis="Server: which finished games are analysed move by move on their own",
        language="This game's language for its posts and pictures (host or server managers)",
        bank_player="Correct this player's time bank (host or server managers)",
        bank_hours="Hours to add to that player's bank (negative: to take away)",
    )
    @app_commands.choices(
        timeout_policy=[app_commands.Choice(name=p.replace("_", " "), value=p) for p in POLICIES],
        analysis=[
            app_commands.Choice(name=n, value=v)
            for n, v in zip(("every game", "league games", "only when asked"), ANALYSIS_SCOPES, strict=True)
        ],
        language=language_choices(),
        clock=clock_choices(),
    )
    async def game_settings(
        self,
        interaction: discord.Interaction,
        server: bool = False,
        reminder_hours: app_commands.Range[float, 1.0, 336.0] | None = None,
        deadline_hours: app_commands.Range[float, 0.0, 1440.0] | None = None,
        timeout_policy: str | None = None,
        vote_hours: app_commands.Range[float, 1.0, 168.0] | None = None,
        clock: str | None = None,
        max_reminders: app_commands.Range[int, 0, 10] | None = None,
        backoff: app_commands.Range[float, 1.0, 4.0] | None = None,
        min_reminder_hours: app_commands.Range[float, 1.0, 168.0] | None = None,
        daily_reminder_cap: app_commands.Range[int, 1, 48] | None = None,
        away_max_days: app_commands.Range[int, 1, 365] | None = None,
        away_pauses_deadlines: bool | None = None,
        recap_gif: bool | None = None,
        analysis: str | None = None,
        language: str | None = None,
        bank_player: discord.Member | None = None,
        bank_hours: app_commands.Range[int, -MAX_CORRECTION_HOURS, MAX_CORRECTION_HOURS] | None = None,
    ) -> None:
        """See or change reminders, deadlines and the timeout rule (this game, or the server)."""
        given = {
            k: v
            for k, v in {
                "reminder_hours": reminder_hours,
                "deadline_hours": deadline_hours,
                "timeout_policy": timeout_policy,
                "vote_hours": vote_hours,
                "clock": clock,
                "max_reminders": max_reminders,
                "backoff": backoff,
                "min_reminder_hours": min_reminder_hours,
                "daily_reminder_cap": daily_reminder_cap,
                "away_max_days": away_max_days,
                "away_pauses_deadlines": away_pauses_deadlines,
                "recap_gif": recap_gif,
                "analysis": analysis,
            }.items()
            if v is not None
        }
        # A change is said in public (the game's or the server's rules change); a look is private.
        correcting = bank_player is not None or bank_hours is not None
        if not await operations.defer(interaction, ephemeral=not (correcting or language is not None or given)):
            return  # Discord refused: the user saw a failure, so nothing is saved
        loc = locale_of(interaction)
        if correcting:
            await self.correct_bank(interaction, bank_player, bank_hours)
            if language is None and not given and not server:
                return
        if language is not None:
            await self.set_game_language(interaction, language)
            if not given and not server:
                return
        guild = interaction.guild_id or 0
        if server or any(not SETTING_SPECS[k].per_game for k in given):
            if given and not is_admin(interaction):
                raise CommunityError("community.error.settings_admin")
            settings = (
                await self.preferences.update_settings(guild, given)
                if given
                else await self.preferences.server_settings(guild)
            )
            title = t("community.settings.server", loc)
            saved = t("community.settings.saved_server", loc) if given else None
        else:
            try:
                info = await self.service.game_in_channel(interaction.channel_id or 0)
            except errors.NoGameHere:
                if given:
                    raise
                settings = await self.preferences.server_settings(guild)
                embed = discord.Embed(
                    title=t("community.settings.server", loc),
                    description="\n".join(settings_lines(settings, loc)),
                    colour=EMBED_COLOUR,
                )
                await operations.reply(interaction, embed=embed)
                return
            if given and info.game.host_xid != interaction.user.id and not is_admin(interaction):
                raise CommunityError("community.error.settings_host")
            settings = (
                await self.preferences.update_settings(guild, given, game_id=info.id)
                if given
                else await self.preferences.settings_for(info.id)
            )
            title = t("community.settings.game", loc, game=info.id)
            saved = t("community.settings.saved_game", loc, game=info.id) if given else None
        embed = discord.Embed(title=title, description="\n".join(settings_lines(settings, loc)), colour=EMBED_COLOUR)
        await operations.reply(interaction, saved, embed=embed, ephemeral=not given)
