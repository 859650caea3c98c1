"""Discord's :class:`~bot.turnflow.Announcer`: what the turn flow decides, told in Discord. The turn
message (picture, summary, mentions, the only live controls), the status message kept up to date, the
end-of-game recap, a lost channel, and a private menu's acknowledgement and next step.

Other cogs reach it by type: :func:`announcer` (never ``get_cog`` by a name held as ``Any``)."""

from __future__ import annotations

import asyncio
import dataclasses
import logging
from typing import TYPE_CHECKING, Any

import discord
from discord.ext import commands

from bot import games
from bot.i18n import t
from bot.service import GameInfo, MoveOutcome, Service, Snapshot, choices_token
from bot.turnflow import TurnFlow
from cogs import ids, limits, operations, presenters, weblinks
from cogs.clocks import clock_lines
from cogs.common import EMBED_COLOUR, game_title, mention, shown_name
from cogs.play import acknowledge_now, send_private_choices
from render import story as story_pictures

if TYPE_CHECKING:
    from cogs.app import CityBot

log = logging.getLogger(__name__)

RECAP_GIF_LIMIT = 8 * 1024 * 1024
"""The largest recap animation posted (Discord's upload limit for servers without boosts is higher)."""


def seat_label(info: GameInfo, seat: int) -> str:
    row = info.seats[seat]
    if row.user_xid is not None and not row.is_ai:
        return mention(row.user_xid)
    return shown_name(row.name)


