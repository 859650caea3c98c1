"""/game forget-me leaves a player's Discord id and name nowhere in the database.

Two checks over the real schema (every migration applied to a fresh store):

1. **By name.** Every column whose name says it can hold a Discord id or a person's name (the rule
   :func:`looks_personal`) is either cleared by forget-me (the composition root's
   ``App.personal_columns``: the service's and each feature's declaration) or on the reviewed
   allow-list :data:`NOT_PERSONAL` below. A new table or column with a personal id fails here until
   a feature forgets it (or a reviewer adds it to the allow-list, with a reason).
2. **By content.** One player gets a realistic history (a finished league game, a game in play with
   their moves, an undo proposal, timeout votes as the late player and as a voter, reminders and DMs,
   preferences, a vacation, a followed game, leagues, a Between Two Cities campaign); after
   forget-me, no row of any table, in any column, holds their id (as a number, or inside text or
   JSON) or their name. The count forget-me answers with is the number of rows it changed.
"""

from __future__ import annotations

import re
import sqlite3
from collections.abc import Iterable
from pathlib import Path
from typing import Any

import pytest

from bot.composition import App, compose
from bot.rules.btc.rules import RULES as BTC
from bot.service import Service
from bot.store import Store
from tests.conftest import FakeClock

GUILD = 700_000_000_000_000_001
USER = 731_234_567_890_123_457
"""The player who asks to be forgotten (a realistic 18-digit snowflake, so a text search is exact)."""
NAME = "Zephyrine"
BEA, CEM = 731_234_567_890_000_202, 731_234_567_890_000_303
NAMES = {USER: NAME, BEA: "Bea", CEM: "Cem"}

PERSONAL_NAME = re.compile(r"(_xid$|^user|name|proposer|host|voter|actor|created_by|owner|member|player|author)")
"""The rule: a column whose name matches may hold a Discord id or a person's name."""

NOT_PERSONAL = {
    # Where things are, not who: servers, channels and the bot's own messages.
    "games.guild_xid",
    "games.channel_xid",
    "games.lobby_message_xid",
    "games.status_message_xid",
    "games.turn_message_xid",
    "guild_settings.guild_xid",
    "community_away.guild_xid",
    "clock_aways.guild_xid",
    "community_waits.guild_xid",
    "community_waits.channel_xid",
    "community_outbox.guild_xid",
    "community_outbox.channel_xid",
    "community_outbox.message_xid",
    "community_votes.message_xid",
    "community_undo.message_xid",
    "community_undo.channel_xid",
    "community_leagues.guild_xid",
    "btc_campaigns.guild_xid",
    "btc_campaigns.game_channel_xid",
    # Forget-me's own record of the bot's posts and of the edits it plans (migration 010): where the
    # bot's messages are, never who asked (bot.community.erasure).
    "game_posts.message_xid",
    "game_posts.channel_xid",
    "privacy_edits.message_xid",
    "privacy_edits.channel_xid",
    # A league's own name, chosen by a server manager for the league (not a person's).
    "community_leagues.name",
}
"""Reviewed: columns the rule flags that never hold a player's id or name."""


def looks_personal(column: str) -> bool:
    return PERSONAL_NAME.search(column) is not None


def columns(conn: sqlite3.Connection) -> dict[str, list[str]]:
    """Every table of the schema (sqlite_master) with its columns (PRAGMA table_info)."""
    tables = [
        r[0]
        for r in conn.execute(
            "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name"
        )
    ]
    return {t: [r[1] for r in conn.execute(f"PRAGMA table_info({t})")] for t in tables}


def unhandled(conn: sqlite3.Connection, handled: Iterable[str]) -> list[str]:
    """Columns the rule flags that forget-me does not clear and nobody reviewed as not personal."""
    known = set(handled) | NOT_PERSONAL
    return [
        f"{t}.{c}" for t, cols in columns(conn).items() for c in cols if looks_personal(c) and f"{t}.{c}" not in known
    ]


def leaks(conn: sqlite3.Connection, user_xid: int, name: str) -> list[str]:
    """Every cell of every table that holds the id (a number, or inside text / JSON) or the name."""
    found = []
    for table, cols in columns(conn).items():
        for row in conn.execute(f"SELECT * FROM {table}"):
            for col, value in zip(cols, row):
                if (isinstance(value, int) and value == user_xid) or (
                    isinstance(value, str) and (str(user_xid) in value or name in value)
                ):
                    found.append(f"{table}.{col} = {str(value)[:80]!r}")
    return found


