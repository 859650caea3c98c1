"""The reminder loop's cog: every minute (and soon after a move) one
:meth:`bot.community.reminders.Reminders.run_due` pass, then each action is carried out and
confirmed. Sends carry the action's nonce, so a message offered again after a restart is not
posted twice. Other cogs add handlers for their own action kinds (votes, undo). Also
``/game snooze``, ``/game away`` and ``/game mine``."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.ext import tasks

from bot import errors
from bot.community.base import Action
from bot.community.settings import POLICIES
from bot.i18n import t
from bot.service import GameInfo, MoveOutcome
from cogs import limits, operations, presenters
from cogs.clocks import left_text
from cogs.common import EMBED_COLOUR, game_title, mention
from cogs.community.common import GameSubcommands, channel_link, locale_of, stamp

if TYPE_CHECKING:
    from cogs.app import CityBot

log = logging.getLogger(__name__)

LOOP_SECONDS = 60
BATCH = 100
KICK_DELAY_SECONDS = 1.0
"""After a move, a loop pass runs this soon (notices such as "you are the last to choose")."""

ActionHandler = Callable[[Action], Awaitable[None]]


class RemindersCog(GameSubcommands):
    """The reminder loop; snooze, vacations and the games waiting for you."""

    game_subcommands = ("snooze", "away", "mine")

    def __init__(self, bot: CityBot) -> None:
        super().__init__(bot)
        self.reminders = bot.app.reminders
        self.reminders.mention_covered = lambda kind: presenters.get(kind).public_controls
        self.kick_delay: float | None = KICK_DELAY_SECONDS
        """Seconds after a move before a loop pass (None: only the minute loop; tests)."""
        self._kick_task: asyncio.Task[None] | None = None
        self._tick_lock = asyncio.Lock()
        self.handlers: dict[str, ActionHandler] = {
            "reminder": self._do_reminder,
            "reminder_dm": self._do_reminder_dm,
            "turn_dm": self._do_turn_dm,
            "last": self._do_last,
        }
        """Action kind -> what carries it out (other cogs add theirs)."""

    # -- lifecycle ---------------------------------------------------------------------------
    async def cog_load(self) -> None:
        await self.reminders.resume()
        self.service.move_listeners.append(self._on_move)
        self.attach_game_commands()
        self.reminder_loop.start()

    async def cog_unload(self) -> None:
        self.reminder_loop.cancel()
        if self._kick_task is not None:
            self._kick_task.cancel()
        if self._on_move in self.service.move_listeners:
            self.service.move_listeners.remove(self._on_move)
        self.detach_game_commands()
        try:
            await self.reminders.heartbeat()
        except Exception:
            log.info("no heartbeat at unload (store closed)")

    # -- the loop ----------------------------------------------------------------------------
    @tasks.loop(seconds=LOOP_SECONDS)
    async def reminder_loop(self) -> None:
        try:
            await self.tick()
        except Exception:
            log.exception("reminder loop pass failed")

    @reminder_loop.before_loop
    async def _before_loop(self) -> None:
        await self.bot.wait_until_ready()

    async def tick(self) -> list[Action]:
        """One pass: everything due is recorded, then sent and confirmed one by one."""
        async with self._tick_lock:
            actions = await self.reminders.run_due(self.reminders.now, BATCH)
            for action in actions:
                await self.dispatch(action)
            return actions

    async def _on_move(self, outcome: MoveOutcome) -> None:
        if self.kick_delay is None:
            return
        if self._kick_task is None or self._kick_task.done():
            self._kick_task = asyncio.create_task(self._kick(), name="community-kick")

    async def _kick(self) -> None:
        await asyncio.sleep(self.kick_delay or 0)
        try:
            await self.tick()
        except Exception:
            log.exception("reminder pass after a move failed")

    # -- sending -----------------------------------------------------------------------------
    async def finish(self, action: Action, sent: tuple[int | None, bool]) -> None:
        """Confirm a sent action; a refusal for good is recorded as failed, a passing one stays
        claimed (offered again with the same nonce)."""
        message_xid, retry = sent
        if message_xid is not None:
            await self.reminders.mark_sent(action.id, message_xid)
        elif not retry:
            await self.reminders.mark_failed(action.id)

    async def send(
        self, action: Action, content: str, *, mentions: list[int] | None = None, view: discord.ui.View | None = None
    ) -> None:
        """Post an action's message in its game's channel, once, and confirm it."""
        await self.finish(
            action,
            await operations.send_once(
                self.bot, action.channel_xid, content, nonce=action.nonce, mentions=mentions, view=view
            ),
        )

    async def dm(self, action: Action, content: str) -> None:
        """Send an action's direct message, once, and confirm it."""
        await self.finish(action, await operations.dm_once(self.bot, action.user_xid, content, nonce=action.nonce))

    async def dispatch(self, action: Action) -> None:
        """Carry out one action of the loop (or of a click) and confirm it."""
        handler = self.handlers.get(action.kind)
        if handler is None:
            log.warning("unknown community action %s", action.kind)
            await self.reminders.mark_failed(action.id)
            return
        try:
            await handler(action)
        except errors.GameError as exc:
            log.info("action %s (%s) refused: %s", action.id, action.kind, exc.key)
            await self.reminders.mark_skipped(action.id)
        except Exception:
            log.exception("action %s (%s) failed", action.id, action.kind)
            await self.reminders.mark_failed(action.id)

    async def info(self, action: Action) -> GameInfo:
        assert action.game_id is not None
        return await self.service.info(action.game_id)

    async def dm_locale(self, action: Action, info: GameInfo) -> str:
        """A direct message speaks the player's chosen language, else the game's."""
        if action.user_xid is not None:
            chosen = (await self.bot.app.preferences.prefs(action.user_xid)).language
            if chosen:
                return chosen
        return info.game.locale

    async def _do_reminder(self, action: Action) -> None:
        info = await self.info(action)
        p = action.params
        loc = info.game.locale
        lines = [
            t(
                "community.reminder",
                loc,
                user=mention(action.user_xid or 0),
                game=info.id,
                title=game_title(info.game.kind, loc),
                since=stamp(p.get("since")),
            )
        ]
        if p.get("voting"):
            lines.append(t("community.reminder.voting", loc))
        elif p.get("deadline"):
            policy = p.get("policy", "none")
            lines.append(
                t(
                    f"community.reminder.deadline.{policy if policy in POLICIES else 'none'}",
                    loc,
                    deadline=stamp(p["deadline"]),
                )
            )
        if p.get("bank_left") is not None:
            lines.append(t("community.reminder.bank", loc, left=left_text(int(p["bank_left"]), loc)))
        lines.append(t("community.reminder.hint", loc))
        await self.send(action, "\n".join(lines), mentions=[action.user_xid] if action.user_xid else [])

    async def _do_reminder_dm(self, action: Action) -> None:
        info = await self.info(action)
        loc = await self.dm_locale(action, info)
        text = t(
            "community.reminder_dm",
            loc,
            game=info.id,
            title=game_title(info.game.kind, loc),
            since=stamp(action.params.get("since")),
            link=channel_link(info.game.guild_xid, info.game.channel_xid, info.game.turn_message_xid),
        )
        if action.params.get("bank_left") is not None:
            text += "\n" + t("community.reminder.bank", loc, left=left_text(int(action.params["bank_left"]), loc))
        await self.dm(action, text)

    async def _do_turn_dm(self, action: Action) -> None:
        info = await self.info(action)
        loc = await self.dm_locale(action, info)
        text = t(
            "community.turn_dm",
            loc,
            game=info.id,
            title=game_title(info.game.kind, loc),
            link=channel_link(info.game.guild_xid, info.game.channel_xid, info.game.turn_message_xid),
        )
        await self.dm(action, text)

    async def _do_last(self, action: Action) -> None:
        info = await self.info(action)
        text = t("community.last", info.game.locale, user=mention(action.user_xid or 0), game=info.id)
        await self.send(action, text, mentions=[action.user_xid] if action.user_xid else [])

    # -- /game snooze, away, mine ------------------------------------------------------------
    @app_commands.describe(
        hours="For how many hours (default 12)",
        everywhere="Snooze all your games on this server, not just this channel's",
    )
    async def game_snooze(
        self,
        interaction: discord.Interaction,
        hours: app_commands.Range[float, 0.5, 168.0] = 12.0,
        everywhere: bool = False,
    ) -> None:
        """Pause your reminders for a while (deadlines still run)."""
        if not await operations.defer(interaction):
            return  # Discord refused: the user saw a failure, so nothing is saved
        loc = locale_of(interaction)
        if everywhere:
            count, until = await self.reminders.snooze(interaction.user.id, hours, guild_xid=interaction.guild_id)
        else:
            info = await self.service.game_in_channel(interaction.channel_id or 0)
            count, until = await self.reminders.snooze(interaction.user.id, hours, game_id=info.id)
        await operations.reply(interaction, t("community.snoozed", loc, until=stamp(until), count=count))

    @app_commands.describe(days="How many days you are away (0: I am back)")
    async def game_away(self, interaction: discord.Interaction, days: app_commands.Range[float, 0.0, 365.0]) -> None:
        """Go on vacation: no reminders, and deadlines paused as this server's rules say."""
        if not await operations.defer(interaction):
            return  # Discord refused: the user saw a failure, so nothing is saved
        loc = locale_of(interaction)
        until, paused = await self.reminders.set_away(interaction.guild_id or 0, interaction.user.id, days)
        if until is None:
            text = t("community.away.back", loc)
        else:
            text = t("community.away.set_paused" if paused else "community.away.set_running", loc, until=stamp(until))
        await operations.reply(interaction, text)

    async def game_mine(self, interaction: discord.Interaction) -> None:
        """Every game on this server waiting for you, with links."""
        loc = locale_of(interaction)
        await operations.defer(interaction)
        entries = await self.reminders.mine(interaction.guild_id or 0, interaction.user.id)
        if not entries:
            await operations.reply(interaction, t("community.mine.none", loc))
            return
        lines = []
        for e in entries:
            g = e.info.game
            extra = t("community.mine.deadline", loc, deadline=stamp(e.deadline)) if e.deadline else ""
            if e.snoozed_until and e.snoozed_until > self.reminders.now:
                extra += t("community.mine.snoozed", loc, until=stamp(e.snoozed_until))
            lines.append(
                t(
                    "community.mine.line",
                    loc,
                    game=g.id,
                    title=game_title(g.kind, loc),
                    channel=f"<#{g.channel_xid}>",
                    since=stamp(e.since),
                    extra=extra,
                    link=channel_link(g.guild_xid, g.channel_xid, g.turn_message_xid),
                )
            )
        embed = discord.Embed(
            title=t("community.mine.title", loc, count=len(entries)),
            description=limits.lines_text(lines, loc),
            colour=EMBED_COLOUR,
        )
        await operations.reply(interaction, embed=embed)
