"""The reminder loop (``cogs.community``) across ``kill -9``: a reminder recorded but not yet sent
when the bot dies is sent after the restart, once, with the same nonce; and it is not repeated."""

from __future__ import annotations

import sqlite3
from pathlib import Path

from bot.testing.fakediscord.server import FakeDiscord, RecordedRequest
from tests.fakediscord.fixtures import BotProcessFactory
from tests.process.conftest import BASE_ENV, ENTRY, WAIT, bid, poll, public_messages, start_toy, wait_turn

HOUR_MS = 3_600_000
REMINDER = "has been waiting for you since"
LAST = "you are the last to choose"
FIRST_PASS_SECONDS = 20.0  # after READY: on_ready (about 2 s), then the loop's first pass


def outbox(db_path: Path, kind: str, user_xid: int) -> list[tuple[str, str, int]]:
    """(status, nonce, attempts) of the community outbox rows of one kind for one player."""
    db = sqlite3.connect(f"file:{db_path}?mode=ro", uri=True, timeout=10)
    try:
        return [
            (r[0], r[1], int(r[2]))
            for r in db.execute(
                "SELECT status, nonce, attempts FROM community_outbox WHERE kind = ? AND user_xid = ? ORDER BY id",
                (kind, user_xid),
            )
        ]
    finally:
        db.close()


def heartbeat(db_path: Path) -> str | None:
    """The loop's heartbeat (written at the end of every pass)."""
    db = sqlite3.connect(f"file:{db_path}?mode=ro", uri=True, timeout=10)
    try:
        row = db.execute("SELECT value FROM community_meta WHERE key = 'heartbeat'").fetchone()
        return None if row is None else str(row[0])
    finally:
        db.close()


async def test_reminder_claimed_before_kill9_is_sent_once_after_restart(
    fake_discord: FakeDiscord, bot_process: BotProcessFactory, tmp_path: Path
) -> None:
    """Bob is awaited for 13 hours (the bot's clock is moved): the reminder is recorded and its post
    is in flight when the bot is killed; after the restart it is posted with the same nonce (Discord
    keeps one message per nonce), confirmed in the store, and a later pass does not repeat it."""
    fake = fake_discord
    clock = tmp_path / "clock-offset-ms"
    clock.write_text("0")
    bp = await bot_process(entry=ENTRY, env={**BASE_ENV, "PROCESS_CLOCK_FILE": str(clock)})
    table = await start_toy(fake, "games", "alice", "bob")
    other = await start_toy(fake, "general", "carol", "dave")
    await bid(fake, table, "alice", 3)
    await fake.wait_until(
        lambda: any(LAST in m.content for m in public_messages(fake, "games")),
        WAIT,
        "the notice that Bob is the last to choose",
    )

    games_id = fake.channel("games").id
    bob = fake.user("bob").id

    def reminder_post(rec: RecordedRequest) -> bool:
        return (
            rec.method == "POST"
            and rec.path == f"/channels/{games_id}/messages"
            and REMINDER in str((rec.json or {}).get("content"))
        )

    hold = fake.delay(reminder_post, 600.0)  # Discord never answers the first reminder post
    clock.write_text(str(13 * HOUR_MS))
    await bid(fake, other, "carol", 3)  # any move: a loop pass follows soon
    await fake.wait_until(lambda: hold.hits, WAIT, "the reminder post")
    claimed = outbox(bp.db_path, "reminder", bob)
    assert [c[0] for c in claimed] == ["claimed"], claimed
    await bp.kill()

    await bp.restart()
    posted = await fake.wait_until(
        lambda: [m for m in public_messages(fake, "games") if REMINDER in m.content],
        FIRST_PASS_SECONDS,
        "the reminder after the restart",
    )
    assert len(posted) == 1 and f"<@{bob}>" in posted[0].content
    requests = fake.requests_matching(reminder_post)
    assert len(requests) == 2
    assert requests[0].json["nonce"] == requests[1].json["nonce"] == claimed[0][1]
    assert all(r.json.get("enforce_nonce") is True for r in requests)
    await poll(lambda: [c[0] for c in outbox(bp.db_path, "reminder", bob)] == ["sent"], "the confirmation")

    beat = heartbeat(bp.db_path)
    await bid(fake, other, "dave", 1)  # another pass, same time: nothing more is due for Bob
    await wait_turn(fake, other, 2)
    await poll(lambda: heartbeat(bp.db_path) != beat, "a loop pass after the restart's first one")
    assert len([m for m in public_messages(fake, "games") if REMINDER in m.content]) == 1
    assert len(outbox(bp.db_path, "reminder", bob)) == 1
