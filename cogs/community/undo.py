"""``/game undo`` on Discord: the proposal with Accept / Refuse buttons (``undo:``), the answers,
and the proposal's message when it expires."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import discord

from bot.community.base import Action
from bot.i18n import t
from cogs import ids, operations
from cogs.common import mention, shown_params
from cogs.community.common import GameSubcommands, id_number, locale_of
from cogs.community.reminders import RemindersCog

if TYPE_CHECKING:
    from cogs.app import CityBot

UNDO_PREFIX = "undo"


def undo_id(game_id: int, version: int, accept: bool) -> str:
    """``undo:<game>:<version>:<yes|no>`` (version: the game's version the proposal is about)."""
    return f"{UNDO_PREFIX}:{game_id}:{version}:{'yes' if accept else 'no'}"


def parse_undo_id(custom_id: str) -> tuple[int, int, bool]:
    parts = custom_id.split(":")
    if len(parts) != 4 or parts[0] != UNDO_PREFIX or parts[3] not in ("yes", "no"):
        raise ids.ForgedId(custom_id)
    return id_number(parts[1]), id_number(parts[2]), parts[3] == "yes"


class UndoCog(GameSubcommands):
    """Taking a move back by agreement."""

    game_subcommands = ("undo",)

    def __init__(self, bot: CityBot, loop: RemindersCog) -> None:
        super().__init__(bot)
        self.undo = bot.app.undo
        self.reminders = bot.app.reminders
        self.loop = loop

    async def cog_load(self) -> None:
        self.bot.component_routes[UNDO_PREFIX] = self.undo_click
        self.loop.handlers["undo_expired"] = self._do_undo_expired
        self.attach_game_commands()

    async def cog_unload(self) -> None:
        self.bot.component_routes.pop(UNDO_PREFIX, None)
        self.loop.handlers.pop("undo_expired", None)
        self.detach_game_commands()

    async def game_undo(self, interaction: discord.Interaction) -> None:
        """Ask to take back your last move; every other player must accept."""
        if not await operations.defer(interaction, ephemeral=False):
            return  # the proposal is public; nothing is proposed when Discord refused
        info = await self.service.game_in_channel(interaction.channel_id or 0)
        proposal = await self.undo.propose_undo(info.id, interaction.user.id)
        key, params = proposal.summary
        loc = info.game.locale  # a public post: the game's language
        move = t(key, loc, **shown_params(params, [s.name for s in info.seats]))
        if proposal.done:
            await operations.reply(
                interaction, t("community.undo.done", loc, user=mention(interaction.user.id)), ephemeral=False
            )
            await self._republish(info.id)
            return
        view = discord.ui.View(timeout=None)
        view.add_item(
            discord.ui.Button(
                label=t("community.undo.button.yes", loc),
                style=discord.ButtonStyle.success,
                custom_id=undo_id(info.id, proposal.version, True),
            )
        )
        view.add_item(
            discord.ui.Button(
                label=t("community.undo.button.no", loc),
                style=discord.ButtonStyle.danger,
                custom_id=undo_id(info.id, proposal.version, False),
            )
        )
        view.stop()
        text = t(
            "community.undo.proposal",
            loc,
            user=mention(interaction.user.id),
            move=move,
            voters=" ".join(mention(v) for v in proposal.voters),
        )
        await operations.reply(
            interaction, text, ephemeral=False, view=view, mentions=operations.mentions_of(proposal.voters)
        )
        message_xid = await operations.original_message_id(interaction)
        if message_xid is not None:
            await self.undo.set_undo_message(info.id, proposal.version, interaction.channel_id, message_xid)

    async def _do_undo_expired(self, action: Action) -> None:
        message_xid = action.params.get("message_xid")
        if message_xid is None or action.channel_xid is None:
            await self.reminders.mark_skipped(action.id)
            return
        loc = (await self.service.game(action.game_id)).locale if action.game_id is not None else "en"
        ok = await operations.edit(
            self.bot, action.channel_xid, int(message_xid), content=t("community.undo.expired", loc), view=None
        )
        await (self.reminders.mark_sent(action.id) if ok else self.reminders.mark_failed(action.id))

    async def undo_click(self, interaction: discord.Interaction, custom_id: str, data: dict[str, Any]) -> None:
        """Accept / Refuse on an undo proposal."""
        game_id, version, accept = parse_undo_id(custom_id)
        if not await operations.defer(interaction, update=True):
            return  # Discord refused: the user saw a failure, so the answer does not count
        loc = locale_of(interaction)
        answer = await self.undo.answer_undo(game_id, version, interaction.user.id, accept)
        proposer = mention(answer.proposal.proposer_xid)
        ploc = (await self.service.game(game_id)).locale  # the proposal is a public post
        if answer.status == "open":
            accepted = sum(1 for v in answer.answers.values() if v)
            await operations.reply(
                interaction, t("community.undo.waiting", loc, n=accepted, total=len(answer.proposal.voters))
            )
            return
        if answer.status == "refused":
            await operations.edit_original(
                interaction,
                content=t("community.undo.refused", ploc, user=mention(interaction.user.id), proposer=proposer),
                view=None,
                allowed_mentions=operations.NO_MENTIONS,
            )
            return
        await operations.edit_original(
            interaction,
            content=t("community.undo.done", ploc, user=proposer),
            view=None,
            allowed_mentions=operations.NO_MENTIONS,
        )
        await self._republish(game_id)

    async def _republish(self, game_id: int) -> None:
        await self.bot.flow.publish(game_id, None)
        # The board after an undo is told: a restart must not announce an older move again.
        info = await self.service.info(game_id)
        await self.service.settle(game_id, info.game.version)
