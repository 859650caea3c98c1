"""Deadlines and timeout votes on Discord: the vote message and its buttons (``cvote:``), closing
it, and what a deadline did (the AI moved or took over, more time, nothing to do)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import discord
from discord.ext import commands

from bot.community.base import Action
from bot.i18n import t
from cogs import ids, operations
from cogs.common import mention
from cogs.community.common import id_number, locale_of, player_label, stamp
from cogs.community.reminders import RemindersCog
from cogs.play import turn_flow

if TYPE_CHECKING:
    from cogs.app import CityBot

VOTE_PREFIX = "cvote"
KINDS = ("vote_open", "vote_closed", "ai_move", "extended", "deadline_passed", "forfeit")


def vote_id(game_id: int, version: int, seat: int, choice: str) -> str:
    """``cvote:<game>:<version>:<seat>:<move|takeover|wait>`` (version: when the vote opened)."""
    return f"{VOTE_PREFIX}:{game_id}:{version}:{seat}:{choice}"


def parse_vote_id(custom_id: str) -> tuple[int, int, int, str]:
    parts = custom_id.split(":")
    if len(parts) != 5 or parts[0] != VOTE_PREFIX or parts[4] not in ("move", "takeover", "wait"):
        raise ids.ForgedId(custom_id)
    return id_number(parts[1]), id_number(parts[2]), id_number(parts[3]), parts[4]


class VotesCog(commands.Cog):
    """Timeout votes and deadline notices."""

    def __init__(self, bot: CityBot, loop: RemindersCog) -> None:
        self.bot = bot
        self.service = bot.service
        self.votes = bot.app.votes
        self.reminders = bot.app.reminders
        self.loop = loop

    async def cog_load(self) -> None:
        self.bot.component_routes[VOTE_PREFIX] = self.vote_click
        for kind in KINDS:
            self.loop.handlers[kind] = getattr(self, f"_do_{kind}")

    async def cog_unload(self) -> None:
        self.bot.component_routes.pop(VOTE_PREFIX, None)
        for kind in KINDS:
            self.loop.handlers.pop(kind, None)

    def vote_view(self, game_id: int, version: int, seat: int, loc: str) -> discord.ui.View:
        view = discord.ui.View(timeout=None)
        styles = {
            "move": discord.ButtonStyle.primary,
            "takeover": discord.ButtonStyle.secondary,
            "wait": discord.ButtonStyle.success,
        }
        for choice, style in styles.items():
            view.add_item(
                discord.ui.Button(
                    label=t(f"community.vote.button.{choice}", loc),
                    style=style,
                    custom_id=vote_id(game_id, version, seat, choice),
                )
            )
        view.stop()
        return view

    async def _do_vote_open(self, action: Action) -> None:
        info = await self.loop.info(action)
        p = action.params
        loc = info.game.locale
        voters = [int(v) for v in p.get("voters", [])]
        text = t(
            "community.vote.open",
            loc,
            late=mention(action.user_xid or 0),
            game=info.id,
            since=stamp(p.get("since")),
            voters=" ".join(mention(v) for v in voters),
            closes=stamp(p.get("closes_at")),
        )
        assert action.seat is not None
        view = self.vote_view(info.id, int(p["version"]), action.seat, loc)
        await self.loop.send(
            action, text, view=view, mentions=[*voters, *([action.user_xid] if action.user_xid else [])]
        )

    async def _do_vote_closed(self, action: Action) -> None:
        info = await self.loop.info(action)
        p = action.params
        decision = str(p.get("decision", "moved"))
        text = t(
            f"community.vote.closed.{decision}",
            info.game.locale,
            late=player_label(info, action.seat if action.seat is not None else -1),
        )
        message_xid = p.get("message_xid")
        if message_xid is None or action.channel_xid is None:
            await self.reminders.mark_skipped(action.id)
            return
        ok = await operations.edit(
            self.bot,
            action.channel_xid,
            int(message_xid),
            content=text,
            view=None,
            allowed_mentions=operations.NO_MENTIONS,
        )
        await (self.reminders.mark_sent(action.id) if ok else self.reminders.mark_failed(action.id))

    async def _do_ai_move(self, action: Action) -> None:
        outcome = await self.reminders.execute_ai(action)
        if outcome is None:
            return
        info = outcome.info
        key = "community.timeout.ai_took_over" if action.params.get("take_over") else "community.timeout.ai_moved"
        await operations.post(
            self.bot,
            info.game.channel_xid or 0,
            t(key, info.game.locale, player=player_label(info, outcome.seat), game=info.id),
        )
        await turn_flow(self.bot, outcome)

    async def _do_extended(self, action: Action) -> None:
        info = await self.loop.info(action)
        text = t(
            "community.timeout.extended",
            info.game.locale,
            player=player_label(info, action.seat or 0),
            deadline=stamp(action.params.get("deadline")),
        )
        await self.loop.send(action, text)

    async def _do_deadline_passed(self, action: Action) -> None:
        info = await self.loop.info(action)
        key = "community.timeout.passed_no_ai" if action.params.get("no_ai") else "community.timeout.passed"
        text = t(key, info.game.locale, player=player_label(info, action.seat or 0), game=info.id)
        await self.loop.send(action, text)

    async def _do_forfeit(self, action: Action) -> None:
        """A rated league's game: the late player ran out of time and forfeits (said once, with the action's nonce)."""
        info = await self.reminders.execute_forfeit(action)
        if info is None:
            return
        text = t(
            "community.timeout.forfeit", info.game.locale, player=player_label(info, action.seat or 0), game=info.id
        )
        await self.loop.send(action, text)
        await self.bot.flow.publish(info.id, None, info.game.locale)

    # -- buttons -----------------------------------------------------------------------------
    async def vote_click(self, interaction: discord.Interaction, custom_id: str, data: dict[str, Any]) -> None:
        """A timeout vote button: counted, and decided as soon as a majority agrees."""
        game_id, version, seat, choice = parse_vote_id(custom_id)
        if not await operations.defer(interaction):
            return  # Discord refused: the user saw a failure, so the vote does not count
        loc = locale_of(interaction)
        result = await self.votes.cast_vote(game_id, version, seat, interaction.user.id, choice)
        await operations.reply(
            interaction, t("community.vote.counted", loc, choice=t(f"community.vote.button.{choice}", loc))
        )
        for action in result.actions:
            await self.loop.dispatch(action)
