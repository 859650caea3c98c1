"""The /game commands: the lobby (new, join, leave, start) and the game (status, list, abandon, resign,
forget-me, rules, tiles), and the timer loop.

Thin on purpose: each handler translates an interaction into one service call and the service's
answer into a reply; what happens after a move (AI seats, timers, settling, resuming) is
:class:`bot.turnflow.TurnFlow`'s, shared with the terminal, told by :mod:`cogs.announcer`. Buttons
are read by :mod:`cogs.router`; the lobby message is :mod:`cogs.lobby`'s.
"""

from __future__ import annotations

import asyncio
import logging
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.ext import commands, tasks

from bot import errors, games
from bot.i18n import t
from bot.service import GameInfo, Service
from bot.turnflow import TurnFlow
from cogs import limits, lobby, operations, rulebook, weblinks
from cogs.announcer import DiscordAnnouncer, announcer
from cogs.clocks import clock_choices
from cogs.common import (
    EMBED_COLOUR,
    game_choices,
    game_title,
    language_choices,
    locale_of,
    mention,
    public_locale,
    shown_name,
)
from cogs.community.erasure import forgotten_text
from cogs.limits import CHOICE_NAME, cut
from render import pictures

if TYPE_CHECKING:
    from cogs.app import CityBot

log = logging.getLogger(__name__)

LIST_LIMIT = 100
"""Games /game list reads at most (it shows as many as fit, then "and N more")."""


