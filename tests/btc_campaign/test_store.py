"""The campaign tables (migration 004) and their SQL: one running campaign per player, counting a
game only from the exact game the campaign was at, cascades."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot import store
from bot.store.btc_campaigns import CampaignRunning, CampaignStore

ROOT = Path(__file__).resolve().parents[2]
AT = 1_800_000_000_000


def test_migration_004_has_a_header() -> None:
    """Numbered, with a header saying what it revises and why (like 001-003)."""
    text = (ROOT / "bot" / "migrations" / "004_btc_campaigns.sql").read_text("utf-8")
    head = text.splitlines()[:3]
    assert head[0].startswith("-- 004:")
    assert any(line.startswith("-- Revises:") for line in text.splitlines()[:10])
    assert any(line.startswith("-- Why:") for line in text.splitlines()[:12])


async def test_migration_creates_the_tables(db: store.Store) -> None:
    """A fresh database is at version 4 or later with both campaign tables."""
    assert await db.schema_version() >= 4
    tables = (
        "SELECT tablename FROM pg_tables WHERE schemaname = current_schema()"
        if db.dialect == store.POSTGRES
        else "SELECT name FROM sqlite_master WHERE type = 'table'"
    )
    names = sorted(r[0] for r in await db.fetch_all(tables) if r[0].startswith("btc_campaign"))
    assert names == ["btc_campaign_games", "btc_campaigns"]


async def test_one_running_campaign_per_player(db: store.Store) -> None:
    """The unique index refuses a second running campaign; an ended one does not block a new one."""
    cs = CampaignStore(db)
    first = await cs.create(user_xid=1, guild_xid=None, length=3, difficulty=4, mode="solo_full", at=AT)
    with pytest.raises(CampaignRunning):
        await cs.create(user_xid=1, guild_xid=None, length=6, difficulty=4, mode="solo_full", at=AT)
    assert await cs.abandon(first.id, at=AT + 1)
    assert not await cs.abandon(first.id, at=AT + 2)
    second = await cs.create(user_xid=1, guild_xid=None, length=6, difficulty=4, mode="solo_full", at=AT + 3)
    assert (await cs.running(1)) == second
    assert (await cs.latest(1)) == second
    assert [c.id for c in await cs.history(1)] == [first.id]


async def test_bad_values_are_refused_by_the_schema(db: store.Store) -> None:
    """Length 3 or 6, difficulty 1-7 and a solo mode are checked by the table itself."""
    cs = CampaignStore(db)
    for kwargs in (
        {"length": 4, "difficulty": 4, "mode": "solo_full"},
        {"length": 3, "difficulty": 9, "mode": "solo_full"},
        {"length": 3, "difficulty": 4, "mode": "standard"},
    ):
        with pytest.raises(store.IntegrityError, match="CHECK"):
            await cs.create(user_xid=5, guild_xid=None, at=AT, **kwargs)  # type: ignore[arg-type]
    assert await cs.latest(5) is None


async def record(
    cs: CampaignStore, campaign_id: int, number: int, game_id: int, letter: str = "S", points: int = 40, bonus: int = 10
) -> object:
    return await cs.record_game(
        campaign_id,
        number=number,
        game_id=game_id,
        outcome="played",
        score=points,
        rank=1,
        won=True,
        points=points,
        bonus_type="shops",
        letter=letter,
        bonus_city=0,
        bonus=bonus,
        automas=[{"name": "Autommaso", "total": 30, "rank": 2}],
        at=AT + number,
    )


async def test_a_game_is_counted_once_and_only_from_its_game(db: store.Store) -> None:
    """record_game needs the campaign running at that game with that game open; a repeat is a no-op."""
    cs = CampaignStore(db)
    c = await cs.create(user_xid=1, guild_xid=None, length=3, difficulty=4, mode="solo_full", at=AT)
    assert await record(cs, c.id, 1, 77) is None, "no game open"
    assert await cs.attach_game(c.id, game_id=77, channel_xid=9, at=AT)
    assert not await cs.attach_game(c.id, game_id=78, channel_xid=9, at=AT), "one game open at a time"
    assert await record(cs, c.id, 2, 77) is None, "wrong game number"
    after = await record(cs, c.id, 1, 77)
    assert after is not None
    assert await record(cs, c.id, 1, 77) is None, "counted twice"
    row = await cs.get(c.id)
    assert row is not None
    assert (row.next_game, row.used, row.total, row.game_id, row.status) == (2, "S", 50, None, "running")
    games = await cs.games(c.id)
    assert len(games) == 1 and games[0].automas == [{"name": "Autommaso", "total": 30, "rank": 2}]
    assert games[0].won is True and games[0].total == 50


async def test_the_last_game_completes_the_campaign(db: store.Store) -> None:
    """Counting game ``length`` marks the campaign complete at that moment."""
    cs = CampaignStore(db)
    c = await cs.create(user_xid=1, guild_xid=None, length=3, difficulty=4, mode="solo_simple", at=AT)
    for number, letter in zip((1, 2, 3), "SFT", strict=True):
        assert await cs.attach_game(c.id, game_id=100 + number, channel_xid=9, at=AT)
        row = await record(cs, c.id, number, 100 + number, letter)
        assert row is not None
    final = await cs.get(c.id)
    assert final is not None
    assert (final.status, final.next_game, final.used) == ("complete", 4, "SFT")
    assert (final.total, final.ended_at) == (150, AT + 3)
    assert await cs.running(1) is None
    assert await cs.best_total(1, length=3, mode="solo_simple", difficulty=4) == 150
    assert await cs.best_total(1, length=3, mode="solo_simple", difficulty=4, before_id=c.id) is None


async def test_detach_and_by_game(db: store.Store) -> None:
    """A running campaign is found by its open game until the game is detached."""
    cs = CampaignStore(db)
    c = await cs.create(user_xid=1, guild_xid=None, length=3, difficulty=4, mode="solo_full", at=AT)
    await cs.attach_game(c.id, game_id=5, channel_xid=9, at=AT)
    assert (await cs.by_game(5)) is not None
    assert [x.id for x in await cs.with_open_game()] == [c.id]
    assert await cs.detach_game(c.id, game_id=5, at=AT)
    assert await cs.by_game(5) is None and await cs.with_open_game() == []


async def test_deleting_a_campaign_cascades_to_its_games(db: store.Store) -> None:
    """forget_user removes the campaigns and (foreign key cascade) their game rows, and counts both."""
    cs = CampaignStore(db)
    c = await cs.create(user_xid=1, guild_xid=None, length=3, difficulty=4, mode="solo_full", at=AT)
    await cs.attach_game(c.id, game_id=5, channel_xid=9, at=AT)
    await record(cs, c.id, 1, 5)
    assert await cs.forget_user(1) == 2
    row = await db.fetch_one("SELECT COUNT(*) FROM btc_campaign_games")
    assert row is not None and row[0] == 0
