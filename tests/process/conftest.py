"""Whole-process tests: the real bot (``python -m bot`` through :mod:`bot.testing.entry`, which adds
the toy game) as a child process against the fake Discord, driven by injected gateway events.

Helpers here play the toy game ("Sealed Bids": two seats bid secretly, three rounds) by clicks,
read the bot's SQLite store directly (the store is the truth the tests check), and tell whether a
click was *acknowledged* to its player: the bot edited the private message to the move's summary
("Alice has bid." / "Bids revealed: 3 against 1.") only after the move committed.
"""

from __future__ import annotations

import asyncio
import json
import sqlite3
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from bot.testing.fakediscord.payloads import FakeMessage
from bot.testing.fakediscord.server import FakeDiscord, InteractionHandle, Sent
from tests.fakediscord.fixtures import BotProcess, BotProcessFactory, bot_process, fake_discord

__all__ = ["bot_process", "fake_discord"]

ENTRY = "bot.testing.entry:main"
BASE_ENV = {"AI_PAUSE_SECONDS": "0", "PROCESS_POST_BACKOFF": "0.1", "ANALYSIS_WORKERS": "0"}
"""The toy game's bots weigh no finished game (tests/process/test_analysis.py runs the analysis's own workers)."""
WAIT = 15.0
"""Generous waits: the machine is shared; the tests assert on what happened, never on how fast."""

ACK_MARKERS = (" has bid.", "Bids revealed:")
STALE = "That button is from an earlier turn"
NOT_YOUR_TURN = "It is not your turn."
NOT_PLAYING = "You are not playing in this game."
FORGED = "I could not read that button."


@pytest.fixture
async def toy_bot(bot_process: BotProcessFactory) -> BotProcess:
    """The real bot process with the toy game, AI pause 0, READY."""
    return await bot_process(entry=ENTRY, env=BASE_ENV)


# --------------------------------------------------------------------------------------------------
# The store, read from the test process (sqlite3; the bot writes in WAL mode)
# --------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class StoredMove:
    game_id: int
    version: int
    seat: int
    move: dict[str, Any]
    actor_xid: int | None


class StoreReader:
    """Read-only queries on the bot's database file."""

    def __init__(self, path: Path) -> None:
        self.path = path

    def _rows(self, sql: str, params: Iterable[Any] = ()) -> list[tuple[Any, ...]]:
        db = sqlite3.connect(f"file:{self.path}?mode=ro", uri=True, timeout=10)
        try:
            return list(db.execute(sql, tuple(params)).fetchall())
        finally:
            db.close()

    def integrity(self) -> str:
        return str(self._rows("PRAGMA integrity_check")[0][0])

    def game(self, game_id: int) -> dict[str, Any]:
        rows = self._rows(
            "SELECT id, status, version, channel_xid, result, turn_message_xid, kind, options,"
            " seed FROM games WHERE id = ?",
            (game_id,),
        )
        assert rows, f"game {game_id} is not in the store"
        gid, status, version, channel_xid, result, turn, kind, options, seed = rows[0]
        return {
            "id": gid,
            "status": status,
            "version": version,
            "channel_xid": channel_xid,
            "result": json.loads(result) if result else None,
            "turn_message_xid": turn,
            "kind": kind,
            "options": json.loads(options),
            "seed": seed,
        }

    def moves(self, game_id: int | None = None) -> list[StoredMove]:
        rows = self._rows(
            "SELECT game_id, version, seat, move, actor_xid FROM moves"
            " WHERE (? IS NULL OR game_id = ?) AND undone_at IS NULL ORDER BY game_id, version",
            (game_id, game_id),
        )
        return [StoredMove(r[0], r[1], r[2], json.loads(r[3]), r[4]) for r in rows]

    def snapshot_state(self, game_id: int) -> dict[str, Any] | None:
        rows = self._rows("SELECT state FROM snapshots WHERE game_id = ?", (game_id,))
        return dict(json.loads(rows[0][0])) if rows else None

    def snapshot_version(self, game_id: int) -> int | None:
        rows = self._rows("SELECT version FROM snapshots WHERE game_id = ?", (game_id,))
        return int(rows[0][0]) if rows else None


def store_of(bp: BotProcess) -> StoreReader:
    return StoreReader(bp.db_path)


# --------------------------------------------------------------------------------------------------
# Playing the toy game by clicks
# --------------------------------------------------------------------------------------------------


@dataclass
class Table:
    """One toy game in one channel, between ``host`` and ``guest``."""

    channel: str
    game_id: int
    host: str
    guest: str
    lobby: InteractionHandle

    @property
    def players(self) -> tuple[str, str]:
        return (self.host, self.guest)


def ids_of(message: FakeMessage) -> list[str]:
    return [c["custom_id"] for row in message.components for c in row.get("components", []) if "custom_id" in c]


def text_of(sent: Iterable[Sent]) -> str:
    return "\n".join(s.content or "" for s in sent)


