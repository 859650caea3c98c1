"""/btc commands: Between Two Cities solo campaigns of 3 or 6 games, kept per player (spec 10.10).

``/btc campaign start|next|status|abandon|bonus``. The logic lives in :mod:`bot.campaigns`; this
cog turns interactions into its calls and its answers into replies. A campaign game is an ordinary
game in the channel where ``/btc campaign next`` opened it: its lobby, turns and end are the game
cog's (the lobby message is :func:`cogs.lobby.lobby_embed` / ``lobby_view``, exactly as
``/game new`` posts it). After the game's last placement the player chooses the campaign bonus
from their private choices (or with ``/btc campaign bonus``); when the game ends the record moves
on and a line in the game's channel says what the game counted and what is next.

The campaign's words (mode and bonus type names, a bonus's label, the status lines, the channel line) are
:mod:`cogs.btc_texts`, whose names are re-exported here.
"""

from __future__ import annotations

import asyncio
import logging
from typing import TYPE_CHECKING, Any, cast

import discord
from discord import app_commands
from discord.ext import commands

from bot import errors
from bot.btc_campaigns import CampaignError, Campaigns, CampaignStatus, Recorded, is_campaign_game
from bot.i18n import t
from bot.rules.btc.movetypes import BtcBonus
from bot.rules.btc.viewtypes import BtcView
from bot.rules.core import of_kind
from bot.service import GameInfo, MoveOutcome
from cogs import lobby, operations, weblinks
from cogs.announcer import announcer
from cogs.btc_texts import _city_name as _city_name
from cogs.btc_texts import bonus_label as bonus_label
from cogs.btc_texts import game_line as game_line
from cogs.btc_texts import mode_name as mode_name
from cogs.btc_texts import next_text as next_text
from cogs.btc_texts import recorded_text as recorded_text
from cogs.btc_texts import type_name as type_name
from cogs.common import EMBED_COLOUR, locale_of, mention, public_locale, shown_name
from cogs.limits import CHOICE_NAME, cut
from cogs.play import choice_value, play, typed_move

if TYPE_CHECKING:
    from cogs.app import CityBot

log = logging.getLogger(__name__)

KIND = "btc"
MAX_CHOICES = 25
END_POST_WAIT_SECONDS = 10.0
"""How long the campaign line waits for the game cog's end-of-game post, so it comes after it."""
END_POST_POLL_SECONDS = 0.05
RECENT_END_MS = 60_000
"""A game that ended longer ago than this is announced at once (as is one counted late, at start-up)."""
CITY_WORDS = {"left": 0, "right": 2}


