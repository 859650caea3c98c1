"""Forget-me's background edits on Discord: the bot's own posts that named the player are edited to
the names the seats have now (:mod:`bot.community.erasure` plans them and keeps the queue).

Every :data:`~bot.community.erasure.PASS_SECONDS` (and soon after a forget-me), one pass takes at most
:data:`~bot.community.erasure.EDITS_PER_PASS` edits and makes each:

- a **lobby** or **status** message: drawn again from the game now (the game cog's own embeds); a
  campaign lobby's line naming whose campaign it was becomes the note below;
- a **turn** post: told again as it was at its version (the move log replayed), its summary and
  picture with today's names, its picture replaced (the old attachment is dropped);
- a **recap**: the story chart (and animation) drawn again with today's names;
- a **note** (a reminder, a vote, an undo proposal about the player): its text becomes a short note,
  its embeds and attachments go.

An edit made is marked done; a message deleted meanwhile is ``gone``; a passing problem offers it
again later (at most a few times). Nothing here pings anyone: every edit is sent without mentions.
"""

from __future__ import annotations

import asyncio
import contextlib
import io
import logging
from typing import TYPE_CHECKING, Any

import discord
from discord.ext import commands, tasks

from bot import errors, games
from bot.community.erasure import EDITS_PER_PASS, PASS_SECONDS, EditRow, Forgotten
from bot.i18n import t
from bot.service import GameInfo
from cogs import lobby, operations, presenters, weblinks
from cogs.announcer import announcer
from cogs.common import shown_name

if TYPE_CHECKING:
    from cogs.app import CityBot

log = logging.getLogger(__name__)

PRUNE_EVERY = 720
"""Passes between two prunes of finished edits (about an hour)."""
CAMPAIGN_OPTION = "campaign"
"""The option of a campaign's game (its lobby message names the player above the embed)."""


def forgotten_text(forgotten: Forgotten, loc: str) -> str:
    """The forget-me reply: what was forgotten, what will be edited, what cannot be reached."""
    lines = [t("privacy.forgotten", loc, n=forgotten.changed)]
    lines.append(t("privacy.erasing", loc, n=forgotten.edits) if forgotten.edits else t("privacy.erasing_none", loc))
    if forgotten.beyond:
        lines.append(t("privacy.erasing_beyond", loc, n=forgotten.beyond))
    lines.append(t("privacy.unreachable", loc))
    return "\n".join(lines)


def label(info: GameInfo, seat: int) -> str:
    """A seat as a post names it: a player still known by their mention, anyone else by name."""
    row = info.seats[seat]
    return f"<@{row.user_xid}>" if row.user_xid is not None and not row.is_ai else shown_name(row.name)