def rows(conn: sqlite3.Connection) -> dict[str, list[tuple[Any, ...]]]:
    return {t: sorted(conn.execute(f"SELECT * FROM {t}").fetchall(), key=repr) for t in columns(conn)}


def rows_changed(before: dict[str, list[tuple[Any, ...]]], after: dict[str, list[tuple[Any, ...]]]) -> int:
    """Rows of ``before`` that are gone or different in ``after`` (rows added are not counted)."""
    changed = 0
    for table, old in before.items():
        remaining = list(after.get(table, []))
        for row in old:
            if row in remaining:
                remaining.remove(row)
            else:
                changed += 1
    return changed


# -- a realistic history ------------------------------------------------------------------------
async def toy_game(service: Service, channel: int, host: int, guest: int) -> int:
    info = await service.create_game(
        guild_xid=GUILD, channel_xid=channel, kind="toy", options={}, host_xid=host, host_name=NAMES[host]
    )
    await service.join(info.id, guest, NAMES[guest])
    await service.start(info.id, host)
    return info.id


async def bid(service: Service, game_id: int, user: int, card: int) -> None:
    await service.move(game_id, user, {"kind": "bid", "card": card})


async def loop(app: App, clock: FakeClock, hours: float) -> None:
    """Run the reminder loop every quarter hour for ``hours``, confirming every action as sent."""
    for _ in range(int(hours * 4)):
        clock.advance(900)
        for action in await app.reminders.run_due(clock.now_ms()):
            if action.kind == "ai_move":
                await app.reminders.execute_ai(action)
            else:
                await app.reminders.mark_sent(action.id, message_xid=50_000 + action.id)


async def campaign_game(app: App) -> None:
    """A Between Two Cities campaign with its first game played to the end."""
    await app.campaigns.start(USER, length=3, difficulty=4, mode="simple", guild_xid=GUILD)
    _, info = await app.campaigns.open_next(USER, NAME, guild_xid=GUILD, channel_xid=90)
    await app.service.start(info.id, USER)
    for step in range(200):
        state = (await app.service.snapshot(info.id)).state
        if state.phase == "bonus":
            break
        await app.service.move(info.id, USER, BTC.ai_move(state, 0, "greedy", step))
    _, _, moves, _ = await app.service.choices(info.id, USER)
    await app.service.move(info.id, USER, next(m for m in moves if m["kind"] == "bonus"))
    assert (await app.service.info(info.id)).game.status == "finished"


async def history(app: App, clock: FakeClock) -> None:
    service = app.service
    await app.preferences.set_prefs(USER, timezone_name="Europe/Budapest", dm_reminders=True, dm_turns=True)
    await app.preferences.update_settings(GUILD, {"deadline_hours": 30, "reminder_hours": 2})
    # A league the player created and plays in; a finished game between members counts.
    await app.leagues.create_league(GUILD, "Bids", "toy", rated=True, created_by=USER)
    for user in (USER, BEA):
        await app.leagues.join_league(GUILD, "Bids", user, NAMES[user])
    league_game = await toy_game(service, 1, USER, BEA)
    for card in (3, 2, 1):
        await bid(service, league_game, USER, card)
        await bid(service, league_game, BEA, 4 - card if card != 2 else 2)
    assert (await service.info(league_game)).game.status == "finished"
    assert (await app.leagues.table(GUILD, "Bids")).games == 1
    # A game in play: the player bid, then asks to take it back (Bea must accept).
    undo_game = await toy_game(service, 2, USER, BEA)
    await bid(service, undo_game, USER, 1)
    proposal = await app.undo.propose_undo(undo_game, USER)
    await app.undo.set_undo_message(undo_game, proposal.version, 2, 60_001)
    # Bea proposes an undo the player answers (accepts), in a game the player hosts.
    answer_game = await toy_game(service, 3, USER, BEA)
    await bid(service, answer_game, USER, 2)
    await bid(service, answer_game, BEA, 1)
    await bid(service, answer_game, BEA, 2)
    theirs = await app.undo.propose_undo(answer_game, BEA)
    await app.undo.answer_undo(answer_game, theirs.version, USER, False)
    # Bea is late in a game where the player votes; the player is late in another.
    late_bea = await toy_game(service, 4, BEA, USER)
    await bid(service, late_bea, USER, 3)
    late_me = await toy_game(service, 5, BEA, USER)
    await bid(service, late_me, BEA, 3)
    await loop(app, clock, 31)
    vote = next(v for v in await app.votes.db.due_votes(clock.now_ms() + 10**9, 10) if v.game_id == late_bea)
    await app.votes.cast_vote(late_bea, vote.version, vote.seat, USER, "wait")
    # Following a game of others; a vacation and a snooze.
    others = await toy_game(service, 6, BEA, CEM)
    await app.followers.follow(GUILD, others, USER)
    await app.reminders.set_away(GUILD, USER, 2)
    await app.reminders.snooze(USER, 3, guild_xid=GUILD)
    await campaign_game(app)


