"""Playing over days: reminders, deadlines and votes, vacations, undo by agreement, followers,
history / replay / export, and leagues with standings.

The logic lives in :mod:`bot.community`; this cog only turns interactions into calls and actions
into Discord messages. The reminder loop runs every minute (:meth:`CommunityCog.tick`): one
:meth:`bot.community.Community.run_due` pass, then each action is sent and confirmed. Sends carry
the action's nonce, so a message offered again after a restart is not posted twice.

Subcommands are added to the existing ``/game`` group (snooze, away, mine, notify, settings,
history, replay, export, undo, follow, unfollow); ``/league`` is this cog's own group. Vote and undo
buttons are routed by custom_id (``cvote:`` and ``undo:``), so they keep working after a restart.
"""

from __future__ import annotations

import asyncio
import io
import json
import logging
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.ext import commands, tasks

from bot import errors, games
from bot.community import (
    POLICIES,
    SETTING_SPECS,
    Action,
    Community,
    CommunityError,
    Settings,
    Standing,
    Table,
)
from bot.i18n import normalise_locale, t
from bot.service import GameInfo, MoveOutcome
from cogs import ids, operations, presenters
from cogs.game import EMBED_COLOUR, game_choices, game_title, mention

if TYPE_CHECKING:
    from bot.app import CityBot

log = logging.getLogger(__name__)

LOOP_SECONDS = 60
BATCH = 100
KICK_DELAY_SECONDS = 1.0
"""After a move, a loop pass runs this soon (notices such as "you are the last to choose")."""
VOTE_PREFIX = "cvote"
UNDO_PREFIX = "undo"
HISTORY_LIMIT = 15
MINE_LIMIT = 20
LIST_LIMIT = 25
EXPORT_NAME = "game-{game}.json"
GAME_SUBCOMMANDS = ("snooze", "away", "mine", "notify", "settings", "history", "replay", "export", "undo",
                    "follow", "unfollow")
RETRYABLE_STATUS = 500
CANNOT_DM = 50007


# =============================================================================================
# custom_ids
# =============================================================================================


def vote_id(game_id: int, version: int, seat: int, choice: str) -> str:
    """``cvote:<game>:<version>:<seat>:<move|takeover|wait>`` (version: when the vote opened)."""
    return f"{VOTE_PREFIX}:{game_id}:{version}:{seat}:{choice}"


def undo_id(game_id: int, version: int, accept: bool) -> str:
    """``undo:<game>:<version>:<yes|no>`` (version: the game's version the proposal is about)."""
    return f"{UNDO_PREFIX}:{game_id}:{version}:{'yes' if accept else 'no'}"


def _int(text: str) -> int:
    if not text.isdigit() or len(text) > 20:
        raise ids.ForgedId(text)
    return int(text)


def parse_vote_id(custom_id: str) -> tuple[int, int, int, str]:
    parts = custom_id.split(":")
    if len(parts) != 5 or parts[0] != VOTE_PREFIX or parts[4] not in ("move", "takeover", "wait"):
        raise ids.ForgedId(custom_id)
    return _int(parts[1]), _int(parts[2]), _int(parts[3]), parts[4]


def parse_undo_id(custom_id: str) -> tuple[int, int, bool]:
    parts = custom_id.split(":")
    if len(parts) != 4 or parts[0] != UNDO_PREFIX or parts[3] not in ("yes", "no"):
        raise ids.ForgedId(custom_id)
    return _int(parts[1]), _int(parts[2]), parts[3] == "yes"


# =============================================================================================
# Small helpers
# =============================================================================================


def stamp(ms: int | None, style: str = "R") -> str:
    """Discord's timestamp markup: each reader sees it in their own time zone."""
    return f"<t:{(ms or 0) // 1000}:{style}>" if ms is not None else "-"


def channel_link(guild_xid: int | None, channel_xid: int | None, message_xid: int | None = None) -> str:
    base = f"https://discord.com/channels/{guild_xid or '@me'}/{channel_xid or 0}"
    return f"{base}/{message_xid}" if message_xid else base


def locale_of(interaction: discord.Interaction) -> str:
    return normalise_locale(interaction.locale)


def is_admin(interaction: discord.Interaction) -> bool:
    perms = interaction.permissions
    return bool(perms and perms.manage_guild)


def player_label(info: GameInfo, seat: int) -> str:
    if 0 <= seat < len(info.seats):
        row = info.seats[seat]
        return mention(row.user_xid) if row.user_xid is not None else row.name
    return "?"


def number(value: float) -> str:
    return str(int(value)) if float(value).is_integer() else f"{value:g}"


def setting_value(name: str, value: Any, loc: str) -> str:
    if name == "timeout_policy":
        return t(f"community.policy.{value}", loc)
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
        lines.append(t("community.settings.line", loc, name=t(f"community.setting.{name}", loc),
                       value=setting_value(name, getattr(settings, name), loc)))
    return lines