class BtcCog(commands.Cog):
    """Between Two Cities: solo campaigns of 3 or 6 games against the Automas, kept per player."""

    btc = app_commands.Group(name="btc", description="Between Two Cities", guild_only=True)
    campaign = app_commands.Group(
        name="campaign", description="Solo campaigns of 3 or 6 games against the Automas", parent=btc
    )

    def __init__(self, bot: CityBot) -> None:
        self.bot = bot
        self.service = bot.service
        self.campaigns: Campaigns = bot.app.campaigns
        """Built and subscribed to game ends by the composition root (:mod:`bot.composition`)."""
        self._tasks: set[asyncio.Task[None]] = set()

    # -- lifecycle ---------------------------------------------------------------------------
    async def cog_load(self) -> None:
        self.campaigns.recorded_listeners.append(self._announce)
        await self.campaigns.resume()

    async def cog_unload(self) -> None:
        if self._announce in self.campaigns.recorded_listeners:
            self.campaigns.recorded_listeners.remove(self._announce)
        for task in list(self._tasks):
            task.cancel()

    # -- commands ----------------------------------------------------------------------------
    @campaign.command(name="start")
    @app_commands.describe(
        length="3 games, or the long campaign of 6 (each bonus type once)",
        difficulty="1 (easiest) to 7; 4 is the plain game, 2 is good to learn",
        mode="full (with the Automa cards) or simple (to learn)",
    )
    @app_commands.choices(
        length=[app_commands.Choice(name="3 games", value=3), app_commands.Choice(name="6 games", value=6)]
    )
    @app_commands.choices(
        mode=[app_commands.Choice(name="full", value="full"), app_commands.Choice(name="simple", value="simple")]
    )
    async def start(
        self,
        interaction: discord.Interaction,
        length: int = 3,
        difficulty: app_commands.Range[int, 1, 7] = 4,
        mode: str = "full",
    ) -> None:
        """Start a solo campaign: 3 or 6 games at one difficulty and one mode."""
        if not await operations.defer(interaction):
            return  # Discord refused: the user saw a failure, so no campaign starts
        campaign = await self.campaigns.start(
            interaction.user.id, length=length, difficulty=difficulty, mode=mode, guild_xid=interaction.guild_id
        )
        loc = locale_of(interaction)
        await operations.reply(
            interaction,
            t(
                "btc.campaign.started",
                loc,
                length=campaign.length,
                mode=mode_name(campaign.mode, loc),
                difficulty=campaign.difficulty,
            ),
        )

    @campaign.command(name="next")
    async def next_(self, interaction: discord.Interaction) -> None:
        """Open the lobby of your campaign's next game in this channel."""
        if not await operations.defer(interaction, ephemeral=False):
            return  # Discord refused: the user saw a failure, so no game opens
        user = interaction.user
        campaign, info = await self.campaigns.open_next(
            user.id, user.display_name, guild_xid=interaction.guild_id, channel_xid=interaction.channel_id
        )
        loc = public_locale(interaction)
        content = t(
            "btc.campaign.lobby",
            loc,
            player=mention(user.id),
            game=campaign.next_game,
            length=campaign.length,
            mode=mode_name(campaign.mode, loc),
            difficulty=campaign.difficulty,
        )
        view = lobby.lobby_view(info, loc, weblinks.board_url(self.bot, info.id))
        assert view is not None, "a new game is in its lobby"
        await operations.reply(interaction, content, embed=lobby.lobby_embed(info, loc), view=view, ephemeral=False)
        message_xid = await operations.original_message_id(interaction)
        if message_xid is not None:
            await self.service.set_messages(info.id, lobby_message_xid=message_xid)

    @campaign.command(name="status")
    @app_commands.describe(player="Whose campaign (yours if empty)")
    async def status(self, interaction: discord.Interaction, player: discord.User | None = None) -> None:
        """Your campaign: games played, scores, bonus types used, and what is next."""
        who = player or interaction.user
        try:
            state = await self.campaigns.status(who.id)
        except CampaignError as exc:
            if player is not None and player.id != interaction.user.id and exc.key == "btc.campaign.error.none":
                raise CampaignError("btc.campaign.error.none_player", player=shown_name(who.display_name)) from None
            raise
        await operations.reply(
            interaction, embed=self.status_embed(state, shown_name(who.display_name), locale_of(interaction))
        )

    @campaign.command(name="abandon")
    async def abandon(self, interaction: discord.Interaction) -> None:
        """End your campaign for good (its open game is stopped and not counted)."""
        if not await operations.defer(interaction):
            return  # Discord refused: the user saw a failure, so the campaign goes on
        loc = locale_of(interaction)
        campaign, game = await self.campaigns.abandon(interaction.user.id)
        lines = [
            t(
                "btc.campaign.abandoned",
                loc,
                played=campaign.next_game - 1,
                length=campaign.length,
                total=campaign.total,
            )
        ]
        if game is not None and game.game.status == "abandoned":
            lines.append(t("btc.campaign.abandoned_game", loc, game=game.id))
        await operations.reply(interaction, "\n".join(lines))
        if game is not None and game.game.status == "abandoned":
            await self._game_stopped(game, interaction)

    async def _game_stopped(self, game: GameInfo, interaction: discord.Interaction) -> None:
        ploc = public_locale(interaction)
        await announcer(self.bot).strip_controls(game)
        await lobby.refresh_lobby(self.bot, game, ploc)
        if game.game.channel_xid is not None:
            line_xid, _ = await operations.post(
                self.bot,
                game.game.channel_xid,
                t("btc.campaign.game_stopped", ploc, game=game.id, user=mention(interaction.user.id)),
            )
            await self.bot.app.erasure.record_post(game.id, "line", line_xid)  # it names the player
            await announcer(self.bot).update_status(game, ploc)

    @campaign.command(name="bonus")
    @app_commands.describe(choice="The building type and the city it is read from (pick from the list)")
    async def bonus(self, interaction: discord.Interaction, choice: str) -> None:
        """Choose your campaign bonus after your campaign game's last placement."""
        loc = locale_of(interaction)
        info = await self._campaign_game_here(interaction)

        async def typed() -> dict[str, Any]:
            _, _, moves, _ = await self.service.choices(info.id, interaction.user.id)
            return self._parse_bonus(choice, of_kind(moves, BtcBonus))

        async def said(outcome: MoveOutcome) -> None:
            move = outcome.move
            snap = outcome.snapshot or await self.service.snapshot(info.id)
            view = cast(BtcView, snap.view(0))  # a Between Two Cities game
            await operations.reply(
                interaction,
                t(
                    "btc.campaign.bonus_done",
                    loc,
                    type=type_name(move["type"], loc),
                    city=_city_name(view, int(move["city"]), loc),
                ),
            )

        await play(self.bot, interaction, info.id, typed, update=False, answer=said)

    @bonus.autocomplete("choice")
    async def _bonus_autocomplete(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        try:
            info = await self._campaign_game_here(interaction)
            _, seat, moves, _ = await self.service.choices(info.id, interaction.user.id)
            view = cast(BtcView, (await self.service.snapshot(info.id)).view(seat))  # a Between Two Cities game
        except errors.GameError:
            return []
        loc = locale_of(interaction)
        out = []
        for move in of_kind(moves, BtcBonus):
            label = bonus_label(move, view, loc)
            if current.lower() in label.lower():
                out.append(app_commands.Choice(name=cut(label, CHOICE_NAME), value=choice_value(move)))
        return out[:MAX_CHOICES]

    async def _campaign_game_here(self, interaction: discord.Interaction) -> GameInfo:
        """This channel's live campaign game, played by the user; else a sentence saying why not."""
        info = await self.service.game_in_channel(interaction.channel_id or 0)
        if info.game.kind != KIND:
            raise CampaignError("btc.campaign.error.not_btc")
        if not is_campaign_game(info.game.options):
            raise CampaignError("btc.campaign.error.not_campaign_game")
        if info.seat_of(interaction.user.id) is None:
            raise CampaignError("btc.campaign.error.not_yours", player=shown_name(info.name(0)))
        return info

    @staticmethod
    def _parse_bonus(text: str, legal: list[BtcBonus]) -> dict[str, Any]:
        """A bonus move from an autocomplete value (JSON) or typed words ("parks", "shops left")."""

        def pick(words_text: str) -> BtcBonus | None:
            words = words_text.lower().replace(",", " ").split()
            cities = {CITY_WORDS[w] for w in words if w in CITY_WORDS}
            found = [
                m
                for m in legal
                if any(len(w) >= 3 and m["type"].startswith(w) for w in words) and (not cities or m["city"] in cities)
            ]
            return found[0] if len(found) == 1 else None

        move = typed_move(text, pick)
        if move is None:
            raise CampaignError("btc.campaign.error.not_understood", text=text.strip()[:50])
        return move

    # -- status ------------------------------------------------------------------------------
    def status_embed(self, state: CampaignStatus, name: str, loc: str) -> discord.Embed:
        c = state.campaign
        played = len(state.games)
        description = "\n".join(
            [
                t(
                    "btc.campaign.status.settings",
                    loc,
                    length=c.length,
                    mode=mode_name(c.mode, loc),
                    difficulty=c.difficulty,
                ),
                t(
                    f"btc.campaign.status.state.{c.status}",
                    loc,
                    game=c.next_game,
                    length=c.length,
                    total=c.total,
                    played=played,
                ),
            ]
        )
        embed = discord.Embed(
            title=t("btc.campaign.status.title", loc, player=name), description=description, colour=EMBED_COLOUR
        )
        lines = [game_line(g, loc) for g in state.games]
        embed.add_field(
            name=t("btc.campaign.status.games", loc, played=played, length=c.length),
            value="\n".join(lines)[:1024] or t("btc.campaign.status.no_games", loc),
            inline=False,
        )
        none = t("btc.campaign.status.none", loc)
        embed.add_field(
            name=t("btc.campaign.status.used", loc),
            value=", ".join(type_name(x, loc) for x in state.used_types) or none,
            inline=True,
        )
        embed.add_field(
            name=t("btc.campaign.status.left", loc),
            value=", ".join(type_name(x, loc) for x in state.types_left) or none,
            inline=True,
        )
        embed.add_field(name=t("btc.campaign.status.total", loc), value=str(c.total), inline=True)
        embed.add_field(name=t("btc.campaign.status.next", loc), value=next_text(c, state.open_game, loc), inline=False)
        best = state.best_before
        embed.add_field(
            name=t("btc.campaign.status.best", loc),
            value=str(best) if best is not None else t("btc.campaign.status.best_none", loc),
            inline=False,
        )
        return embed

    # -- a counted game is announced in its channel, after the game's own end post ------------
    async def _announce(self, recorded: Recorded) -> None:
        if recorded.info.game.channel_xid is None:
            return
        task = asyncio.create_task(self._post_recorded(recorded), name=f"btc-campaign-{recorded.info.id}")
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _post_recorded(self, recorded: Recorded) -> None:
        game = recorded.info.game
        assert game.channel_xid is not None
        try:
            recent = game.finished_at is not None and self.service.clock.now_ms() - game.finished_at < RECENT_END_MS
            if game.status == "finished" and recent and not recorded.late:
                await self._wait_for_end_post(game.id, game.turn_message_xid)
            line_xid, _ = await operations.post(self.bot, game.channel_xid, recorded_text(recorded, game.locale))
            await self.bot.app.erasure.record_post(game.id, "line", line_xid)  # it names the player
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("campaign line of game %s failed", game.id)

    async def _wait_for_end_post(self, game_id: int, old_turn_message: int | None) -> None:
        """Until the game cog has posted the end of the game (its turn message changes), at most
        :data:`END_POST_WAIT_SECONDS`."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + END_POST_WAIT_SECONDS
        while loop.time() < deadline:
            try:
                row = await self.service.game(game_id)
            except errors.UnknownGame:
                return
            if row.turn_message_xid != old_turn_message:
                return
            await asyncio.sleep(END_POST_POLL_SECONDS)


async def setup(bot: CityBot) -> None:
    await bot.add_cog(BtcCog(bot))
