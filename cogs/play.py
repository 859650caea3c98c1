"""The one way into a move from Discord: every door (a move button or menu, a game's own step button,
a typed slash command) calls :func:`play`.

1. Acknowledge the interaction (:func:`cogs.operations.defer`). If Discord refused it, the player
   was shown a failure: nothing is played.
2. The move: given, or read only now (a typed command parses its text against the choices of the
   moment, after the acknowledgement, so Discord's 3 seconds are never spent on it).
3. :meth:`bot.service.Service.move`; once it is committed, a move made from a private menu starts
   the player's acknowledgement (the menu becomes the move's sentence).
4. The turn flow (:meth:`bot.turnflow.TurnFlow.after_move`): a step or a whole turn, announced,
   settled, the AI scheduled.
"""

from __future__ import annotations

import asyncio
import json
import logging
from collections.abc import Awaitable, Callable, Mapping
from typing import TYPE_CHECKING, Any

import discord

from bot import errors
from bot.i18n import t
from bot.service import MoveOutcome, Snapshot
from cogs import limits, operations, presenters
from cogs.common import Origin, locale_of, shown_params

if TYPE_CHECKING:
    from cogs.app import CityBot

log = logging.getLogger(__name__)

MoveSource = dict[str, Any] | Callable[[], Awaitable[dict[str, Any]]]
"""A move, or how to read it once the interaction is acknowledged."""


def choice_value(move: Mapping[str, Any]) -> str:
    """A move offered in a typed command's autocomplete: its JSON, which :func:`typed_move` reads back."""
    return json.dumps(move, separators=(",", ":"))


def typed_move(text: str, pick: Callable[[str], Mapping[str, Any] | None]) -> dict[str, Any] | None:
    """The move typed in a slash command: an autocomplete value (:func:`choice_value`) as it stands, else the
    move the game's ``pick`` reads in the words (given stripped); None when neither reads one. The service
    checks it against the choices of the moment either way."""
    text = text.strip()
    try:
        value = json.loads(text)
        if isinstance(value, dict) and "kind" in value:
            return value
    except ValueError:
        pass
    picked = pick(text)
    return None if picked is None else dict(picked)


async def play(
    bot: CityBot,
    interaction: discord.Interaction,
    game_id: int,
    move: MoveSource,
    *,
    update: bool,
    expected_version: int | None = None,
    token: str | None = None,
    answer: Callable[[MoveOutcome], Awaitable[None]] | None = None,
) -> MoveOutcome | None:
    """Play ``move`` for the interaction's user in ``game_id``; None when nothing was played.

    ``update``: a component (its message is kept, the acknowledgement is a deferred update); else a
    slash command (a private "thinking..." answer). ``expected_version`` and ``token``: what the
    button was offered at (a stale one gets the player's current choices, or the reason).
    ``answer``: the command's own sentence about the committed move, before the turn flow runs.
    """
    loc = locale_of(interaction)
    ephemeral = bool(update and interaction.message and interaction.message.flags.ephemeral)
    if not await operations.defer(interaction, update=update):
        # Discord refused the first answer (too late, or already answered): the player was shown
        # a failure, so the action must not count.
        log.info("interaction %s on game %s not played: Discord refused its acknowledgement", interaction.id, game_id)
        return None
    chosen = move if isinstance(move, dict) else await move()
    origin = Origin(interaction, loc, ephemeral)

    def committed(outcome: MoveOutcome) -> None:
        # The player hears back once the move is committed, without waiting for the bookkeeping
        # that follows it (reminders, undo): on the load bench, about 70 ms sooner at the median.
        origin.acknowledging = asyncio.ensure_future(acknowledge_now(origin, outcome))
        origin.made = outcome.snapshot

    try:
        outcome = await bot.service.move(
            game_id, interaction.user.id, chosen, expected_version=expected_version, token=token, on_committed=committed
        )
    except errors.StaleAction as exc:
        if expected_version is None:
            raise
        # An out-of-date menu: a player who may act now gets their current choices (a lost
        # private menu, say); anyone else is told why nothing happened.
        if not await send_private_choices(bot, interaction, game_id, loc, intro=t("play.current_choices", loc)):
            await operations.reply(interaction, limits.refusal(exc, loc))
        return None
    if answer is not None:
        await answer(outcome)
    problem = await turn_flow(bot, outcome, origin)
    if problem is not None:
        await operations.reply(interaction, t(problem, loc))
    return outcome


async def turn_flow(bot: CityBot, outcome: MoveOutcome, origin: Origin | None = None) -> str | None:
    """What follows a committed move, for every Discord door (``origin``: the click that made it; None:
    nobody's, a deadline's AI move): the catalogue id of what went wrong posting it, or None."""
    return await bot.flow.after_move(outcome, origin)


async def acknowledge_now(origin: Origin, outcome: MoveOutcome) -> None:
    """A move made from a private menu: the menu becomes the move's sentence."""
    if origin.ephemeral:
        key, params = outcome.summary
        shown = shown_params(params, [s.name for s in outcome.info.seats])
        await operations.edit_original(
            origin.interaction, content=t(key, origin.locale, **shown), view=None, attachments=[]
        )


async def send_private_choices(
    bot: CityBot,
    interaction: discord.Interaction,
    game_id: int,
    loc: str,
    intro: str | None = None,
    made: Snapshot | None = None,
) -> bool:
    """The player's current choices in an ephemeral message; False if they have none now. ``made``: the snapshot of
    the move the player just made (not read again while the game is still there: :meth:`Service.private_choices`)."""
    seat, moves, token, snap = await bot.service.private_choices(game_id, interaction.user.id, made)
    if not moves:
        return False
    info = snap.info
    private = snap.view(seat)
    shown = presenters.get(info.game.kind)
    prompt = shown.prompt(moves, private, loc)
    await operations.reply(
        interaction,
        f"{intro}\n{prompt}" if intro else prompt,
        view=shown.controls(info.id, snap.version, token, moves, private, loc),
    )
    return True