async def forget_scenario(db_path: Path, clock: FakeClock) -> tuple[int, int]:
    """The history, then forget-me; (records forget-me reported, rows it actually changed)."""
    db = await Store.open(db_path)
    try:
        app = compose(Service(db, clock))
        await history(app, clock)
        with sqlite3.connect(db_path) as conn:
            assert leaks(conn, USER, NAME), "the history must hold the player's id and name"
            before = rows(conn)
        reported = await app.forget_user(USER)
    finally:
        await db.close()
    with sqlite3.connect(db_path) as conn:
        return reported, rows_changed(before, rows(conn))


# -- the tests ------------------------------------------------------------------------------------
async def test_every_personal_column_is_forgotten_or_reviewed(db_path: Path, clock: FakeClock) -> None:
    """Every column of the migrated schema that the rule flags is cleared by some feature's
    forget_user, or reviewed as not personal; and no declaration names a column that does not exist."""
    db = await Store.open(db_path)
    try:
        app = compose(Service(db, clock))
        handled = app.personal_columns
    finally:
        await db.close()
    with sqlite3.connect(db_path) as conn:
        assert unhandled(conn, handled) == []
        existing = {f"{t}.{c}" for t, cols in columns(conn).items() for c in cols}
    assert set(handled) <= existing and existing >= NOT_PERSONAL
    assert not set(handled) & NOT_PERSONAL


async def test_forget_me_leaves_no_id_and_no_name(db_path: Path, clock: FakeClock) -> None:
    """After a realistic history and forget-me, the player's id and name are in no cell of any
    table, and forget-me's count is the number of rows it changed."""
    reported, changed = await forget_scenario(db_path, clock)
    with sqlite3.connect(db_path) as conn:
        assert leaks(conn, USER, NAME) == []
    assert reported == changed and changed > 20


async def test_a_new_table_that_nobody_forgets_fails_the_scan(db_path: Path, clock: FakeClock, tmp_path: Path) -> None:
    """A migration-like extra table with a player's id, forgotten by no feature, is caught by both
    checks: by its column's name, and by the id still in it after forget-me."""
    db = await Store.open(db_path)
    try:
        app = compose(Service(db, clock))
        handled = app.personal_columns
        await app.preferences.set_prefs(USER, dm_turns=True)
        await db.connection.conn.executescript(  # type: ignore[attr-defined]
            "CREATE TABLE community_badges (badge TEXT NOT NULL, holder_xid INTEGER NOT NULL,"
            " awarded_to TEXT);"
            f"INSERT INTO community_badges VALUES ('first win', {USER}, '{NAME}');"
        )
        assert await app.forget_user(USER) == 1  # the preferences row; the badge stays
    finally:
        await db.close()
    with sqlite3.connect(db_path) as conn:
        assert unhandled(conn, handled) == ["community_badges.holder_xid"]
        assert sorted(leaks(conn, USER, NAME)) == [
            f"community_badges.awarded_to = '{NAME}'",
            f"community_badges.holder_xid = '{USER}'",
        ]


async def test_a_feature_that_fails_to_forget_is_never_reported_as_done(tmp_path: Path) -> None:
    """If one part of the bot could not forget the player, forget-me says so instead of "I forgot you"."""
    from bot import errors as bot_errors

    db = await Store.open(tmp_path / "forget.sqlite3")
    try:
        app = compose(Service(db))

        async def broken(user_xid: int) -> int:
            raise RuntimeError("disk full")

        app.service.forget_listeners.append(broken)
        with pytest.raises(bot_errors.NotAllowed) as caught:
            await app.forget_user(4242)
        assert caught.value.key == "privacy.incomplete"
    finally:
        await db.close()