def standings_png(table: Table, loc: str) -> bytes:
    """The standings as a picture: rank, player marker and name, games, wins, average place, and
    (rated leagues) the rating. Drawn with the shared palette and the shipped font."""
    from render import common as c

    rows = table.standings
    width = c.IMAGE_WIDTH
    row_h, head_h, margin = 54, 56, 24
    height = c.TITLE_HEIGHT + margin + head_h + row_h * max(1, len(rows)) + margin
    img, draw = c.canvas(width, height)
    title = t("community.league.title", loc, name=table.league.name, number=table.season.number)
    c.title_bar(draw, width, title, game_title(table.league.kind, loc))
    cols = [("rank", 70), ("player", 0), ("games", 130), ("wins", 130), ("place", 160)]
    if table.league.rated:
        cols.append(("rating", 170))
    fixed = sum(w for _, w in cols)
    cols = [(name, w or width - 2 * margin - fixed) for name, w in cols]
    top = c.TITLE_HEIGHT + margin
    c.panel(draw, (margin // 2, top - 8, width - margin // 2, height - margin // 2))
    x = margin
    header_font = c.font(22, bold=True)
    for name, w in cols:
        label = "#" if name == "rank" else t(f"community.league.col.{name}", loc)
        anchor, tx = ("lm", x + 8) if name == "player" else ("mm", x + w / 2)
        c.draw_text(draw, (tx, top + head_h / 2), label, header_font, c.MUTED, anchor)
        x += w
    body = c.font(24)
    for i, s in enumerate(rows):
        y = top + head_h + i * row_h
        if i == 0 and s.games:
            draw.rectangle((margin, y, width - margin, y + row_h), fill=c.tint(c.HIGHLIGHT, 0.7))
        elif i % 2:
            draw.rectangle((margin, y, width - margin, y + row_h), fill=c.tint(c.PANEL_EDGE, 0.75))
        values = {"rank": str(i + 1), "games": str(s.games), "wins": str(s.wins),
                  "place": f"{s.average_place:.2f}" if s.games else "-",
                  "rating": f"{s.ordinal:.1f}" if s.games else "-"}
        x = margin
        for name, w in cols:
            cy = y + row_h / 2
            if name == "player":
                c.seat_marker(img, i, (x + 6, int(cy - 16), x + 38, int(cy + 16)))
                text, fnt = c.fit_text(s.name, w - 60, 24, bold=i == 0)
                c.draw_text(draw, (x + 48, cy), text, fnt, c.INK, "lm")
            else:
                c.draw_text(draw, (x + w / 2, cy), values[name], body, c.INK, "mm")
            x += w
    if not rows:
        c.draw_text(draw, (width / 2, top + head_h + row_h / 2), t("community.league.empty", loc), body,
                    c.MUTED, "mm")
    return c.png_bytes(img)


# =============================================================================================
# The cog
# =============================================================================================


class CommunityCog(commands.Cog):
    """Play over days: reminders, deadlines, vacations, undo, followers, history and leagues."""

    league = app_commands.Group(name="league", description="Leagues, seasons and standings",
                                guild_only=True)

    def __init__(self, bot: CityBot) -> None:
        self.bot = bot
        self.service = bot.service
        self.community = Community(bot.service)
        self.community.mention_covered = lambda kind: presenters.get(kind).public_controls
        self.kick_delay: float | None = KICK_DELAY_SECONDS
        """Seconds after a move before a loop pass (None: only the minute loop; tests)."""
        self._kick_task: asyncio.Task[None] | None = None
        self._tick_lock = asyncio.Lock()
        self._added: list[app_commands.Command[Any, Any, Any]] = []

    # -- lifecycle ---------------------------------------------------------------------------
    async def cog_load(self) -> None:
        await self.community.resume()
        self.bot.component_routes[VOTE_PREFIX] = self.vote_click
        self.bot.component_routes[UNDO_PREFIX] = self.undo_click
        self.bot.mention_providers.append(self.community.followers)
        self.service.move_listeners.append(self._after_move)
        self._attach_game_commands()
        self.reminder_loop.start()

    async def cog_unload(self) -> None:
        self.reminder_loop.cancel()
        if self._kick_task is not None:
            self._kick_task.cancel()
        for prefix in (VOTE_PREFIX, UNDO_PREFIX):
            self.bot.component_routes.pop(prefix, None)
        for listeners, fn in ((self.bot.mention_providers, self.community.followers),
                              (self.service.move_listeners, self._after_move),
                              (self.service.move_listeners, self.community.on_move),
                              (self.service.end_listeners, self.community.on_end)):
            if fn in listeners:
                listeners.remove(fn)  # type: ignore[arg-type]
        group = self._game_group()
        for cmd in self._added:
            if group is not None:
                group.remove_command(cmd.name)
        try:
            await self.community.heartbeat()
        except Exception:
            log.info("no heartbeat at unload (store closed)")

    def _game_group(self) -> app_commands.Group | None:
        group = self.bot.tree.get_command("game")
        return group if isinstance(group, app_commands.Group) else None

    def _attach_game_commands(self) -> None:
        """Add this cog's subcommands to the game cog's ``/game`` group."""
        group = self._game_group()
        if group is None:
            log.warning("no /game group: the community subcommands are not available")
            return
        for name in GAME_SUBCOMMANDS:
            func = getattr(type(self), f"game_{name}")
            description = (func.__doc__ or name).strip().splitlines()[0][:100]
            cmd: app_commands.Command[Any, Any, Any] = app_commands.Command(
                name=name, description=description, callback=func, parent=group)
            cmd.binding = self
            group.add_command(cmd)
            self._added.append(cmd)

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
            actions = await self.community.run_due(self.community.now, BATCH)
            for action in actions:
                await self.dispatch(action)
            return actions

    async def _after_move(self, outcome: MoveOutcome) -> None:
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
    async def send_once(self, channel_xid: int | None, content: str, *, nonce: str,
                        mentions: list[int] | None = None,
                        view: discord.ui.View | None = None) -> tuple[int | None, bool]:
        """Post with the action's nonce (Discord refuses a second message with the same nonce).

        Returns (message id, retry): retry is True for a failure worth trying again later (the
        action then stays claimed and is offered again with the same nonce).
        """
        if channel_xid is None:
            return None, False
        kwargs: dict[str, Any] = {"allowed_mentions": operations.mentions_of(mentions or []),
                                  "nonce": nonce}
        if view is not None:
            kwargs["view"] = view
        try:
            message = await asyncio.wait_for(self.bot.get_partial_messageable(channel_xid).send(content, **kwargs),
                                             operations.POST_TIMEOUT_SECONDS)
            return message.id, False
        except discord.HTTPException as exc:
            log.warning("community post in %s failed: %s %s", channel_xid, exc.status, exc.code)
            return None, exc.status >= RETRYABLE_STATUS
        except (TimeoutError, OSError) as exc:
            log.warning("community post in %s failed: %r", channel_xid, exc)
            return None, True

    async def dm_once(self, user_xid: int | None, content: str, *, nonce: str) -> tuple[int | None, bool]:
        if user_xid is None:
            return None, False
        try:
            user = self.bot.get_user(user_xid) or await self.bot.fetch_user(user_xid)
            message = await asyncio.wait_for(user.send(content, nonce=nonce), operations.POST_TIMEOUT_SECONDS)
            return message.id, False
        except discord.HTTPException as exc:
            if exc.code != CANNOT_DM:
                log.info("DM to %s failed: %s %s", user_xid, exc.status, exc.code)
            return None, exc.status >= RETRYABLE_STATUS
        except (TimeoutError, OSError):
            return None, True

    async def _finish(self, action: Action, sent: tuple[int | None, bool]) -> None:
        message_xid, retry = sent
        if message_xid is not None:
            await self.community.mark_sent(action.id, message_xid)
        elif not retry:
            await self.community.mark_failed(action.id)

    async def dispatch(self, action: Action) -> None:
        """Carry out one action of the loop (or of a click) and confirm it."""
        handler: Callable[[Action], Awaitable[None]] | None = getattr(self, f"_do_{action.kind}", None)
        if handler is None:
            log.warning("unknown community action %s", action.kind)
            await self.community.mark_failed(action.id)
            return
        try:
            await handler(action)
        except errors.GameError as exc:
            log.info("action %s (%s) refused: %s", action.id, action.kind, exc.key)
            await self.community.mark_skipped(action.id)
        except Exception:
            log.exception("action %s (%s) failed", action.id, action.kind)
            await self.community.mark_failed(action.id)

    async def _info(self, action: Action) -> GameInfo:
        assert action.game_id is not None
        return await self.service.info(action.game_id)

    async def _do_reminder(self, action: Action) -> None:
        info = await self._info(action)
        p = action.params
        loc = "en"
        lines = [t("community.reminder", loc, user=mention(action.user_xid or 0), game=info.id,
                   title=game_title(info.game.kind, loc), since=stamp(p.get("since")))]
        if p.get("voting"):
            lines.append(t("community.reminder.voting", loc))
        elif p.get("deadline"):
            policy = p.get("policy", "none")
            lines.append(t(f"community.reminder.deadline.{policy if policy in POLICIES else 'none'}", loc,
                           deadline=stamp(p["deadline"])))
        lines.append(t("community.reminder.hint", loc))
        await self._finish(action, await self.send_once(
            action.channel_xid, "\n".join(lines), nonce=action.nonce,
            mentions=[action.user_xid] if action.user_xid else []))

    async def _do_reminder_dm(self, action: Action) -> None:
        info = await self._info(action)
        loc = "en"
        text = t("community.reminder_dm", loc, game=info.id, title=game_title(info.game.kind, loc),
                 since=stamp(action.params.get("since")),
                 link=channel_link(info.game.guild_xid, info.game.channel_xid, info.game.turn_message_xid))
        await self._finish(action, await self.dm_once(action.user_xid, text, nonce=action.nonce))

    async def _do_turn_dm(self, action: Action) -> None:
        info = await self._info(action)
        loc = "en"
        text = t("community.turn_dm", loc, game=info.id, title=game_title(info.game.kind, loc),
                 link=channel_link(info.game.guild_xid, info.game.channel_xid, info.game.turn_message_xid))
        await self._finish(action, await self.dm_once(action.user_xid, text, nonce=action.nonce))

    async def _do_last(self, action: Action) -> None:
        info = await self._info(action)
        text = t("community.last", "en", user=mention(action.user_xid or 0), game=info.id)
        await self._finish(action, await self.send_once(
            action.channel_xid, text, nonce=action.nonce,
            mentions=[action.user_xid] if action.user_xid else []))

    def vote_view(self, game_id: int, version: int, seat: int, loc: str) -> discord.ui.View:
        view = discord.ui.View(timeout=None)
        styles = {"move": discord.ButtonStyle.primary, "takeover": discord.ButtonStyle.secondary,
                  "wait": discord.ButtonStyle.success}
        for choice, style in styles.items():
            view.add_item(discord.ui.Button(label=t(f"community.vote.button.{choice}", loc), style=style,
                                            custom_id=vote_id(game_id, version, seat, choice)))
        view.stop()
        return view

    async def _do_vote_open(self, action: Action) -> None:
        info = await self._info(action)
        p = action.params
        loc = "en"
        voters = [int(v) for v in p.get("voters", [])]
        text = t("community.vote.open", loc, late=mention(action.user_xid or 0), game=info.id,
                 since=stamp(p.get("since")), voters=" ".join(mention(v) for v in voters),
                 closes=stamp(p.get("closes_at")))
        assert action.seat is not None
        view = self.vote_view(info.id, int(p["version"]), action.seat, loc)
        await self._finish(action, await self.send_once(
            action.channel_xid, text, nonce=action.nonce, view=view,
            mentions=[*voters, *([action.user_xid] if action.user_xid else [])]))

    async def _do_vote_closed(self, action: Action) -> None:
        info = await self._info(action)
        p = action.params
        decision = str(p.get("decision", "moved"))
        text = t(f"community.vote.closed.{decision}", "en",
                 late=player_label(info, action.seat if action.seat is not None else -1))
        message_xid = p.get("message_xid")
        if message_xid is None or action.channel_xid is None:
            await self.community.mark_skipped(action.id)
            return
        ok = await operations.edit(self.bot, action.channel_xid, int(message_xid), content=text, view=None,
                                   allowed_mentions=operations.NO_MENTIONS)
        await (self.community.mark_sent(action.id) if ok else self.community.mark_failed(action.id))

    async def _do_ai_move(self, action: Action) -> None:
        outcome = await self.community.execute_ai(action)
        if outcome is None:
            return
        info = outcome.info
        key = "community.timeout.ai_took_over" if action.params.get("take_over") else "community.timeout.ai_moved"
        await operations.post(self.bot, info.game.channel_xid or 0,
                              t(key, "en", player=player_label(info, outcome.seat), game=info.id))
        game_cog = self.bot.get_cog("GameCog")
        if game_cog is not None:
            await game_cog.after_move(outcome, "en", None, "en", False)  # type: ignore[attr-defined]

    async def _do_extended(self, action: Action) -> None:
        info = await self._info(action)
        text = t("community.timeout.extended", "en", player=player_label(info, action.seat or 0),
                 deadline=stamp(action.params.get("deadline")))
        await self._finish(action, await self.send_once(action.channel_xid, text, nonce=action.nonce))

    async def _do_deadline_passed(self, action: Action) -> None:
        info = await self._info(action)
        key = "community.timeout.passed_no_ai" if action.params.get("no_ai") else "community.timeout.passed"
        text = t(key, "en", player=player_label(info, action.seat or 0), game=info.id)
        await self._finish(action, await self.send_once(action.channel_xid, text, nonce=action.nonce))

    async def _do_undo_expired(self, action: Action) -> None:
        message_xid = action.params.get("message_xid")
        if message_xid is None or action.channel_xid is None:
            await self.community.mark_skipped(action.id)
            return
        ok = await operations.edit(self.bot, action.channel_xid, int(message_xid),
                                   content=t("community.undo.expired", "en"), view=None)
        await (self.community.mark_sent(action.id) if ok else self.community.mark_failed(action.id))

    # -- buttons -----------------------------------------------------------------------------
    async def vote_click(self, interaction: discord.Interaction, custom_id: str, data: dict[str, Any]) -> None:
        """A timeout vote button: counted, and decided as soon as a majority agrees."""
        game_id, version, seat, choice = parse_vote_id(custom_id)
        loc = locale_of(interaction)
        result = await self.community.cast_vote(game_id, version, seat, interaction.user.id, choice)
        await operations.reply(interaction, t("community.vote.counted", loc,
                                              choice=t(f"community.vote.button.{choice}", loc)))
        for action in result.actions:
            await self.dispatch(action)

    async def undo_click(self, interaction: discord.Interaction, custom_id: str, data: dict[str, Any]) -> None:
        """Accept / Refuse on an undo proposal."""
        game_id, version, accept = parse_undo_id(custom_id)
        loc = locale_of(interaction)
        answer = await self.community.answer_undo(game_id, version, interaction.user.id, accept)
        proposer = mention(answer.proposal.proposer_xid)
        if answer.status == "open":
            accepted = sum(1 for v in answer.answers.values() if v)
            await operations.reply(interaction, t("community.undo.waiting", loc, n=accepted,
                                                  total=len(answer.proposal.voters)))
            return
        if answer.status == "refused":
            await operations.edit_original(interaction, content=t(
                "community.undo.refused", "en", user=mention(interaction.user.id), proposer=proposer),
                view=None, allowed_mentions=operations.NO_MENTIONS)
            return
        await operations.edit_original(interaction, content=t("community.undo.done", "en", user=proposer),
                                       view=None, allowed_mentions=operations.NO_MENTIONS)
        await self._republish(game_id)

    async def _republish(self, game_id: int) -> None:
        game_cog = self.bot.get_cog("GameCog")
        if game_cog is not None:
            await game_cog.publish(game_id, None, "en")  # type: ignore[attr-defined]
            # The board after an undo is told: a restart must not announce an older move again.
            info = await self.service.info(game_id)
            await self.service.store.settle(game_id, info.game.version)

    # =========================================================================================
    # /game subcommands (added to the game cog's group in cog_load)
    # =========================================================================================
    async def _channel_game(self, interaction: discord.Interaction, game: int | None) -> GameInfo:
        if game is not None:
            info = await self.service.info(game)
            if info.game.guild_xid != interaction.guild_id:
                raise errors.UnknownGame(game=game)
            return info
        return await self.service.game_in_channel(interaction.channel_id or 0)

    @app_commands.describe(hours="For how many hours (default 12)",
                           everywhere="Snooze all your games on this server, not just this channel's")
    async def game_snooze(self, interaction: discord.Interaction,
                          hours: app_commands.Range[float, 0.5, 168.0] = 12.0,
                          everywhere: bool = False) -> None:
        """Pause your reminders for a while (deadlines still run)."""
        loc = locale_of(interaction)
        if everywhere:
            count, until = await self.community.snooze(interaction.user.id, hours,
                                                       guild_xid=interaction.guild_id)
        else:
            info = await self.service.game_in_channel(interaction.channel_id or 0)
            count, until = await self.community.snooze(interaction.user.id, hours, game_id=info.id)
        await operations.reply(interaction, t("community.snoozed", loc, until=stamp(until), count=count))

    @app_commands.describe(days="How many days you are away (0: I am back)")
    async def game_away(self, interaction: discord.Interaction,
                        days: app_commands.Range[float, 0.0, 365.0]) -> None:
        """Go on vacation: no reminders, and deadlines paused as this server's rules say."""
        loc = locale_of(interaction)
        until, paused = await self.community.set_away(interaction.guild_id or 0, interaction.user.id, days)
        if until is None:
            text = t("community.away.back", loc)
        else:
            text = t("community.away.set_paused" if paused else "community.away.set_running", loc,
                     until=stamp(until))
        await operations.reply(interaction, text)

    async def game_mine(self, interaction: discord.Interaction) -> None:
        """Every game on this server waiting for you, with links."""
        loc = locale_of(interaction)
        entries = await self.community.mine(interaction.guild_id or 0, interaction.user.id)
        if not entries:
            await operations.reply(interaction, t("community.mine.none", loc))
            return
        lines = []
        for e in entries[:MINE_LIMIT]:
            g = e.info.game
            extra = t("community.mine.deadline", loc, deadline=stamp(e.deadline)) if e.deadline else ""
            if e.snoozed_until and e.snoozed_until > self.community.now:
                extra += t("community.mine.snoozed", loc, until=stamp(e.snoozed_until))
            lines.append(t("community.mine.line", loc, game=g.id, title=game_title(g.kind, loc),
                           channel=f"<#{g.channel_xid}>", since=stamp(e.since), extra=extra,
                           link=channel_link(g.guild_xid, g.channel_xid, g.turn_message_xid)))
        embed = discord.Embed(title=t("community.mine.title", loc, count=len(entries)),
                              description="\n".join(lines), colour=EMBED_COLOUR)
        await operations.reply(interaction, embed=embed)

    @app_commands.describe(
        dm="Also send my reminders by direct message", turn_dm="A direct message each time it is my turn",
        quiet="Quiet hours in your time, e.g. 22:00-07:30 (or off): no reminders then",
        timezone="Your time zone, e.g. Europe/Budapest or UTC+2")
    async def game_notify(self, interaction: discord.Interaction, dm: bool | None = None,
                          turn_dm: bool | None = None, quiet: str | None = None,
                          timezone: str | None = None) -> None:
        """Choose how I remind you: DMs, a DM when it is your turn, quiet hours, time zone."""
        loc = locale_of(interaction)
        prefs = await self.community.set_prefs(interaction.user.id, timezone_name=timezone, quiet=quiet,
                                               dm_reminders=dm, dm_turns=turn_dm)
        yes, no = t("community.yes", loc), t("community.no", loc)
        await operations.reply(interaction, t(
            "community.notify.saved", loc, zone=prefs.timezone,
            quiet=prefs.quiet_text() or t("community.notify.none", loc),
            dm=yes if prefs.dm_reminders else no, turn=yes if prefs.dm_turns else no))

    @app_commands.describe(
        server="Change this server's defaults instead of this channel's game (server managers)",
        reminder_hours="First reminder after this many hours (later ones back off)",
        deadline_hours="The game's speed: one move per this many hours (0: no deadline)",
        timeout_policy="What happens at the deadline", vote_hours="How long a timeout vote stays open",
        max_reminders="Server: reminders per player per turn", backoff="Server: each reminder waits this "
        "many times longer", min_reminder_hours="Server: the shortest interval a game may set",
        daily_reminder_cap="Server: reminders per player per day", away_max_days="Server: longest vacation",
        away_pauses_deadlines="Server: vacations pause deadlines")
    @app_commands.choices(timeout_policy=[app_commands.Choice(name=p.replace("_", " "), value=p)
                                          for p in POLICIES])
    async def game_settings(
        self, interaction: discord.Interaction, server: bool = False,
        reminder_hours: app_commands.Range[float, 1.0, 336.0] | None = None,
        deadline_hours: app_commands.Range[float, 0.0, 1440.0] | None = None,
        timeout_policy: str | None = None,
        vote_hours: app_commands.Range[float, 1.0, 168.0] | None = None,
        max_reminders: app_commands.Range[int, 0, 10] | None = None,
        backoff: app_commands.Range[float, 1.0, 4.0] | None = None,
        min_reminder_hours: app_commands.Range[float, 1.0, 168.0] | None = None,
        daily_reminder_cap: app_commands.Range[int, 1, 48] | None = None,
        away_max_days: app_commands.Range[int, 1, 365] | None = None,
        away_pauses_deadlines: bool | None = None,
    ) -> None:
        """See or change reminders, deadlines and the timeout rule (this game, or the server)."""
        loc = locale_of(interaction)
        given = {k: v for k, v in {
            "reminder_hours": reminder_hours, "deadline_hours": deadline_hours,
            "timeout_policy": timeout_policy, "vote_hours": vote_hours, "max_reminders": max_reminders,
            "backoff": backoff, "min_reminder_hours": min_reminder_hours,
            "daily_reminder_cap": daily_reminder_cap, "away_max_days": away_max_days,
            "away_pauses_deadlines": away_pauses_deadlines}.items() if v is not None}
        guild = interaction.guild_id or 0
        if server or any(not SETTING_SPECS[k].per_game for k in given):
            if given and not is_admin(interaction):
                raise CommunityError("community.error.settings_admin")
            settings = (await self.community.update_settings(guild, given) if given
                        else await self.community.server_settings(guild))
            title = t("community.settings.server", loc)
            saved = t("community.settings.saved_server", loc) if given else None
        else:
            try:
                info = await self.service.game_in_channel(interaction.channel_id or 0)
            except errors.NoGameHere:
                if given:
                    raise
                settings = await self.community.server_settings(guild)
                embed = discord.Embed(title=t("community.settings.server", loc),
                                      description="\n".join(settings_lines(settings, loc)), colour=EMBED_COLOUR)
                await operations.reply(interaction, embed=embed)
                return
            if given and info.game.host_xid != interaction.user.id and not is_admin(interaction):
                raise CommunityError("community.error.settings_host")
            settings = (await self.community.update_settings(guild, given, game_id=info.id) if given
                        else await self.community.settings_for(info.id))
            title = t("community.settings.game", loc, game=info.id)
            saved = t("community.settings.saved_game", loc, game=info.id) if given else None
        embed = discord.Embed(title=title, description="\n".join(settings_lines(settings, loc)),
                              colour=EMBED_COLOUR)
        await operations.reply(interaction, saved, embed=embed, ephemeral=not given)

    @app_commands.describe(player="Whose finished games (default: this channel's games)")
    async def game_history(self, interaction: discord.Interaction, player: discord.User | None = None) -> None:
        """Finished games of this channel, or of a player on this server."""
        loc = locale_of(interaction)
        guild = interaction.guild_id or 0
        if player is not None:
            games = await self.community.history(guild, user_xid=player.id, limit=HISTORY_LIMIT)
            title = t("community.history.title.player", loc, player=player.display_name)
        else:
            games = await self.community.history(guild, channel_xid=interaction.channel_id,
                                                 limit=HISTORY_LIMIT)
            title = t("community.history.title.channel", loc)
        if not games:
            await operations.reply(interaction, t("community.history.none", loc))
            return
        lines = [self.history_line(info, loc) for info in games]
        embed = discord.Embed(title=title, description="\n".join(lines), colour=EMBED_COLOUR)
        embed.set_footer(text=t("community.history.hint", loc))
        await operations.reply(interaction, embed=embed)

    def history_line(self, info: GameInfo, loc: str) -> str:
        g = info.game
        if g.status == "abandoned" or not g.result:
            outcome = t("community.history.abandoned", loc)
        else:
            winners = [info.name(s["seat"]) for s in g.result.get("seats", []) if s.get("rank") == 1]
            outcome = t("community.history.winner", loc, players=", ".join(winners) or "-")
        return t("community.history.line", loc, game=g.id, title=game_title(g.kind, loc),
                 when=stamp(g.finished_at, "d"), result=outcome, players=", ".join(s.name for s in info.seats))

    @app_commands.describe(game="The game's number (#)", turn="After how many moves (default: the last)")
    async def game_replay(self, interaction: discord.Interaction, game: app_commands.Range[int, 1, None],
                          turn: app_commands.Range[int, 0, None] | None = None) -> None:
        """Show a game's board as it was after any move, rebuilt from its move log."""
        loc = locale_of(interaction)
        await operations.defer(interaction)
        frame = await self.community.replay(interaction.guild_id, game, turn)
        presenter = presenters.get(frame.info.game.kind)
        names = [s.name for s in frame.info.seats]
        image = await asyncio.to_thread(presenter.render_turn, frame.view, frame.seat, names)
        lines = [t("community.replay.caption", loc, game=game, turn=frame.turn, turns=frame.turns)
                 if frame.turn else t("community.replay.start", loc, game=game, turns=frame.turns)]
        if frame.summary is not None:
            key, params = frame.summary
            lines.append(t(key, loc, **params))
        if image is None:
            lines += presenter.status_lines(frame.view, loc, names) or [t("community.replay.no_picture", loc)]
        await operations.reply(interaction, "\n".join(lines), file_png=image)

    @app_commands.describe(game="The game's number (#)")
    async def game_export(self, interaction: discord.Interaction, game: app_commands.Range[int, 1, None]) -> None:
        """Download a finished game as JSON (options, seed, seats, moves, result)."""
        loc = locale_of(interaction)
        data = await self.community.export(interaction.guild_id, game)
        payload = json.dumps(data, indent=1, sort_keys=True).encode("utf-8")
        await self.reply_file(interaction, t("community.export.done", loc, game=game), payload,
                              EXPORT_NAME.format(game=game))

    async def reply_file(self, interaction: discord.Interaction, content: str, data: bytes, name: str) -> bool:
        """Answer with an attached file (operations.reply only attaches PNG pictures)."""
        try:
            file = discord.File(io.BytesIO(data), filename=name)
            if not interaction.response.is_done():
                await interaction.response.send_message(content, file=file, ephemeral=True)
            else:
                await interaction.followup.send(content, file=file, ephemeral=True)
            return True
        except discord.HTTPException as exc:
            log.warning("file reply to %s failed: %s %s", interaction.id, exc.status, exc.code)
            return False

    async def game_undo(self, interaction: discord.Interaction) -> None:
        """Ask to take back your last move; every other player must accept."""
        info = await self.service.game_in_channel(interaction.channel_id or 0)
        proposal = await self.community.propose_undo(info.id, interaction.user.id)
        key, params = proposal.summary
        move = t(key, "en", **params)
        if proposal.done:
            await operations.reply(interaction, t("community.undo.done", "en", user=mention(interaction.user.id)),
                                   ephemeral=False)
            await self._republish(info.id)
            return
        view = discord.ui.View(timeout=None)
        view.add_item(discord.ui.Button(label=t("community.undo.button.yes", "en"),
                                        style=discord.ButtonStyle.success,
                                        custom_id=undo_id(info.id, proposal.version, True)))
        view.add_item(discord.ui.Button(label=t("community.undo.button.no", "en"),
                                        style=discord.ButtonStyle.danger,
                                        custom_id=undo_id(info.id, proposal.version, False)))
        view.stop()
        text = t("community.undo.proposal", "en", user=mention(interaction.user.id), move=move,
                 voters=" ".join(mention(v) for v in proposal.voters))
        await operations.reply(interaction, text, ephemeral=False, view=view,
                               mentions=operations.mentions_of(proposal.voters))
        try:
            message = await interaction.original_response()
            await self.community.set_undo_message(info.id, proposal.version, interaction.channel_id, message.id)
        except discord.HTTPException as exc:
            log.info("could not read the undo proposal message: %s", exc.code)

    @app_commands.describe(game="The game's number (default: this channel's game)")
    async def game_follow(self, interaction: discord.Interaction,
                          game: app_commands.Range[int, 1, None] | None = None) -> None:
        """Follow a game: you are mentioned on its turns and at its end."""
        info = await self._channel_game(interaction, game)
        await self.community.follow(interaction.guild_id, info.id, interaction.user.id)
        await operations.reply(interaction, t("community.follow.done", locale_of(interaction), game=info.id))

    @app_commands.describe(game="The game's number (default: this channel's game)")
    async def game_unfollow(self, interaction: discord.Interaction,
                            game: app_commands.Range[int, 1, None] | None = None) -> None:
        """Stop following a game."""
        info = await self._channel_game(interaction, game)
        await self.community.unfollow(interaction.guild_id, info.id, interaction.user.id)
        await operations.reply(interaction, t("community.unfollow.done", locale_of(interaction), game=info.id))

    # =========================================================================================
    # /league
    # =========================================================================================
    async def _league_names(self, interaction: discord.Interaction,
                            current: str) -> list[app_commands.Choice[str]]:
        leagues = await self.community.leagues(interaction.guild_id or 0)
        return [app_commands.Choice(name=lg.name, value=lg.name) for lg, _ in leagues
                if current.lower() in lg.name.lower()][:25]

    @league.command(name="create")
    @app_commands.describe(
        name="The league's name", game="Which game it is for",
        mode="Only games of this mode or variant count (leave empty: any)",
        rated="Show ratings (some communities prefer no public rankings)",
        forfeits="A resignation counts as a loss, or the game is not counted",
        abandoned="An abandoned game is not counted, or counts as a shared place",
        season_days="How long the first season lasts, in days")
    @app_commands.choices(
        game=game_choices(),
        forfeits=[app_commands.Choice(name="count as a loss", value="loss"),
                  app_commands.Choice(name="do not count the game", value="ignore")],
        abandoned=[app_commands.Choice(name="do not count the game", value="ignore"),
                   app_commands.Choice(name="shared place for all", value="draw")])
    async def league_create(self, interaction: discord.Interaction, name: str, game: str,
                            mode: str | None = None, rated: bool = False, forfeits: str = "loss",
                            abandoned: str = "ignore",
                            season_days: app_commands.Range[int, 1, 3660] = 90) -> None:
        """Create a league for a game (server managers)."""
        if not is_admin(interaction):
            raise CommunityError("community.error.league_admin")
        loc = locale_of(interaction)
        league = await self.community.create_league(
            interaction.guild_id or 0, name, game, mode=mode, rated=rated, forfeits=forfeits,
            abandoned=abandoned, season_days=season_days, created_by=interaction.user.id)
        season = await self.community.season(league)
        await operations.reply(interaction, t("community.league.created", loc, name=league.name,
                                              title=game_title(game, loc), ends=stamp(season.ends_at)),
                               ephemeral=False)

    @league_create.autocomplete("mode")
    async def _mode_autocomplete(self, interaction: discord.Interaction,
                                 current: str) -> list[app_commands.Choice[str]]:
        try:
            rules = games.rules(str(getattr(interaction.namespace, "game", "")))
        except errors.GameError:
            return []
        if not rules.option_specs:
            return []
        return [app_commands.Choice(name=c, value=c) for c in rules.option_specs[0].choices
                if current.lower() in c.lower()][:25]

    @league.command(name="join")
    @app_commands.describe(name="Which league")
    async def league_join(self, interaction: discord.Interaction, name: str) -> None:
        """Join a league: your finished games against other members count."""
        league = await self.community.join_league(interaction.guild_id or 0, name, interaction.user.id,
                                                  interaction.user.display_name)
        await operations.reply(interaction, t("community.league.joined", locale_of(interaction),
                                              name=league.name))

    @league.command(name="leave")
    @app_commands.describe(name="Which league")
    async def league_leave(self, interaction: discord.Interaction, name: str) -> None:
        """Leave a league (your counted games stay in its history)."""
        league = await self.community.leave_league(interaction.guild_id or 0, name, interaction.user.id)
        await operations.reply(interaction, t("community.league.left", locale_of(interaction), name=league.name))

    @league.command(name="season")
    @app_commands.describe(name="Which league", days="How long the new season lasts, in days")
    async def league_season(self, interaction: discord.Interaction, name: str,
                            days: app_commands.Range[int, 1, 3660] = 90) -> None:
        """Start a new season now; the running one ends (server managers)."""
        if not is_admin(interaction):
            raise CommunityError("community.error.league_admin")
        season = await self.community.new_season(interaction.guild_id or 0, name, days)
        league = await self.community.league(interaction.guild_id or 0, name)
        await operations.reply(interaction, t("community.league.season", locale_of(interaction),
                                              name=league.name, number=season.number,
                                              ends=stamp(season.ends_at)), ephemeral=False)

    @league.command(name="edit")
    @app_commands.describe(name="Which league", rated="Show ratings", forfeits="How resignations count",
                           abandoned="How abandoned games count")
    @app_commands.choices(
        forfeits=[app_commands.Choice(name="count as a loss", value="loss"),
                  app_commands.Choice(name="do not count the game", value="ignore")],
        abandoned=[app_commands.Choice(name="do not count the game", value="ignore"),
                   app_commands.Choice(name="shared place for all", value="draw")])
    async def league_edit(self, interaction: discord.Interaction, name: str, rated: bool | None = None,
                          forfeits: str | None = None, abandoned: str | None = None) -> None:
        """Change a league's rules (server managers)."""
        if not is_admin(interaction):
            raise CommunityError("community.error.league_admin")
        league = await self.community.edit_league(interaction.guild_id or 0, name, rated=rated,
                                                  forfeits=forfeits, abandoned=abandoned)
        await operations.reply(interaction, t("community.league.edited", locale_of(interaction),
                                              name=league.name))

    @league.command(name="list")
    async def league_list(self, interaction: discord.Interaction) -> None:
        """The leagues of this server."""
        loc = locale_of(interaction)
        leagues = await self.community.leagues(interaction.guild_id or 0)
        if not leagues:
            await operations.reply(interaction, t("community.league.list.none", loc))
            return
        lines = []
        for lg, members in leagues[:LIST_LIMIT]:
            lines.append(t("community.league.list.line", loc, name=lg.name, title=game_title(lg.kind, loc),
                           mode=f" ({lg.mode})" if lg.mode else "", members=members,
                           rated=t("community.league.rated", loc) if lg.rated else ""))
        embed = discord.Embed(title=t("community.league.list.title", loc), description="\n".join(lines),
                              colour=EMBED_COLOUR)
        await operations.reply(interaction, embed=embed)

    @league.command(name="table")
    @app_commands.describe(name="Which league", season="Season number (default: the running one)")
    async def league_table(self, interaction: discord.Interaction, name: str,
                           season: app_commands.Range[int, 1, None] | None = None) -> None:
        """The standings, as a picture and as text."""
        loc = locale_of(interaction)
        await operations.defer(interaction, ephemeral=False)
        table = await self.community.table(interaction.guild_id or 0, name, season)
        embed = self.table_embed(table, loc)
        image = await asyncio.to_thread(standings_png, table, loc)
        await operations.reply(interaction, embed=embed, file_png=image, ephemeral=False)

    def table_embed(self, table: Table, loc: str) -> discord.Embed:
        lines = [self.standing_line(i + 1, s, table.league.rated, loc) for i, s in enumerate(table.standings)]
        embed = discord.Embed(title=t("community.league.title", loc, name=table.league.name,
                                      number=table.season.number),
                              description="\n".join(lines[:LIST_LIMIT]) or t("community.league.empty", loc),
                              colour=EMBED_COLOUR)
        embed.set_footer(text=t("community.league.footer", loc, games=table.games,
                                title=game_title(table.league.kind, loc)))
        return embed

    @staticmethod
    def standing_line(position: int, s: Standing, rated: bool, loc: str) -> str:
        if rated:
            return t("community.league.line.rated", loc, pos=position, player=s.name, rating=f"{s.ordinal:.1f}",
                     wins=s.wins, games=s.games)
        return t("community.league.line.unrated", loc, pos=position, player=s.name, wins=s.wins, games=s.games,
                 place=f"{s.average_place:.2f}" if s.games else "-")

    @league.command(name="player")
    @app_commands.describe(name="Which league", player="Whose profile (default: yours)",
                           season="Season number (default: the running one)")
    async def league_player(self, interaction: discord.Interaction, name: str,
                            player: discord.User | None = None,
                            season: app_commands.Range[int, 1, None] | None = None) -> None:
        """A player's place, rating and counted games in a league."""
        loc = locale_of(interaction)
        user = player or interaction.user
        profile = await self.community.profile(interaction.guild_id or 0, name, user.id, season)
        title = t("community.league.profile.title", loc, player=user.display_name, name=profile.league.name,
                  number=profile.season.number)
        s = profile.standing
        if s is None or not s.games:
            await operations.reply(interaction, t("community.league.profile.none", loc,
                                                  player=user.display_name))
            return
        rating = t("community.league.profile.rating", loc, rating=f"{s.ordinal:.1f}") if profile.league.rated else ""
        lines = [t("community.league.profile.summary", loc, pos=profile.position, wins=s.wins, games=s.games,
                   rating=rating)]
        for h in profile.history[:HISTORY_LIMIT]:
            lines.append(t("community.league.profile.line", loc, game=h["game"], when=stamp(h["finished_at"], "d"),
                           rank=h["rank"], players=h["players"]))
        embed = discord.Embed(title=title, description="\n".join(lines), colour=EMBED_COLOUR)
        await operations.reply(interaction, embed=embed)

    for _cmd in (league_join, league_leave, league_season, league_edit, league_table, league_player):
        _cmd.autocomplete("name")(_league_names)
    del _cmd


async def setup(bot: CityBot) -> None:
    await bot.add_cog(CommunityCog(bot))