class GameCog(commands.Cog):
    """Play board games in this channel: start a lobby, join, and take your turns."""

    game = app_commands.Group(name="game", description="Start, join and manage board games", guild_only=True)

    def __init__(self, bot: CityBot) -> None:
        self.bot = bot
        self.service: Service = bot.service
        self.flow: TurnFlow = bot.flow

    # =========================================================================================
    # Lobby commands
    # =========================================================================================
    @game.command(name="new")
    @app_commands.describe(
        game="Which game to play",
        mode="The game's mode or variant (leave empty for the standard one)",
        ai_players="How many AI players to seat now",
        ai_level="How strong the AI players are",
        difficulty="Solo difficulty, where the game has one (1-7)",
        language="The language of the game's posts and pictures (default: the server's)",
        more="More of the game's options, as name=value (e.g. party_minutes=30 party_goals=on)",
        clock="Each player's time bank (default: the server's)",
    )
    @app_commands.choices(game=game_choices(), language=language_choices(), clock=clock_choices())
    async def new(
        self,
        interaction: discord.Interaction,
        game: str,
        mode: str | None = None,
        ai_players: app_commands.Range[int, 0, 6] = 0,
        ai_level: str | None = None,
        difficulty: app_commands.Range[int, 1, 7] | None = None,
        language: str | None = None,
        more: app_commands.Range[str, 0, 200] | None = None,
        clock: str | None = None,
    ) -> None:
        """Open a lobby for a new game in this channel or thread."""
        missing = operations.missing_permissions(
            interaction.app_permissions, isinstance(interaction.channel, discord.Thread)
        )
        names = ", ".join(t(f"perm.{name}", locale_of(interaction)) for name in missing)
        if any(name in operations.BLOCKING_PERMISSIONS for name in missing):
            # Without these no turn can be posted here: no lobby.
            await operations.reply(
                interaction, t("error.missing_permissions", locale_of(interaction), permissions=names)
            )
            return
        rules = games.rules(game)
        options: dict[str, Any] = {}
        if mode and rules.option_specs:
            options[rules.option_specs[0].name] = mode
        if difficulty is not None and any(s.name == "difficulty" for s in rules.option_specs):
            options["difficulty"] = str(difficulty)
        options.update(lobby.more_options(more or ""))
        info = await self.service.create_game(
            guild_xid=interaction.guild_id,
            channel_xid=interaction.channel_id,
            kind=game,
            options=options,
            host_xid=interaction.user.id,
            host_name=interaction.user.display_name,
            ai_seats=ai_players,
            ai_level=ai_level,
            locale=language or public_locale(interaction),
        )
        loc = info.game.locale
        lobby_view = lobby.lobby_view(info, loc, weblinks.board_url(self.bot, info.id))
        assert lobby_view is not None  # a new game is in its lobby
        try:
            callback = await interaction.response.send_message(embed=lobby.lobby_embed(info, loc), view=lobby_view)
        except discord.HTTPException as exc:
            # The lobby message is the answer: Discord refused it (the user saw a failure), so the
            # lobby is taken back as if never opened, and the channel stays free.
            log.info("lobby of game %s not shown (%s): withdrawn", info.id, exc.code)
            await self.service.withdraw(info.id)
            return
        if missing:  # the game can be played here, with parts missing: say which permissions
            await operations.reply(
                interaction, t("error.missing_permissions_warning", locale_of(interaction), permissions=names)
            )
        if clock is not None:  # the game's own time control, once its lobby is there
            await self.bot.app.preferences.update_settings(info.game.guild_xid or 0, {"clock": clock}, game_id=info.id)
        lobby_xid = await operations.original_message_id(interaction, callback)
        if lobby_xid is not None:
            await self.service.set_messages(info.id, lobby_message_xid=lobby_xid)

    @staticmethod
    def _typed_game(interaction: discord.Interaction) -> str | None:
        """The kind of the game typed in the same command, or None while it names no game."""
        try:
            return games.get(str(getattr(interaction.namespace, "game", None))).kind
        except errors.GameError:
            return None

    @staticmethod
    def _named_choices(current: str, named: list[tuple[str, str]]) -> list[app_commands.Choice[str]]:
        """(shown name, value) pairs whose name or value holds what is typed, as at most 25 choices."""
        typed = current.lower()
        return [
            app_commands.Choice(name=limits.cut(name, 100), value=value[:100])
            for name, value in named
            if typed in name.lower() or typed in value.lower()
        ][:25]

    @new.autocomplete("mode")
    async def _mode_autocomplete(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        """The typed game's modes, each named in the user's language (the value stays the mode's id)."""
        kind = self._typed_game(interaction)
        if kind is None or not games.rules(kind).option_specs:
            return []
        mode, loc = games.rules(kind).option_specs[0], locale_of(interaction)
        return self._named_choices(current, [(games.option_value(kind, mode.name, c, loc), c) for c in mode.choices])

    @new.autocomplete("more")
    async def _more_autocomplete(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        """The typed game's other options, each value offered as name=value after what is typed so far, with
        the option and value named in the user's language beside it."""
        kind = self._typed_game(interaction)
        if kind is None:
            return []
        head, _, last = current.rpartition(" ")
        prefix = f"{head} " if head else ""
        loc = locale_of(interaction)
        # Matched on the name=value being typed only: the shown name also holds the text typed before it.
        named = [
            (
                f"{prefix}{spec.name}={choice} ({games.option_name(kind, spec.name, loc)}: "
                f"{games.option_value(kind, spec.name, choice, loc)})",
                f"{prefix}{spec.name}={choice}",
            )
            for spec in games.rules(kind).option_specs[1:]
            if spec.name != "difficulty" and spec.shown
            for choice in spec.choices
            if last.lower() in f"{spec.name}={choice}".lower()
        ]
        return self._named_choices("", named)

    @new.autocomplete("ai_level")
    async def _level_autocomplete(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        """The typed game's levels, each named in the user's language (the value stays the level's id)."""
        kind = self._typed_game(interaction)
        if kind is None:
            return []
        loc = locale_of(interaction)
        return self._named_choices(
            current, [(games.ai_level_name(level, loc), level) for level in games.rules(kind).ai_levels]
        )

    @game.command(name="join")
    async def join(self, interaction: discord.Interaction) -> None:
        """Take a seat in this channel's game lobby."""
        await lobby.door(self.bot, interaction, "join")

    @game.command(name="leave")
    async def leave(self, interaction: discord.Interaction) -> None:
        """Give up your seat in this channel's lobby (before the game starts)."""
        await lobby.door(self.bot, interaction, "leave")

    @game.command(name="start")
    async def start(self, interaction: discord.Interaction) -> None:
        """Start this channel's game (host only)."""
        await lobby.door(self.bot, interaction, "start")

    @game.command(name="status")
    async def status(self, interaction: discord.Interaction) -> None:
        """Show this channel's game: whose turn it is, and the board posted again."""
        info = await self.service.game_in_channel(interaction.channel_id or 0)
        loc = locale_of(interaction)
        if info.game.status == "lobby":
            await operations.reply(interaction, embed=lobby.lobby_embed(info, loc))
            return
        if not await operations.defer(interaction):
            return  # posting the board again records its message: nothing when Discord refused
        problem = None
        if info.game.paused_at is None:
            problem = await self.flow.publish(info.id, None, info.game.locale, repost=True)
        # "posted again" only when the board really was posted again
        posted = info.game.paused_at is None and problem is None
        text = t("status.reposted" if posted else "status.not_reposted", loc, game=info.id)
        if problem is not None:
            text += "\n" + t(problem, loc)
        shown = await self.announcer.status_embed(await self.service.info(info.id), loc)
        await operations.reply(interaction, text, embed=shown)

    @game.command(name="list")
    async def list_(self, interaction: discord.Interaction) -> None:
        """List the games being set up or played on this server."""
        loc = locale_of(interaction)
        games = await self.service.list_games(interaction.guild_id or 0, limit=LIST_LIMIT)
        if not games:
            await operations.reply(interaction, t("list.none", loc))
            return
        lines = [
            t(
                "list.line",
                loc,
                game=g.id,
                title=game_title(g.game.kind, loc),
                channel=f"<#{g.game.channel_xid}>",
                status=self.status_word(g, loc),
                players=", ".join(shown_name(s.name) for s in g.seats),
            )
            for g in games
        ]
        embed = discord.Embed(
            title=t("list.title", loc), description=limits.lines_text(lines, loc), colour=EMBED_COLOUR
        )
        await operations.reply(interaction, embed=embed)

    @staticmethod
    def status_word(info: GameInfo, loc: str) -> str:
        """A game's state in a word (a game whose channel was deleted is paused)."""
        if info.game.paused_at is not None and info.game.status in ("lobby", "active"):
            return t("status.paused", loc)
        return t(f"status.{info.game.status}", loc)

    @game.command(name="abandon")
    @app_commands.describe(game="The game's number (default: this channel's game), e.g. one whose channel is gone")
    async def abandon(
        self, interaction: discord.Interaction, game: app_commands.Range[int, 1, None] | None = None
    ) -> None:
        """Stop this channel's game for good (host, or someone who can manage the server)."""
        if not await operations.defer(interaction, ephemeral=False):
            return
        if game is not None:
            info = await self.service.info(game)
            if info.game.guild_xid != interaction.guild_id:
                raise errors.UnknownGame(game=game)
        else:
            info = await self.service.game_in_channel(interaction.channel_id or 0)
        perms = interaction.permissions
        info = await self.service.abandon(info.id, interaction.user.id, is_admin=bool(perms and perms.manage_guild))
        if await operations.reply(
            interaction,
            t("game.abandoned", info.game.locale, game=info.id, user=mention(interaction.user.id)),
            ephemeral=False,
        ):
            await self._keep_line(interaction, info.id)
        if info.game.paused_at is not None:
            return  # its channel is gone: nothing there to tidy up
        await self.announcer.strip_controls(info)
        await lobby.refresh_lobby(self.bot, info, info.game.locale)
        if info.game.started_at is not None:
            await self.announcer.update_status(info, info.game.locale)

    @game.command(name="resign")
    async def resign(self, interaction: discord.Interaction) -> None:
        """Give up your seat in this channel's game; the AI plays it on."""
        if not await operations.defer(interaction, ephemeral=False):
            return
        info = await self.service.game_in_channel(interaction.channel_id or 0)
        info = await self.service.resign(info.id, interaction.user.id)
        loc = info.game.locale
        if await operations.reply(
            interaction, t("game.resigned", loc, user=mention(interaction.user.id)), ephemeral=False
        ):
            await self._keep_line(interaction, info.id)
        await self.flow.publish(info.id, None, loc)

    async def _keep_line(self, interaction: discord.Interaction, game_id: int) -> None:
        """The public line just sent (the answer that replaced "thinking...") names the player: keep its
        id, so a forget-me turns it into a note."""
        await self.bot.app.erasure.record_post(game_id, "line", await operations.original_message_id(interaction))

    @game.command(name="forget-me")
    @app_commands.describe(confirm="Yes: forget me everywhere in this bot (cannot be undone)")
    async def forget_me(self, interaction: discord.Interaction, confirm: bool) -> None:
        """Delete what the bot keeps about you: your seats go to the AI under a neutral name."""
        loc = locale_of(interaction)
        if not confirm:
            await operations.reply(interaction, t("privacy.not_confirmed", loc))
            return
        if not await operations.defer(interaction):
            return  # Discord refused: the user saw a failure, so nothing is forgotten
        active = await self.service.games_of(interaction.user.id)
        forgotten = await self.bot.app.forget(interaction.user.id)  # and plans the edits of our posts
        await operations.reply(interaction, forgotten_text(forgotten, loc))
        for game in active:  # the AI now plays those seats: let it move where it is awaited
            info = await self.service.info(game.id)
            if info.awaited_ai():
                self.flow.schedule_ai(info.id)

    @game.command(name="rules")
    @app_commands.describe(game="Which game", topic="What to read about (empty: how a turn works)")
    @app_commands.choices(game=game_choices())
    async def rules(self, interaction: discord.Interaction, game: str, topic: str | None = None) -> None:
        """Read a game's rules, in short pages."""
        loc = locale_of(interaction)
        kind = games.get(game).kind
        topics = games.get(kind).rules_topics
        chosen = topic or topics[0]
        if chosen not in topics:
            titles = ", ".join(t(f"{kind}.rules.{topic}.title", loc) for topic in topics)
            await operations.reply(
                interaction,
                t("rules.no_topic", loc, game=game_title(kind, loc), topic=limits.quote(chosen), topics=titles),
            )
            return
        embed, view = rulebook.rules_page(kind, chosen, 1, loc)
        await operations.reply(interaction, embed=embed, view=view)

    @rules.autocomplete("topic")
    async def _topic_autocomplete(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        loc = locale_of(interaction)
        try:
            kind = games.get(str(getattr(interaction.namespace, "game", ""))).kind
        except errors.GameError:
            return []
        wanted = current.lower()
        titles = {
            topic: cut(t(f"{kind}.rules.{topic}.title", loc), CHOICE_NAME) for topic in games.get(kind).rules_topics
        }
        return [
            app_commands.Choice(name=title, value=topic)
            for topic, title in titles.items()
            if wanted in topic or wanted in title.lower()
        ][:25]

    @game.command(name="tiles")
    @app_commands.describe(game="Which game")
    @app_commands.choices(game=game_choices())
    async def tiles(self, interaction: discord.Interaction, game: str) -> None:
        """Every building of a game, as the pictures draw it."""
        loc = locale_of(interaction)
        renderer = pictures.get(game)
        if renderer is None:
            await operations.reply(interaction, t("rules.no_tiles", loc, game=game_title(game, loc)))
            return
        await operations.defer(interaction)
        image = await asyncio.to_thread(renderer.render_tiles, locale=loc)
        await operations.reply(interaction, file_png=image)

    async def run_timers(self) -> int:
        """Apply every due timer move; returns how many fired. Called every second."""
        return await self.flow.run_timers()

    @tasks.loop(seconds=1.0)
    async def timer_loop(self) -> None:
        try:
            await self.run_timers()
        except Exception:
            log.exception("timer loop failed")

    @property
    def announcer(self) -> DiscordAnnouncer:
        return announcer(self.bot)

    async def cog_load(self) -> None:
        self.timer_loop.start()

    async def cog_unload(self) -> None:
        self.timer_loop.cancel()
        self.flow.close()