# -- the bytes on disk (issue 31) ------------------------------------------------------------------
def disk_leaks(db_path: Path, user_xid: int, name: str) -> list[str]:
    """Where the raw bytes of the SQLite file and its write-ahead log still hold the id (as SQLite
    stores it, a big-endian 64-bit integer, or as text) or the name."""
    needles = {
        "id as integer": user_xid.to_bytes(8, "big", signed=True),
        "id as text": str(user_xid).encode(),
        "name": name.encode(),
    }
    found = []
    for path in (db_path, Path(f"{db_path}-wal")):
        data = path.read_bytes() if path.exists() else b""
        found += [f"{path.name}: {what} x{data.count(needle)}" for what, needle in needles.items() if needle in data]
    return found


async def test_forget_me_leaves_no_bytes_on_disk(db_path: Path, clock: FakeClock) -> None:
    """While the bot still runs after forget-me, neither the SQLite file nor its WAL holds the
    player's id or name, read as raw bytes (secure_delete zeroes what was deleted; the WAL is
    checkpointed and truncated). Before forget-me they did: the check can fail."""
    db = await Store.open(db_path)
    try:
        app = compose(Service(db, clock))
        # Set on the connection, not left to how SQLite was built (this one zeroes by default).
        assert tuple(await db.fetch_one("PRAGMA secure_delete")) == (1,)
        await history(app, clock)
        assert disk_leaks(db_path, USER, NAME), "the history must be on disk"
        await app.forget_user(USER)
        assert disk_leaks(db_path, USER, NAME) == []
        # The bot goes on writing after it (a new game of others): still nothing of the player.
        await toy_game(app.service, 9, BEA, CEM)
        assert disk_leaks(db_path, USER, NAME) == []
    finally:
        await db.close()
    assert disk_leaks(db_path, USER, NAME) == []


async def test_forget_me_plans_the_edits_of_the_bots_posts(db_path: Path, clock: FakeClock) -> None:
    """The bot's posts of the player's games (lobby, status, every turn post) are planned as edits,
    queued once the player is forgotten; others' games are not touched; the plan names nobody."""
    db = await Store.open(db_path)
    try:
        app = compose(Service(db, clock))
        mine = await toy_game(app.service, 1, USER, BEA)
        theirs = await toy_game(app.service, 2, BEA, CEM)
        for gid, base in ((mine, 1000), (theirs, 2000)):
            await app.service.set_messages(gid, lobby_message_xid=base, status_message_xid=base + 1)
            await app.service.set_messages(gid, turn_message_xid=base + 2)
        await bid(app.service, mine, USER, 3)
        await app.service.set_messages(mine, turn_message_xid=1003)
        await app.erasure.record_post(mine, "recap", 1004)
        forgotten = await app.forget(USER)
        edits = await app.erasure.db.edits()
        assert forgotten.edits == len(edits) == 5 and forgotten.beyond == 0
        assert sorted((e.kind, e.message_xid, e.version) for e in edits) == [
            ("lobby", 1000, None),
            ("recap", 1004, 1),
            ("status", 1001, None),
            ("turn", 1002, 0),
            ("turn", 1003, 1),
        ]
        assert {e.status for e in edits} == {"queued"}
    finally:
        await db.close()
    with sqlite3.connect(db_path) as conn:
        assert leaks(conn, USER, NAME) == []


async def test_the_cap_and_a_failed_forget_plan_nothing_to_edit(db_path: Path, clock: FakeClock) -> None:
    """Over the per-user cap the rest is counted, not planned; a forget-me that failed leaves its
    plan unqueued (nothing is edited while the name is still there)."""
    from bot import errors as bot_errors

    db = await Store.open(db_path)
    try:
        app = compose(Service(db, clock))
        app.erasure.cap = 2
        gid = await toy_game(app.service, 1, USER, BEA)
        for xid in range(3000, 3005):
            await app.service.set_messages(gid, turn_message_xid=xid)

        async def broken(user_xid: int) -> int:
            raise RuntimeError("disk full")

        app.service.forget_listeners.append(broken)
        with pytest.raises(bot_errors.NotAllowed):
            await app.forget(USER)
        assert {e.status for e in await app.erasure.db.edits()} == {"planned"}
        assert await app.erasure.take() == []
    finally:
        await db.close()