class DiscordAnnouncer(commands.Cog):
    """Tells Discord what the turn flow decides (set as the flow's announcer when the cog is made)."""

    def __init__(self, bot: CityBot) -> None:
        self.bot = bot
        self.service: Service = bot.service
        self.flow: TurnFlow = bot.flow
        self.flow.announcer = self

    async def status_embed(
        self,
        info: GameInfo,
        loc: str,
        snap: Snapshot | None = None,
        clock: list[str] | None = None,
        outcome: MoveOutcome | None = None,
    ) -> discord.Embed:
        """The status message's embed; ``clock``: the players' bank lines of this very version of the game, when the
        caller has them (the turn post's, made a moment before: not read and computed again); else ``outcome``'s
        settings, where the move's statement read them (:func:`cogs.clocks.clock_lines`)."""
        g = info.game
        presenter = presenters.get(g.kind)
        embed = discord.Embed(
            title=t("status.title", loc, title=game_title(g.kind, loc), game=g.id), colour=EMBED_COLOUR
        )
        lines: list[str] = []
        if g.status == "active":
            if snap is None or snap.version != g.version:
                snap = await self.service.snapshot_of(info)
            lines += presenter.status_lines(snap.view(None), loc, [shown_name(s.name) for s in info.seats])
            waiting = ", ".join(shown_name(info.name(s)) for s in sorted(info.awaiting))
            lines.append(t("status.waiting", loc, players=waiting or "-"))
            lines += clock if clock is not None else await clock_lines(self.bot, info, loc, outcome)
        else:
            lines.append(t(f"status.{g.status}", loc))
        if g.result:
            for s in sorted(g.result["seats"], key=lambda r: r["rank"]):
                lines.append(
                    t("status.rank", loc, rank=s["rank"], player=shown_name(info.name(s["seat"])), total=s["total"])
                )
        embed.description = "\n".join(lines)
        return embed

    # -- the Announcer --------------------------------------------------------------------------
    async def announce(
        self, game_id: int, outcome: MoveOutcome | None, loc: str, *, repost: bool = False
    ) -> str | None:
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
        clock: list[str] | None = None  # the turn post's bank lines, the status's too while the game is at g.version
        if g.status == "finished":
            lines.append(self.result_text(info, loc))
            image = await asyncio.to_thread(presenter.render_end, public_view, names, loc)
            mention_ids = [s.user_xid for s in info.seats if s.user_xid is not None]
            followers = await self.extra_mentions(info, True, mention_ids, outcome)
        else:
            acting = outcome.seat if outcome is not None and outcome.seat >= 0 else None
            image = await asyncio.to_thread(presenter.render_turn, public_view, acting, names, loc)
            humans = info.awaited_users()
            if humans:
                mention_ids = [] if repost else humans
                pinged = " ".join(mention(u) for u in humans)
                lines.append(t("turn.your_turn" if len(humans) == 1 else "turn.your_turns", loc, players=pinged))
                clock = await clock_lines(self.bot, info, loc, outcome)
                lines += clock
                view_ui = await self.turn_controls(snap, presenter, humans, loc)
            elif info.awaited_ai():
                lines.append(
                    t("turn.ai_thinking", loc, players=", ".join(shown_name(info.name(s)) for s in info.awaited_ai()))
                )
            if not repost:
                followers = await self.extra_mentions(info, False, mention_ids, outcome)
        board = weblinks.board_url(self.bot, g.id)
        if view_ui is None:
            view_ui = weblinks.link_view(weblinks.BOARD, board, loc)
        else:
            # Where a game's controls fill the message (25 components), the status message has the link.
            weblinks.add_link(view_ui, weblinks.BOARD, board, loc)
            weblinks.add_play(view_ui, self.bot, g.id, loc)  # a turn post with controls: a human is awaited
        content = "\n".join(lines) or t("turn.board", loc, game=g.id)
        # A turn's posts have their own nonces: told again after a restart (or by another process that
        # took the game over), Discord answers with the messages already made instead of second ones.
        nonce = None if repost else f"turn{g.id}v{outcome.version if outcome is not None else g.version}"
        message_xid, problem = await operations.post(
            self.bot,
            g.channel_xid,
            content,
            file_png=image,
            view=view_ui,
            mentions=operations.mentions_of(mention_ids[: limits.MENTION_IDS]),
            locale=loc,
            nonce=nonce,
        )
        row = None  # the game's row as the turn post's id left it
        if message_xid is not None:
            old = g.turn_message_xid
            row = await self.service.set_messages(game_id, shown=g, turn_message_xid=message_xid)
            if old is not None and old != message_xid:
                # The old post's controls go; its link to the board stays.
                await operations.edit(
                    self.bot, g.channel_xid, old, view=weblinks.board_view(self.bot, g.id, loc), after_post=True
                )
            await self.ping_followers(g.channel_xid, g.id, followers, loc, nonce=nonce)
        if problem is not None and message_xid is None:
            log.warning("game %s: turn message not posted (%s)", game_id, problem)
            if problem == operations.LOST_CHANNEL:
                await self.lost_channel(info)
                return problem
        # The row again (a status message posted meanwhile has its id there; as the turn post's id left it, else read);
        # the rest is unchanged, and so are the bank lines while the game is at the version the turn post shows.
        info, snap = await self.current(game_id, snap, row)
        same = info.game.version == g.version and info.game.status == g.status
        await self.update_status(info, loc, snap, clock=clock if same else None)
        if g.status == "finished" and not repost and message_xid is not None:
            await self.post_recap(info, loc)
        return problem

    async def post_recap(self, info: GameInfo, loc: str) -> None:
        """The game's story after its end: the score chart and (unless the server turned it off) the
        animation of the cities growing, rebuilt from the move log off the event loop."""
        g = info.game
        if g.channel_xid is None:
            return
        files = await self.recap_files(info, loc)
        if files is None:
            return
        recap_xid, _ = await operations.post(
            self.bot, g.channel_xid, t("end.recap", loc, game=g.id), extra_files=files, locale=loc, nonce=f"story{g.id}"
        )  # told again after a restart: still one
        await self.bot.app.erasure.record_post(g.id, "recap", recap_xid)  # a forget-me redraws it

    async def recap_files(
        self, info: GameInfo, loc: str, *, turn: int | None = None, gif: bool = True
    ) -> list[tuple[str, bytes]] | None:
        """A game's story as files to post, drawn from its move log (up to move ``turn``) with today's
        names, off the event loop: the score chart, then the animation of the cities growing when ``gif``,
        the server allows it and it fits :data:`RECAP_GIF_LIMIT`. None where the game has no story or it
        could not be drawn (logged)."""
        g = info.game
        if games.get(g.kind).story is None:
            return None
        if gif and g.guild_xid is not None:
            gif = (await self.bot.app.preferences.server_settings(g.guild_xid)).recap_gif
        moves = (await self.service.move_log(g.id))[:turn]
        names = [s.name for s in info.seats]
        try:
            told = await asyncio.to_thread(
                story_pictures.recap, g.kind, g.options, len(info.seats), g.seed, moves, names, locale=loc, gif=gif
            )
        except Exception:
            log.exception("the story of game %s could not be drawn", g.id)
            return None
        files = [("story.png", told.chart)]
        if told.gif is not None and len(told.gif) <= RECAP_GIF_LIMIT:
            files.append(("story.gif", told.gif))
        return files

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

    async def ping_followers(
        self, channel_xid: int, game_id: int, followers: list[int], loc: str, *, nonce: str | None = None
    ) -> None:
        """Followers are pinged in their own messages after the turn message (never in its mention
        list): at most :data:`limits.FOLLOWER_PINGS`, each message within Discord's limits; the rest
        are counted. With the turn's ``nonce``, each message has its own derived from it."""
        if not followers:
            return
        pinged = followers[: limits.FOLLOWER_PINGS]
        more = t("turn.followers_more", loc, n=len(followers) - len(pinged)) if len(followers) > len(pinged) else ""
        chunks = limits.mention_chunks(
            pinged, prefix=t("turn.followers", loc, users="").rstrip(), limit=limits.CONTENT - len(more) - 1
        )
        for i, (text, ids_) in enumerate(chunks):
            if i == len(chunks) - 1 and more:
                text += "\n" + more
            await operations.post(
                self.bot,
                channel_xid,
                text,
                mentions=operations.mentions_of(ids_),
                locale=loc,
                nonce=None if nonce is None else f"{nonce}f{i}",
            )

    async def extra_mentions(
        self, info: GameInfo, finished: bool, mention_ids: list[int], outcome: MoveOutcome | None = None
    ) -> list[int]:
        """Followers and others the community features want pinged (not already in ``mention_ids``); ``outcome``:
        the move told, whose own statement may have read them (not read again while the game is at its version)."""
        if outcome is not None and outcome.version != info.game.version:
            outcome = None
        extra: list[int] = []
        for provider in self.bot.mention_providers:
            try:
                extra += [u for u in await provider(info, finished, outcome) if u not in mention_ids]
            except Exception:
                log.exception("mention provider failed")
        return list(dict.fromkeys(extra))

    async def turn_controls(
        self, snap: Snapshot, presenter: presenters.Presenter[Any], humans: list[int], loc: str
    ) -> discord.ui.View:
        info = snap.info
        if presenter.controls_on_turn_message(snap.view(None)) and len(humans) == 1:
            seat = info.seat_of(humans[0])
            assert seat is not None
            moves = games.rules(info.game.kind).legal_moves(snap.state, seat.seat)
            return presenter.controls(info.id, snap.version, choices_token(moves), moves, snap.view(seat.seat), loc)
        view = discord.ui.View(timeout=None)
        view.add_item(
            discord.ui.Button(
                label=t("turn.button.open", loc),
                style=discord.ButtonStyle.primary,
                custom_id=ids.open_(info.id, snap.version),
            )
        )
        view.stop()
        return view

    def result_text(self, info: GameInfo, loc: str) -> str:
        return "\n".join(self.flow.result_lines(info, loc, lambda seat: seat_label(info, seat)))

    async def update_status(
        self,
        info: GameInfo,
        loc: str,
        snap: Snapshot | None = None,
        clock: list[str] | None = None,
        outcome: MoveOutcome | None = None,
    ) -> None:
        """Edit the game's status message in place (post it the first time); ``snap``: the game's
        current snapshot, and ``clock`` its bank lines (or ``outcome``, the move that left it so), when the caller
        has them."""
        g = info.game
        if g.channel_xid is None:
            return
        embed = await self.status_embed(info, loc, snap, clock, outcome)
        # The link to the board is always on the status message too: it is where the game stays, and where
        # the link goes when a turn post's controls leave no room for it.
        board = weblinks.board_view(self.bot, g.id, loc)
        linked: dict[str, Any] = {"view": board} if board is not None else {}
        if g.status_message_xid is not None:
            edited = await operations.edit_message(self.bot, g.channel_xid, g.status_message_xid, embed=embed, **linked)
            if edited != operations.GONE:
                return  # edited, or a passing problem: the next update edits it again (no duplicate)
        message_xid, problem = await operations.post(self.bot, g.channel_xid, "", embed=embed, view=board)
        if message_xid is not None:
            await self.service.set_messages(g.id, status_message_xid=message_xid)
        elif problem == operations.LOST_CHANNEL:
            await self.lost_channel(info)

    async def strip_controls(self, info: GameInfo) -> None:
        g = info.game
        if g.channel_xid is not None and g.turn_message_xid is not None:
            await operations.edit(
                self.bot,
                g.channel_xid,
                g.turn_message_xid,
                after_post=True,
                view=weblinks.board_view(self.bot, g.id, g.locale),
            )

    async def acknowledge(self, origin: Any, outcome: MoveOutcome) -> None:
        """A move made from a private menu: the menu becomes the move's sentence (already on its way
        when the click started it at the commit)."""
        if origin.acknowledging is not None:
            await origin.acknowledging
            return
        await acknowledge_now(origin, outcome)

    async def next_step(self, origin: Any, game_id: int) -> None:
        await send_private_choices(self.bot, origin.interaction, game_id, origin.locale, made=origin.made)

    async def show_status(self, game_id: int, locale: str, outcome: MoveOutcome | None = None) -> None:
        """The status after ``outcome`` reuses its snapshot, and its row too while this process knows of no later
        version and the row names the status message (no reading: the turn flow checks the row its settling returns,
        :meth:`bot.turnflow.TurnFlow.after_move`); else only the game's row is read again, for the status message's
        id; without ``outcome``, or when the game moved on since, the game is read."""
        made = outcome.snapshot if outcome is not None else None
        if (
            outcome is not None
            and made is not None
            and made.info.id == game_id
            and outcome.info.game.status_message_xid is not None
            and self.service.knows_no_later(made)
        ):
            info, snap = made.info, made
        else:
            info, snap = await self.current(game_id, made)
        await self.update_status(info, locale, snap, outcome=outcome)

    async def current(self, game_id: int, snap: Snapshot | None, row: Any = None) -> tuple[GameInfo, Snapshot]:
        """The game now: its row read again (or ``row``, the row a write just returned); seats, awaited seats and
        state from ``snap`` when it is still the current version (no other read), else read too."""
        if snap is not None:
            g = row if row is not None and row.id == game_id else await self.service.game(game_id)
            if g.version == snap.version and g.status == snap.info.game.status:
                info = GameInfo(g, snap.info.seats, snap.info.awaiting)
                return info, dataclasses.replace(snap, info=info)
        info = await self.service.info(game_id)
        if info.game.status == "lobby":
            return info, Snapshot(info, 0, None)
        return info, await self.service.snapshot_of(info)


def announcer(bot: commands.Bot | commands.AutoShardedBot) -> DiscordAnnouncer:
    """The bot's Discord announcer, by type."""
    cog = bot.get_cog(DiscordAnnouncer.__cog_name__)
    if not isinstance(cog, DiscordAnnouncer):
        raise RuntimeError("the Discord announcer is not loaded")
    return cog
