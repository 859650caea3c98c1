"""The /game commands (lobby, status, list, resign, abandon), the component router, and Discord's
:class:`~bot.turnflow.Announcer`.

Thin on purpose: each handler translates an interaction into one service call and the service's
answer into a reply; what happens after a move (AI seats, timers, settling, resuming) is
:class:`bot.turnflow.TurnFlow`'s, shared with the terminal. Components are routed by custom_id (see
:mod:`cogs.ids`) in one listener, so buttons keep working after a restart and a forged or stale one
gets a sentence.
"""

from __future__ import annotations

import asyncio
import dataclasses
import logging
import re
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.ext import commands, tasks

from bot import errors, games
from bot.i18n import catalogue, normalise_locale, t
from bot.service import GameInfo, MoveOutcome, Service, Snapshot, choices_token
from bot.turnflow import TurnFlow
from cogs import ids, limits, operations, presenters
from cogs.limits import CHOICE_NAME, cut
from render import story as story_pictures

if TYPE_CHECKING:
    from bot.app import CityBot

log = logging.getLogger(__name__)

LIST_LIMIT = 100
"""Games /game list reads at most (it shows as many as fit, then "and N more")."""
EMBED_COLOUR = discord.Colour(0x0072B2)  # Okabe-Ito blue, shared with the pictures


def locale_of(interaction: discord.Interaction) -> str:
    return normalise_locale(interaction.locale)


def public_locale(interaction: discord.Interaction | None) -> str:
    """The server's preferred language where the bot speaks it, else English."""
    if interaction is not None and interaction.guild_locale is not None:
        loc = normalise_locale(interaction.guild_locale)
        return loc if loc in LANGUAGES else "en"
    return "en"


def game_title(kind: str, locale: str = "en") -> str:
    rules = games.rules(kind)
    return t(rules.title_key or kind, locale)


def mention(user_xid: int) -> str:
    return f"<@{user_xid}>"


def seat_label(info: GameInfo, seat: int) -> str:
    row = info.seats[seat]
    if row.user_xid is not None and not row.is_ai:
        return mention(row.user_xid)
    return row.name


def game_choices() -> list[app_commands.Choice[str]]:
    return [app_commands.Choice(name=game_title(kind), value=kind) for kind in games.available()]


@dataclass
class Origin:
    """The click that made a move: who to answer privately, in their language."""

    interaction: discord.Interaction
    locale: str
    ephemeral: bool
    """The click came from a private (ephemeral) menu."""
    acknowledging: asyncio.Task[None] | None = None
    """The acknowledgement, started as soon as the move was committed (:meth:`GameCog.move_click`)."""


def more_options(text: str) -> dict[str, str]:
    """``"party_minutes=30, party_goals=on"`` -> the options it names (the rules check names and values)."""
    out: dict[str, str] = {}
    for part in text.replace(",", " ").split():
        name, sep, value = part.partition("=")
        if not sep or not name or not value:
            raise errors.IllegalMove("error.bad_more_option", text=limits.quote(part))
        out[name.strip().lower()] = value.strip()
    return out


RECAP_GIF_LIMIT = 8 * 1024 * 1024
"""The largest recap animation posted (Discord's upload limit for servers without boosts is higher)."""
RULES_PREFIX = "rules"
RULES_ID = re.compile(r"rules:([a-z]{1,20}):([a-z_]{1,20}):([0-9]{1,3})")


def rule_pages(kind: str, topic: str) -> int:
    """How many pages a rules topic has (in English, which every language follows)."""
    english = catalogue("en")
    count = 0
    while f"{kind}.rules.{topic}.{count + 1}" in english:
        count += 1
    return count


LANGUAGES = {"en": "English", "hu": "Magyar", "es": "Español", "ru": "Русский", "pl": "Polski"}
"""The languages the bot speaks, each by its own name (the game's language at /game new)."""


def language_choices() -> list[app_commands.Choice[str]]:
    return [app_commands.Choice(name=name, value=code) for code, name in LANGUAGES.items()]