async def start_toy(fake: FakeDiscord, channel: str = "games", host: str = "alice", guest: str = "bob") -> Table:
    """/game new toy, Join by button, Start by button; waits for the first turn message."""
    lobby = await fake.slash("game", "new", game="toy", user=host, channel=channel)
    sent = await lobby.response(WAIT)
    join_id = next(c for c in sent.custom_ids if c.endswith(":join"))
    game_id = int(join_id.split(":")[1])
    await (await fake.click(lobby, join_id, user=guest)).response(WAIT)
    await (await fake.click(lobby, f"lobby:{game_id}:start", user=host)).response(WAIT)
    table = Table(channel, game_id, host, guest, lobby)
    await wait_turn(fake, table, 0)
    await fake.wait_until(lambda: status_message(fake, table), WAIT, f"the status message in #{channel}")
    return table


def status_message(fake: FakeDiscord, table: Table) -> FakeMessage | None:
    """The game's status message (an embed saying whom the game waits for), once posted."""
    title = f"game #{table.game_id}"
    for m in public_messages(fake, table.channel):
        if m.interaction_id is None and any(title in (e.get("title") or "") for e in m.embeds):
            return m
    return None


def turn_messages(fake: FakeDiscord, table: Table) -> list[FakeMessage]:
    """The channel messages that carry this game's public "Open my choices" button, oldest first."""
    prefix = f"open:{table.game_id}:"
    return [m for m in fake.messages(table.channel) if not m.ephemeral and any(i.startswith(prefix) for i in ids_of(m))]


def public_messages(fake: FakeDiscord, channel: str) -> list[FakeMessage]:
    """What everyone sees in a channel (no ephemeral messages), oldest first."""
    return [m for m in fake.messages(channel) if not m.ephemeral]


async def wait_turn(fake: FakeDiscord, table: Table, version: int, seconds: float = WAIT) -> FakeMessage:
    """Wait for the turn message posted for ``version`` (its button is ``open:<game>:<version>``)."""
    wanted = f"open:{table.game_id}:{version}"
    return await fake.wait_until(
        lambda: next((m for m in reversed(turn_messages(fake, table)) if wanted in ids_of(m)), None),
        seconds,
        f"the turn message {wanted} in #{table.channel}",
    )


async def open_choices(
    fake: FakeDiscord, table: Table, user: str, turn: FakeMessage | None = None
) -> InteractionHandle:
    """Click "Open my choices" (on ``turn`` or the newest turn message); returns the handle whose
    ephemeral answer holds the player's bid buttons."""
    message = turn or turn_messages(fake, table)[-1]
    open_id = next(i for i in ids_of(message) if i.startswith("open:"))
    handle = await fake.click(message, open_id, user=user)
    sent = await handle.response(WAIT)
    assert sent.ephemeral, sent
    return handle


def bid_id(opened: InteractionHandle, card: int) -> str:
    """The custom_id of the bid button for ``card`` on a private choices message."""
    callback = opened.callback
    assert callback is not None
    for cid in callback.custom_ids:
        if cid.startswith("mv:") and json.loads(cid.split(":", 4)[4]).get("card") == card:
            return cid
    raise AssertionError(f"no button for card {card} in {callback.custom_ids}")


def acknowledged(handle: InteractionHandle) -> bool:
    """Whether the bot told the clicker their move was played (the summary edit)."""
    return any(s.kind == "edit" and any(m in (s.content or "") for m in ACK_MARKERS) for s in handle.sent)


def refusal(handle: InteractionHandle) -> str | None:
    """The ephemeral sentence the bot answered a refused click with, if any."""
    for s in handle.sent:
        if s.kind in ("followup", "callback") and s.ephemeral and s.content:
            return s.content
    return None


async def wait_answered(fake: FakeDiscord, handles: Iterable[InteractionHandle]) -> None:
    """Wait until every click was either acknowledged or refused with a sentence."""
    pending = list(handles)
    await fake.wait_until(
        lambda: all(acknowledged(h) or refusal(h) for h in pending), WAIT, "every click to be acknowledged or refused"
    )


async def bid(fake: FakeDiscord, table: Table, user: str, card: int) -> InteractionHandle:
    """Open the newest turn message's choices and bid ``card``; waits for the acknowledgement."""
    opened = await open_choices(fake, table, user)
    handle = await fake.click(opened, bid_id(opened, card), user=user)
    await fake.wait_until(lambda: acknowledged(handle) or refusal(handle), WAIT, f"{user}'s bid")
    assert acknowledged(handle), refusal(handle)
    return handle


async def poll(predicate: Callable[[], object], what: str, seconds: float = WAIT) -> None:
    """Wait for something the fake is not woken by (the store, or the end of the bot's follow-ups)."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + seconds
    while not predicate():
        assert loop.time() < deadline, f"timed out after {seconds}s waiting for {what}"
        await asyncio.sleep(0.05)


def user_id(fake: FakeDiscord, name: str) -> int:
    return fake.user(name).id