class ErasureCog(commands.Cog):
    """The background edits of forget-me."""

    def __init__(self, bot: CityBot) -> None:
        self.bot = bot
        self.service = bot.service
        self.erasure = bot.app.erasure
        self._lock = asyncio.Lock()
        self._kick_task: asyncio.Task[None] | None = None
        self._passes = 0

    async def cog_load(self) -> None:
        self.erasure.kick = self.kick
        self.erasure_loop.start()

    async def cog_unload(self) -> None:
        self.erasure_loop.cancel()
        self.erasure.kick = None
        if self._kick_task is not None:
            self._kick_task.cancel()

    # -- the loop ------------------------------------------------------------------------------
    @tasks.loop(seconds=PASS_SECONDS)
    async def erasure_loop(self) -> None:
        try:
            await self.tick()
        except Exception:
            log.exception("erasure pass failed")

    @erasure_loop.before_loop
    async def _before_loop(self) -> None:
        await self.bot.wait_until_ready()

    def kick(self) -> None:
        """A forget-me queued its edits: a pass now rather than at the next tick."""
        if self.bot.is_ready() and (self._kick_task is None or self._kick_task.done()):
            self._kick_task = asyncio.create_task(self._kicked(), name="erasure-kick")

    async def _kicked(self) -> None:
        try:
            await self.tick()
        except Exception:
            log.exception("erasure pass after a forget-me failed")

    async def tick(self, limit: int = EDITS_PER_PASS) -> list[EditRow]:
        """One pass: at most ``limit`` edits taken, made and marked."""
        async with self._lock:
            self._passes += 1
            if self._passes % PRUNE_EVERY == 0:
                await self.erasure.prune()
            edits = await self.erasure.take(limit)
            for edit in edits:
                await self.make(edit)
            return edits

    async def make(self, edit: EditRow) -> str:
        """Make one edit and record how it went (``done``, ``gone``, ``failed`` or ``retry``)."""
        try:
            kwargs = await self.edited(edit)
        except errors.GameError:  # the game is gone, or not what the edit expected
            kwargs = await self.note(None)
        except Exception:
            log.exception("erasure edit %s could not be drawn", edit.id)
            await self.erasure.retry(edit)
            return "retry"
        outcome = await operations.edit_message(
            self.bot, edit.channel_xid, edit.message_xid, allowed_mentions=operations.NO_MENTIONS, **kwargs
        )
        if outcome == operations.FAILED:
            await self.erasure.retry(edit)
            return "retry"
        status = "done" if outcome == operations.EDITED else "gone"
        await self.erasure.finish(edit, status)
        return status

    # -- what each message becomes ---------------------------------------------------------------
    async def edited(self, edit: EditRow) -> dict[str, Any]:
        if edit.kind == "note" or edit.game_id is None:
            return await self.note(edit.game_id)
        info = await self.service.info(edit.game_id)
        loc = info.game.locale
        if edit.kind == "lobby":
            # A campaign's lobby opens with a line naming whose campaign it is (the campaign itself
            # is forgotten): the note instead. Other lobbies are their embed alone.
            content = t("privacy.erased_message", loc) if CAMPAIGN_OPTION in info.game.options else ""
            return {
                "content": content,
                "embed": lobby.lobby_embed(info, loc),
                "view": lobby.lobby_view(info, loc, weblinks.board_url(self.bot, info.id)),
            }
        if edit.kind == "status":
            return {"embed": await announcer(self.bot).status_embed(info, loc)}
        if edit.kind == "recap":
            return await self.recap(info, loc)
        return await self.turn(info, edit.version or 0, loc)

    async def note(self, game_id: int | None) -> dict[str, Any]:
        loc = "en"
        if game_id is not None:
            with contextlib.suppress(errors.GameError):  # the game is gone: the note in English
                loc = (await self.service.game(game_id)).locale
        return {"content": t("privacy.erased_message", loc), "embeds": [], "attachments": []}

    async def turn(self, info: GameInfo, version: int, loc: str) -> dict[str, Any]:
        """A turn post as it was at ``version``, with today's names and a picture drawn again."""
        post = await self.erasure.turn_post(info.id, version)
        snap = post.snapshot
        presenter = presenters.get(info.game.kind)
        public = snap.view(None)
        names = [s.name for s in info.seats]
        lines: list[str] = []
        if post.summary is not None:
            key, params = post.summary
            lines += presenter.summary_lines(key, params, public, loc, names)
        if post.final:
            game_flow = self.bot.app.flow
            lines += game_flow.result_lines(info, loc, lambda seat: label(info, seat))
            image = await asyncio.to_thread(presenter.render_end, public, names, loc)
        else:
            image = await asyncio.to_thread(presenter.render_turn, public, post.seat, names, loc)
            awaited = sorted(games.rules(info.game.kind).awaiting(snap.state)) if info.game.status != "lobby" else []
            humans = [s for s in awaited if info.seats[s].user_xid is not None and not info.seats[s].is_ai]
            if humans:
                lines.append(
                    t(
                        "turn.your_turn" if len(humans) == 1 else "turn.your_turns",
                        loc,
                        players=" ".join(label(info, s) for s in humans),
                    )
                )
            elif awaited:
                lines.append(t("turn.ai_thinking", loc, players=", ".join(shown_name(info.name(s)) for s in awaited)))
        files = [operations.png_file(image)] if image is not None else []
        return {"content": "\n".join(lines) or t("turn.board", loc, game=info.id), "attachments": files}

    async def recap(self, info: GameInfo, loc: str) -> dict[str, Any]:
        """The game's story drawn again with today's names (the animation too, where it was posted)."""
        files = await announcer(self.bot).recap_files(info, loc) or []
        return {
            "content": t("end.recap", loc, game=info.id),
            "attachments": [discord.File(io.BytesIO(data), filename=name) for name, data in files],
        }