class GameCog(commands.Cog):
    """Play board games in this channel: start a lobby, join, and take your turns."""

    game = app_commands.Group(name="game", description="Start, join and manage board games",
                              guild_only=True)

    def __init__(self, bot: CityBot) -> None:
        self.bot = bot
        self.service: Service = bot.service
        self.flow: TurnFlow = bot.flow
        self.flow.announcer = self  # this cog tells Discord what the turn flow decides

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
    )
    @app_commands.choices(game=game_choices(), language=language_choices())
    async def new(self, interaction: discord.Interaction, game: str, mode: str | None = None,
                  ai_players: app_commands.Range[int, 0, 6] = 0, ai_level: str | None = None,
                  difficulty: app_commands.Range[int, 1, 7] | None = None, language: str | None = None,
                  more: app_commands.Range[str, 0, 200] | None = None) -> None:
        """Open a lobby for a new game in this channel or thread."""
        missing = operations.missing_permissions(interaction.app_permissions,
                                                 isinstance(interaction.channel, discord.Thread))
        names = ", ".join(t(f"perm.{name}", locale_of(interaction)) for name in missing)
        if any(name in operations.BLOCKING_PERMISSIONS for name in missing):
            # Without these no turn can be posted here: no lobby.
            await operations.reply(interaction, t("error.missing_permissions", locale_of(interaction),
                                                  permissions=names))
            return
        rules = games.rules(game)
        options: dict[str, Any] = {}
        if mode and rules.option_specs:
            options[rules.option_specs[0].name] = mode
        if difficulty is not None and any(s.name == "difficulty" for s in rules.option_specs):
            options["difficulty"] = str(difficulty)
        options.update(more_options(more or ""))
        info = await self.service.create_game(
            guild_xid=interaction.guild_id, channel_xid=interaction.channel_id, kind=game,
            options=options, host_xid=interaction.user.id, host_name=interaction.user.display_name,
            ai_seats=ai_players, ai_level=ai_level, locale=language or public_locale(interaction))
        loc = info.game.locale
        lobby_view = self.lobby_view(info, loc)
        assert lobby_view is not None  # a new game is in its lobby
        callback = await interaction.response.send_message(embed=self.lobby_embed(info, loc), view=lobby_view)
        if missing:  # the game can be played here, with parts missing: say which permissions
            await operations.reply(interaction, t("error.missing_permissions_warning", locale_of(interaction),
                                                  permissions=names))
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
        return [app_commands.Choice(name=limits.cut(name, 100), value=value[:100]) for name, value in named
                if typed in name.lower() or typed in value.lower()][:25]

    @new.autocomplete("mode")
    async def _mode_autocomplete(self, interaction: discord.Interaction,
                                 current: str) -> list[app_commands.Choice[str]]:
        """The typed game's modes, each named in the user's language (the value stays the mode's id)."""
        kind = self._typed_game(interaction)
        if kind is None or not games.rules(kind).option_specs:
            return []
        mode, loc = games.rules(kind).option_specs[0], locale_of(interaction)
        return self._named_choices(current, [(games.option_value(kind, mode.name, c, loc), c) for c in mode.choices])

    @new.autocomplete("more")
    async def _more_autocomplete(self, interaction: discord.Interaction,
                                 current: str) -> list[app_commands.Choice[str]]:
        """The typed game's other options, each value offered as name=value after what is typed so far, with
        the option and value named in the user's language beside it."""
        kind = self._typed_game(interaction)
        if kind is None:
            return []
        head, _, last = current.rpartition(" ")
        prefix = f"{head} " if head else ""
        loc = locale_of(interaction)
        # Matched on the name=value being typed only: the shown name also holds the text typed before it.
        named = [(f"{prefix}{spec.name}={choice} ({games.option_name(kind, spec.name, loc)}: "
                  f"{games.option_value(kind, spec.name, choice, loc)})", f"{prefix}{spec.name}={choice}")
                 for spec in games.rules(kind).option_specs[1:] if spec.name != "difficulty" and spec.shown
                 for choice in spec.choices if last.lower() in f"{spec.name}={choice}".lower()]
        return self._named_choices("", named)

    @new.autocomplete("ai_level")
    async def _level_autocomplete(self, interaction: discord.Interaction,
                                  current: str) -> list[app_commands.Choice[str]]:
        """The typed game's levels, each named in the user's language (the value stays the level's id)."""
        kind = self._typed_game(interaction)
        if kind is None:
            return []
        loc = locale_of(interaction)
        return self._named_choices(current, [(games.ai_level_name(level, loc), level)
                                             for level in games.rules(kind).ai_levels])

    @game.command(name="join")
    async def join(self, interaction: discord.Interaction) -> None:
        """Take a seat in this channel's game lobby."""
        info = await self.service.game_in_channel(interaction.channel_id or 0)
        info = await self.service.join(info.id, interaction.user.id, interaction.user.display_name)
        await operations.reply(interaction, t("lobby.joined", locale_of(interaction), game=info.id))
        await self.refresh_lobby(info, info.game.locale)

    @game.command(name="leave")
    async def leave(self, interaction: discord.Interaction) -> None:
        """Give up your seat in this channel's lobby (before the game starts)."""
        info = await self.service.game_in_channel(interaction.channel_id or 0)
        info = await self.service.leave(info.id, interaction.user.id)
        await operations.reply(interaction, t("lobby.left", locale_of(interaction), game=info.id))
        await self.refresh_lobby(info, info.game.locale)

    @game.command(name="start")
    async def start(self, interaction: discord.Interaction) -> None:
        """Start this channel's game (host only)."""
        info = await self.service.game_in_channel(interaction.channel_id or 0)
        await operations.defer(interaction)
        info = await self.service.start(info.id, interaction.user.id)
        await operations.reply(interaction, t("lobby.started", locale_of(interaction), game=info.id))
        await self.refresh_lobby(info, info.game.locale)
        problem = await self.publish(info.id, None, info.game.locale)
        if problem is not None:
            await operations.reply(interaction, t(problem, locale_of(interaction)))

    @game.command(name="status")
    async def status(self, interaction: discord.Interaction) -> None:
        """Show this channel's game: whose turn it is, and the board posted again."""
        info = await self.service.game_in_channel(interaction.channel_id or 0)
        loc = locale_of(interaction)
        if info.game.status == "lobby":
            await operations.reply(interaction, embed=self.lobby_embed(info, loc))
            return
        await operations.defer(interaction)
        problem = None
        if info.game.paused_at is None:
            problem = await self.publish(info.id, None, info.game.locale, repost=True)
        # "posted again" only when the board really was posted again
        posted = info.game.paused_at is None and problem is None
        text = t("status.reposted" if posted else "status.not_reposted", loc, game=info.id)
        if problem is not None:
            text += "\n" + t(problem, loc)
        await operations.reply(interaction, text, embed=await self.status_embed(await self.service.info(info.id), loc))

    @game.command(name="list")
    async def list_(self, interaction: discord.Interaction) -> None:
        """List the games being set up or played on this server."""
        loc = locale_of(interaction)
        games = await self.service.list_games(interaction.guild_id or 0, limit=LIST_LIMIT)
        if not games:
            await operations.reply(interaction, t("list.none", loc))
            return
        lines = [t("list.line", loc, game=g.id, title=game_title(g.game.kind, loc),
                   channel=f"<#{g.game.channel_xid}>", status=self.status_word(g, loc),
                   players=", ".join(s.name for s in g.seats)) for g in games]
        embed = discord.Embed(title=t("list.title", loc), description=limits.lines_text(lines, loc),
                              colour=EMBED_COLOUR)
        await operations.reply(interaction, embed=embed)

    @staticmethod
    def status_word(info: GameInfo, loc: str) -> str:
        """A game's state in a word (a game whose channel was deleted is paused)."""
        if info.game.paused_at is not None and info.game.status in ("lobby", "active"):
            return t("status.paused", loc)
        return t(f"status.{info.game.status}", loc)

    @game.command(name="abandon")
    @app_commands.describe(game="The game's number (default: this channel's game), e.g. one whose channel is gone")
    async def abandon(self, interaction: discord.Interaction,
                      game: app_commands.Range[int, 1, None] | None = None) -> None:
        """Stop this channel's game for good (host, or someone who can manage the server)."""
        if game is not None:
            info = await self.service.info(game)
            if info.game.guild_xid != interaction.guild_id:
                raise errors.UnknownGame(game=game)
        else:
            info = await self.service.game_in_channel(interaction.channel_id or 0)
        perms = interaction.permissions
        info = await self.service.abandon(info.id, interaction.user.id,
                                          is_admin=bool(perms and perms.manage_guild))
        await operations.reply(interaction, t("game.abandoned", info.game.locale, game=info.id,
                                              user=mention(interaction.user.id)), ephemeral=False)
        if info.game.paused_at is not None:
            return  # its channel is gone: nothing there to tidy up
        await self.strip_controls(info)
        await self.refresh_lobby(info, info.game.locale)
        if info.game.started_at is not None:
            await self.update_status(info, info.game.locale)

    @game.command(name="resign")
    async def resign(self, interaction: discord.Interaction) -> None:
        """Give up your seat in this channel's game; the AI plays it on."""
        info = await self.service.game_in_channel(interaction.channel_id or 0)
        info = await self.service.resign(info.id, interaction.user.id)
        loc = info.game.locale
        await operations.reply(interaction, t("game.resigned", loc, user=mention(interaction.user.id)),
                               ephemeral=False)
        await self.publish(info.id, None, loc)

    @game.command(name="forget-me")
    @app_commands.describe(confirm="Yes: forget me everywhere in this bot (cannot be undone)")
    async def forget_me(self, interaction: discord.Interaction, confirm: bool) -> None:
        """Delete what the bot keeps about you: your seats go to the AI under a neutral name."""
        loc = locale_of(interaction)
        if not confirm:
            await operations.reply(interaction, t("privacy.not_confirmed", loc))
            return
        await operations.defer(interaction)
        active = await self.service.games_of(interaction.user.id)
        from cogs.community.erasure import forgotten_text  # (cogs.community imports this module)
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
            await operations.reply(interaction, t("rules.no_topic", loc, game=game_title(kind, loc),
                                                  topic=limits.quote(chosen), topics=titles))
            return
        embed, view = self.rules_page(kind, chosen, 1, loc)
        await operations.reply(interaction, embed=embed, view=view)

    @rules.autocomplete("topic")
    async def _topic_autocomplete(self, interaction: discord.Interaction,
                                  current: str) -> list[app_commands.Choice[str]]:
        loc = locale_of(interaction)
        try:
            kind = games.get(str(getattr(interaction.namespace, "game", ""))).kind
        except errors.GameError:
            return []
        wanted = current.lower()
        titles = {topic: cut(t(f"{kind}.rules.{topic}.title", loc), CHOICE_NAME)
                  for topic in games.get(kind).rules_topics}
        return [app_commands.Choice(name=title, value=topic) for topic, title in titles.items()
                if wanted in topic or wanted in title.lower()][:25]

    @game.command(name="tiles")
    @app_commands.describe(game="Which game")
    @app_commands.choices(game=game_choices())
    async def tiles(self, interaction: discord.Interaction, game: str) -> None:
        """Every building of a game, as the pictures draw it."""
        loc = locale_of(interaction)
        renderer = games.get(game).renderer
        if renderer is None:
            await operations.reply(interaction, t("rules.no_tiles", loc, game=game_title(game, loc)))
            return
        await operations.defer(interaction)
        image = await asyncio.to_thread(renderer.render_tiles, locale=loc)
        await operations.reply(interaction, file_png=image)

    def rules_page(self, kind: str, topic: str, page: int, loc: str) -> tuple[discord.Embed, discord.ui.View]:
        """One page of a rules topic, with Previous / Next buttons (stateless: they work after a restart)."""
        pages = rule_pages(kind, topic)
        page = min(max(page, 1), max(pages, 1))
        embed = discord.Embed(title=t("rules.title", loc, game=game_title(kind, loc),
                                      topic=t(f"{kind}.rules.{topic}.title", loc)),
                              description=t(f"{kind}.rules.{topic}.{page}", loc), colour=EMBED_COLOUR)
        embed.set_footer(text=t("rules.page", loc, page=page, pages=pages))
        view = discord.ui.View(timeout=None)
        view.add_item(discord.ui.Button(label=t("rules.button.previous", loc), disabled=page <= 1,
                                        custom_id=f"{RULES_PREFIX}:{kind}:{topic}:{page - 1}"))
        view.add_item(discord.ui.Button(label=t("rules.button.next", loc), disabled=page >= pages,
                                        custom_id=f"{RULES_PREFIX}:{kind}:{topic}:{page + 1}"))
        view.stop()
        return embed, view

    async def rules_click(self, interaction: discord.Interaction, custom_id: str, data: dict[str, Any]) -> None:
        """Previous / Next on a rules page: the same message shows the other page."""
        match = RULES_ID.fullmatch(custom_id)
        if match is None:
            raise ids.ForgedId("rules")
        kind, topic, page = match.group(1), match.group(2), int(match.group(3))
        if kind not in games.available() or topic not in games.get(kind).rules_topics:
            raise ids.ForgedId("rules")
        embed, view = self.rules_page(kind, topic, page, locale_of(interaction))
        try:
            await interaction.response.edit_message(embed=embed, view=view)
        except discord.HTTPException as exc:
            log.info("rules page not shown: %s", exc.code)

    # =========================================================================================
    # Lobby message
    # =========================================================================================
    def lobby_embed(self, info: GameInfo, loc: str) -> discord.Embed:
        g = info.game
        low, high = games.rules(g.kind).seat_range(g.options)
        embed = discord.Embed(
            title=t("lobby.title", loc, title=game_title(g.kind, loc), game=g.id),
            description=t(f"lobby.state.{g.status}", loc, low=low, high=high),
            colour=EMBED_COLOUR)
        players = "\n".join(
            f"{s.seat + 1}. {s.name}" + (f" ({t('lobby.host', loc)})" if s.user_xid == g.host_xid else "")
            for s in info.seats) or t("lobby.empty", loc)
        embed.add_field(name=t("lobby.players", loc, n=len(info.seats), high=high), value=players,
                        inline=True)
        if g.options:
            embed.add_field(name=t("lobby.options", loc),
                            value="\n".join(f"{k}: {v}" for k, v in games.shown_options(g.kind, g.options, loc)) or "-",
                            inline=True)
        return embed

    def lobby_view(self, info: GameInfo, loc: str) -> discord.ui.View | None:
        if info.game.status != "lobby":
            return None
        gid = info.id
        view = discord.ui.View(timeout=None)
        view.add_item(discord.ui.Button(label=t("lobby.button.join", loc), custom_id=ids.lobby(gid, "join"),
                                        style=discord.ButtonStyle.success))
        view.add_item(discord.ui.Button(label=t("lobby.button.leave", loc),
                                        custom_id=ids.lobby(gid, "leave")))
        if games.rules(info.game.kind).ai_levels:
            view.add_item(discord.ui.Button(label=t("lobby.button.ai", loc), custom_id=ids.lobby(gid, "ai")))
        view.add_item(discord.ui.Button(label=t("lobby.button.start", loc),
                                        custom_id=ids.lobby(gid, "start"),
                                        style=discord.ButtonStyle.primary))
        view.stop()
        return view

    async def refresh_lobby(self, info: GameInfo, loc: str) -> None:
        """Keep the lobby message up to date (buttons removed once the game started or ended)."""
        g = info.game
        if g.lobby_message_xid is None or g.channel_xid is None:
            return
        await operations.edit(self.bot, g.channel_xid, g.lobby_message_xid,
                              embed=self.lobby_embed(info, loc), view=self.lobby_view(info, loc))

    async def lobby_click(self, interaction: discord.Interaction, parsed: ids.ParsedId) -> None:
        gid, action = parsed.game_id, parsed.action
        user = interaction.user
        loc = locale_of(interaction)
        if action == "join":
            info = await self.service.join(gid, user.id, user.display_name)
        elif action == "leave":
            info = await self.service.leave(gid, user.id)
        elif action == "ai":
            info = await self.service.add_ai(gid, user.id)
        else:
            await operations.defer(interaction, update=True)  # starting renders the first picture
            info = await self.service.start(gid, user.id)
        ploc = info.game.locale
        await operations.edit_original(interaction, embed=self.lobby_embed(info, ploc),
                                       view=self.lobby_view(info, ploc))
        if action == "start":
            problem = await self.publish(info.id, None, ploc)
            if problem is not None:
                await operations.reply(interaction, t(problem, loc))

    # =========================================================================================
    # Turns
    # =========================================================================================
    async def status_embed(self, info: GameInfo, loc: str, snap: Snapshot | None = None) -> discord.Embed:
        g = info.game
        presenter = presenters.get(g.kind)
        embed = discord.Embed(title=t("status.title", loc, title=game_title(g.kind, loc), game=g.id),
                              colour=EMBED_COLOUR)
        lines: list[str] = []
        if g.status == "active":
            if snap is None or snap.version != g.version:
                snap = await self.service.snapshot_of(info)
            lines += presenter.status_lines(snap.view(None), loc, [s.name for s in info.seats])
            waiting = ", ".join(info.name(s) for s in sorted(info.awaiting))
            lines.append(t("status.waiting", loc, players=waiting or "-"))
        else:
            lines.append(t(f"status.{g.status}", loc))
        if g.result:
            for s in sorted(g.result["seats"], key=lambda r: r["rank"]):
                lines.append(t("status.rank", loc, rank=s["rank"], player=info.name(s["seat"]),
                               total=s["total"]))
        embed.description = "\n".join(lines)
        return embed

    async def publish(self, game_id: int, outcome: MoveOutcome | None, loc: str | None = None, *,
                      repost: bool = False) -> str | None:
        """Post the turn message through the turn flow (one publish at a time per game; an awaited AI
        plays afterwards). Returns None, or the catalogue id of what went wrong posting it (the move
        stays committed; ``/game status`` posts the board again)."""
        return await self.flow.publish(game_id, outcome, loc, repost=repost)

    # -- the Announcer --------------------------------------------------------------------------
    async def announce(self, game_id: int, outcome: MoveOutcome | None, loc: str, *,
                       repost: bool = False) -> str | None:
        """The turn message: picture, summary, mentions, and the only live controls."""
        info, snap = await self.current(game_id, outcome.snapshot if outcome is not None else None)
        g = info.game
        if g.channel_xid is None or g.status in ("lobby", "abandoned"):
            return None
        presenter = presenters.get(g.kind)
        public_view = snap.view(None)
        names = [s.name for s in info.seats]
        lines: list[str] = []
        if outcome is not None:
            key, params = outcome.summary
            lines += presenter.summary_lines(key, params, public_view, loc, names)
        image: bytes | None = None
        view_ui: discord.ui.View | None = None
        mention_ids: list[int] = []
        followers: list[int] = []
        if g.status == "finished":
            lines.append(self.result_text(info, loc))
            image = await asyncio.to_thread(presenter.render_end, public_view, names, loc)
            mention_ids = [s.user_xid for s in info.seats if s.user_xid is not None]
            followers = await self.extra_mentions(info, True, mention_ids)
        else:
            acting = outcome.seat if outcome is not None and outcome.seat >= 0 else None
            image = await asyncio.to_thread(presenter.render_turn, public_view, acting, names, loc)
            humans = info.awaited_users()
            if humans:
                mention_ids = [] if repost else humans
                pinged = " ".join(mention(u) for u in humans)
                lines.append(t("turn.your_turn" if len(humans) == 1 else "turn.your_turns", loc,
                               players=pinged))
                view_ui = await self.turn_controls(snap, presenter, humans, loc)
            elif info.awaited_ai():
                lines.append(t("turn.ai_thinking", loc,
                               players=", ".join(info.name(s) for s in info.awaited_ai())))
            if not repost:
                followers = await self.extra_mentions(info, False, mention_ids)
        content = "\n".join(lines) or t("turn.board", loc, game=g.id)
        # A turn's posts have their own nonces: told again after a restart (or by another process that
        # took the game over), Discord answers with the messages already made instead of second ones.
        nonce = None if repost else f"turn{g.id}v{outcome.version if outcome is not None else g.version}"
        message_xid, problem = await operations.post(
            self.bot, g.channel_xid, content, file_png=image, view=view_ui,
            mentions=operations.mentions_of(mention_ids[:limits.MENTION_IDS]), locale=loc, nonce=nonce)
        if message_xid is not None:
            old = g.turn_message_xid
            await self.service.set_messages(game_id, turn_message_xid=message_xid)
            if old is not None and old != message_xid:
                await operations.edit(self.bot, g.channel_xid, old, view=None)
            await self.ping_followers(g.channel_xid, g.id, followers, loc, nonce=nonce)
        if problem is not None and message_xid is None:
            log.warning("game %s: turn message not posted (%s)", game_id, problem)
            if problem == operations.LOST_CHANNEL:
                await self.lost_channel(info)
                return problem
        # The row again (a status message posted meanwhile has its id there); the rest is unchanged.
        info, snap = await self.current(game_id, snap)
        await self.update_status(info, loc, snap)
        if g.status == "finished" and not repost and message_xid is not None:
            await self.post_recap(info, loc)
        return problem

    async def post_recap(self, info: GameInfo, loc: str) -> None:
        """The game's story after its end: the score chart and (unless the server turned it off) the
        animation of the cities growing, rebuilt from the move log off the event loop."""
        g = info.game
        if games.get(g.kind).story is None or g.channel_xid is None:
            return
        gif = g.guild_xid is None or (await self.bot.app.preferences.server_settings(g.guild_xid)).recap_gif
        moves = await self.service.move_log(g.id)
        names = [s.name for s in info.seats]
        try:
            told = await asyncio.to_thread(story_pictures.recap, g.kind, g.options, len(info.seats), g.seed, moves,
                                           names, locale=loc, gif=gif)
        except Exception:
            log.exception("the story of game %s could not be drawn", g.id)
            return
        files = [("story.png", told.chart)]
        if told.gif is not None and len(told.gif) <= RECAP_GIF_LIMIT:
            files.append(("story.gif", told.gif))
        recap_xid, _ = await operations.post(self.bot, g.channel_xid, t("end.recap", loc, game=g.id),
                                             extra_files=files, locale=loc, nonce=f"story{g.id}")  # still one
        await self.bot.app.erasure.record_post(g.id, "recap", recap_xid)  # a forget-me redraws it

    async def lost_channel(self, info: GameInfo) -> None:
        """The game's channel or thread was deleted (Discord 10003): pause the game and tell its
        players by DM where they accept DMs."""
        paused = await self.service.pause(info.id)
        if paused is None:
            return
        log.warning("game %s paused: its channel %s is gone", info.id, info.game.channel_xid)
        loc = info.game.locale
        text = t("game.paused_dm", loc, game=info.id, title=game_title(info.game.kind, loc))
        for user in dict.fromkeys(s.user_xid for s in info.seats if s.user_xid is not None and not s.is_ai):
            await operations.dm(self.bot, user, text)

    async def ping_followers(self, channel_xid: int, game_id: int, followers: list[int], loc: str, *,
                             nonce: str | None = None) -> None:
        """Followers are pinged in their own messages after the turn message (never in its mention
        list): at most :data:`limits.FOLLOWER_PINGS`, each message within Discord's limits; the rest
        are counted. With the turn's ``nonce``, each message has its own derived from it."""
        if not followers:
            return
        pinged = followers[:limits.FOLLOWER_PINGS]
        more = t("turn.followers_more", loc, n=len(followers) - len(pinged)) if len(followers) > len(pinged) else ""
        chunks = limits.mention_chunks(pinged, prefix=t("turn.followers", loc, users="").rstrip(),
                                       limit=limits.CONTENT - len(more) - 1)
        for i, (text, ids_) in enumerate(chunks):
            if i == len(chunks) - 1 and more:
                text += "\n" + more
            await operations.post(self.bot, channel_xid, text, mentions=operations.mentions_of(ids_), locale=loc,
                                  nonce=None if nonce is None else f"{nonce}f{i}")

    async def extra_mentions(self, info: GameInfo, finished: bool, mention_ids: list[int]) -> list[int]:
        """Followers and others the community features want pinged (not already in ``mention_ids``)."""
        extra: list[int] = []
        for provider in self.bot.mention_providers:
            try:
                extra += [u for u in await provider(info, finished) if u not in mention_ids]
            except Exception:
                log.exception("mention provider failed")
        return list(dict.fromkeys(extra))

    async def turn_controls(self, snap: Snapshot, presenter: presenters.Presenter[Any], humans: list[int],
                            loc: str) -> discord.ui.View:
        info = snap.info
        if presenter.controls_on_turn_message(snap.view(None)) and len(humans) == 1:
            seat = info.seat_of(humans[0])
            assert seat is not None
            moves = games.rules(info.game.kind).legal_moves(snap.state, seat.seat)
            return presenter.controls(info.id, snap.version, choices_token(moves), moves,
                                      snap.view(seat.seat), loc)
        view = discord.ui.View(timeout=None)
        view.add_item(discord.ui.Button(label=t("turn.button.open", loc), style=discord.ButtonStyle.primary,
                                        custom_id=ids.open_(info.id, snap.version)))
        view.stop()
        return view

    def result_text(self, info: GameInfo, loc: str) -> str:
        return "\n".join(self.flow.result_lines(info, loc, lambda seat: seat_label(info, seat)))

    async def update_status(self, info: GameInfo, loc: str, snap: Snapshot | None = None) -> None:
        """Edit the game's status message in place (post it the first time); ``snap``: the game's
        current snapshot, when the caller has it."""
        g = info.game
        if g.channel_xid is None:
            return
        embed = await self.status_embed(info, loc, snap)
        if g.status_message_xid is not None:
            outcome = await operations.edit_message(self.bot, g.channel_xid, g.status_message_xid, embed=embed)
            if outcome != operations.GONE:
                return  # edited, or a passing problem: the next update edits it again (no duplicate)
        message_xid, problem = await operations.post(self.bot, g.channel_xid, "", embed=embed)
        if message_xid is not None:
            await self.service.set_messages(g.id, status_message_xid=message_xid)
        elif problem == operations.LOST_CHANNEL:
            await self.lost_channel(info)

    async def strip_controls(self, info: GameInfo) -> None:
        g = info.game
        if g.channel_xid is not None and g.turn_message_xid is not None:
            await operations.edit(self.bot, g.channel_xid, g.turn_message_xid, view=None)

    # =========================================================================================
    # Component clicks
    # =========================================================================================
    @commands.Cog.listener()
    async def on_interaction(self, interaction: discord.Interaction) -> None:
        if interaction.type is not discord.InteractionType.component:
            return
        data: dict[str, Any] = dict(interaction.data or {})
        loc = locale_of(interaction)
        custom_id = str(data.get("custom_id", ""))
        route = self.bot.component_routes.get(custom_id.partition(":")[0])
        try:
            if route is not None:
                await route(interaction, custom_id, data)
                return
            parsed = ids.parse(custom_id)
            if parsed.kind == "lobby":
                await self.lobby_click(interaction, parsed)
            elif parsed.kind == "open":
                await self.open_click(interaction, parsed)
            elif parsed.kind == "mv":
                assert parsed.move is not None
                await self.move_click(interaction, parsed, parsed.move)
            elif parsed.kind == "sel":
                values = data.get("values") or []
                if len(values) != 1:
                    raise ids.ForgedId("select")
                await self.move_click(interaction, parsed, ids.parse_move_value(str(values[0])))
        except ids.ForgedId:
            await operations.reply(interaction, t("error.forged", loc))
        except errors.GameError as exc:
            await operations.reply(interaction, limits.refusal(exc, loc))
        except Exception:
            # Only the kind and game of the id: a move's own JSON may name tiles of a secret hand.
            log.exception("component %s failed", ":".join(str(data.get("custom_id", "")).split(":")[:2]))
            await operations.reply(interaction, t("error.internal", loc))

    async def open_click(self, interaction: discord.Interaction, parsed: ids.ParsedId) -> None:
        """Show the clicker their private choices (and hand) in an ephemeral message."""
        loc = locale_of(interaction)
        seat, moves, token, snap = await self.service.private_choices(parsed.game_id, interaction.user.id)
        info = snap.info
        presenter = presenters.get(info.game.kind)
        private = snap.view(seat)
        image = await asyncio.to_thread(presenter.render_turn, private, seat, [s.name for s in info.seats], loc)
        if not moves:
            await operations.reply(interaction, t("play.nothing_now", loc), file_png=image)
            return
        await operations.reply(interaction, presenter.prompt(moves, private, loc), file_png=image,
                               view=presenter.controls(info.id, snap.version, token, moves, private, loc))

    async def move_click(self, interaction: discord.Interaction, parsed: ids.ParsedId,
                         move: dict[str, Any]) -> None:
        loc = locale_of(interaction)
        ephemeral_origin = bool(interaction.message and interaction.message.flags.ephemeral)
        if not await operations.defer(interaction, update=True):
            # Discord refused the first answer (too late, or already answered): the player was shown
            # a failure, so the click must not count.
            log.info("click %s on game %s not played: Discord refused its acknowledgement",
                     interaction.id, parsed.game_id)
            return
        origin = Origin(interaction, loc, ephemeral_origin)

        def committed(outcome: MoveOutcome) -> None:
            # The player hears back once the move is committed, without waiting for the bookkeeping
            # that follows it (reminders, undo): on the load bench, about 70 ms sooner at the median.
            origin.acknowledging = asyncio.ensure_future(self._acknowledge_now(origin, outcome))

        try:
            outcome = await self.service.move(parsed.game_id, interaction.user.id, move,
                                              expected_version=parsed.version, token=parsed.token,
                                              on_committed=committed)
        except errors.StaleAction as exc:
            # An out-of-date menu: a player who may act now gets their current choices (a lost
            # private menu, say); anyone else is told why nothing happened.
            if not await self.send_private_choices(interaction, parsed.game_id, loc,
                                                   intro=t("play.current_choices", loc)):
                await operations.reply(interaction, limits.refusal(exc, loc))
            return
        problem = await self.after_move(outcome, public_locale(interaction), interaction, loc,
                                        ephemeral_origin, origin=origin)
        if problem is not None:
            await operations.reply(interaction, t(problem, loc))

    async def after_move(self, outcome: MoveOutcome, ploc: str | None = None,
                         interaction: discord.Interaction | None = None, loc: str = "en",
                         ephemeral_origin: bool = False, *, origin: Origin | None = None) -> str | None:
        """Hand a move to the turn flow; ``interaction`` is the click that made it (None: nobody's),
        or ``origin`` when the caller already made one. Channel posts speak the game's language
        (``ploc`` is kept for the callers' signature)."""
        if origin is None and interaction is not None:
            origin = Origin(interaction, loc, ephemeral_origin)
        return await self.flow.after_move(outcome, origin)

    async def acknowledge(self, origin: Any, outcome: MoveOutcome) -> None:
        """A move made from a private menu: the menu becomes the move's sentence (already on its way
        when the click started it at the commit)."""
        if origin.acknowledging is not None:
            await origin.acknowledging
            return
        await self._acknowledge_now(origin, outcome)

    async def _acknowledge_now(self, origin: Origin, outcome: MoveOutcome) -> None:
        if origin.ephemeral:
            key, params = outcome.summary
            await operations.edit_original(origin.interaction, content=t(key, origin.locale, **params), view=None,
                                           attachments=[])

    async def next_step(self, origin: Any, game_id: int) -> None:
        await self.send_private_choices(origin.interaction, game_id, origin.locale)

    async def show_status(self, game_id: int, locale: str, outcome: MoveOutcome | None = None) -> None:
        """The status after ``outcome`` reuses its snapshot (only the game's row is read again, for the
        status message's id); without one, or when the game moved on since, the game is read."""
        info, snap = await self.current(game_id, outcome.snapshot if outcome else None)
        await self.update_status(info, locale, snap)

    async def current(self, game_id: int, snap: Snapshot | None) -> tuple[GameInfo, Snapshot]:
        """The game now: its row read again; seats, awaited seats and state from ``snap`` when it is
        still the current version (no other read), else read too."""
        if snap is not None:
            g = await self.service.game(game_id)
            if g.version == snap.version and g.status == snap.info.game.status:
                info = GameInfo(g, snap.info.seats, snap.info.awaiting)
                return info, dataclasses.replace(snap, info=info)
        info = await self.service.info(game_id)
        if info.game.status == "lobby":
            return info, Snapshot(info, 0, None)
        return info, await self.service.snapshot_of(info)

    async def send_private_choices(self, interaction: discord.Interaction, game_id: int, loc: str,
                                   intro: str | None = None) -> bool:
        """The player's current choices in an ephemeral message; False if they have none now."""
        seat, moves, token, snap = await self.service.private_choices(game_id, interaction.user.id)
        if not moves:
            return False
        info = snap.info
        private = snap.view(seat)
        presenter = presenters.get(info.game.kind)
        prompt = presenter.prompt(moves, private, loc)
        await operations.reply(interaction, f"{intro}\n{prompt}" if intro else prompt,
                               view=presenter.controls(info.id, snap.version, token, moves, private, loc))
        return True

    # =========================================================================================
    # Compatibility for the other cogs and tests: the turn flow owns AI seats and timers
    # =========================================================================================
    def schedule_ai(self, game_id: int, loc: str | None = None) -> None:
        self.flow.schedule_ai(game_id)

    async def resume_ai(self) -> None:
        """After a restart: announce what was never told, then let the AI play on (see TurnFlow.resume)."""
        await self.flow.resume()

    async def run_timers(self) -> int:
        """Apply every due timer move; returns how many fired. Called every second."""
        return await self.flow.run_timers()

    @tasks.loop(seconds=1.0)
    async def timer_loop(self) -> None:
        try:
            await self.run_timers()
        except Exception:
            log.exception("timer loop failed")

    async def cog_load(self) -> None:
        from cogs.games import PRESENTERS

        self.bot.component_routes[RULES_PREFIX] = self.rules_click
        for presenter in PRESENTERS.values():
            await presenter.install(self.bot)
        self.timer_loop.start()

    async def cog_unload(self) -> None:
        self.timer_loop.cancel()
        self.flow.close()


async def setup(bot: CityBot) -> None:
    await bot.add_cog(GameCog(bot))
