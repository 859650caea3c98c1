"""The web's sessions over the store (migration 012, issue 38), on both engines: only hashes are kept, a session
ends after 30 days, a sign-in link and an OAuth2 state are used once, forget-me ends every session and link of
the user, and a session's idempotency keys go with it."""

from __future__ import annotations

import asyncio

from bot.community.sessions import ACTIVITY_HOURS, LINK_MINUTES, SESSION_DAYS, MoveRecord, Sessions, digest
from bot.service import Service
from bot.store.sessions import SessionStore
from tests.conftest import FakeClock


def sessions_of(service: Service) -> Sessions:
    return Sessions(service, SessionStore(service._store))


async def rows(service: Service, table: str) -> list[tuple[object, ...]]:
    return [tuple(r) for r in await service._store.fetch_all(f"SELECT * FROM {table}")]


async def test_a_session_is_kept_as_a_hash_and_ends_after_thirty_days(service: Service, clock: FakeClock) -> None:
    sessions = sessions_of(service)
    raw = await sessions.start(7, "discord")
    found = await sessions.find(raw)
    assert found is not None and (found.user_xid, found.how) == (7, "discord")
    assert found.id_hash == digest(raw) and raw not in repr(await rows(service, "web_sessions"))
    assert await sessions.find(raw[::-1]) is None and await sessions.find("") is None
    clock.advance(SESSION_DAYS * 86400 - 1)
    assert await sessions.find(raw) is not None
    clock.advance(1)
    assert await sessions.find(raw) is None


async def test_a_link_signs_in_once_and_expires(service: Service, clock: FakeClock) -> None:
    sessions = sessions_of(service)
    raw = await sessions.link_token(7, 3)
    assert raw not in repr(await rows(service, "web_signins"))
    used = await asyncio.gather(*(sessions.use_link(raw) for _ in range(3)))
    made = [u for u in used if u is not None]
    assert len(made) == 1 and made[0][1:] == (7, 3)
    assert [s.user_xid for s in await sessions.listed(7)] == [7]
    late = await sessions.link_token(8, None)
    clock.advance(LINK_MINUTES * 60)
    before = await rows(service, "web_sessions"), await rows(service, "web_signins")
    assert await sessions.use_link(late) is None
    assert (await rows(service, "web_sessions"), await rows(service, "web_signins")) == before


async def test_an_oauth_state_is_used_once(service: Service) -> None:
    sessions = sessions_of(service)
    state, verifier = await sessions.new_state()
    assert await sessions.take_state(state) == verifier
    assert await sessions.take_state(state) is None
    assert await rows(service, "web_oauth") == []


async def test_forget_me_ends_every_session_link_and_key(service: Service) -> None:
    sessions = sessions_of(service)
    first, second = await sessions.start(7, "link"), await sessions.start(7, "discord")
    other = await sessions.start(8, "link")
    await sessions.link_token(7, None)
    session = await sessions.find(first)
    assert session is not None
    await sessions.record_move(session, "key-00001", MoveRecord("d" * 64, 4))
    assert await sessions.move_record(session, "key-00001") == MoveRecord("d" * 64, 4)
    assert await sessions.forget_user(7) == 3
    assert await sessions.find(first) is None and await sessions.find(second) is None
    assert await sessions.find(other) is not None
    assert await rows(service, "web_moves") == []  # the keys went with their session
    assert [r[1] for r in await rows(service, "web_signins")] == []


async def test_sign_out_one_and_everywhere(service: Service) -> None:
    sessions = sessions_of(service)
    a, b, c = [await sessions.start(7, "link") for _ in range(3)]
    found = await sessions.find(a)
    assert found is not None
    assert await sessions.end(8, found.id_hash) is False  # only the user's own
    assert await sessions.end(7, found.id_hash) is True
    assert await sessions.find(a) is None and await sessions.find(b) is not None
    assert await sessions.end_all(7) == 2
    assert await sessions.find(c) is None


async def test_an_activity_session_is_bound_to_its_instance(service: Service, clock: FakeClock) -> None:
    """Migration 013: one session per user and instance, :data:`ACTIVITY_HOURS` at most, ended with its
    instance (the others untouched), and by forget-me."""
    sessions = sessions_of(service)
    first = await sessions.start_activity(7, "i-1")
    again = await sessions.start_activity(7, "i-1")  # replaces the first
    other = await sessions.start_activity(7, "i-2")
    someone = await sessions.start_activity(8, "i-1")
    web = await sessions.start(7, "discord")
    assert await sessions.find(first) is None
    found = await sessions.find(again)
    assert found is not None and (found.how, found.instance_id) == ("activity", "i-1")
    assert sorted((s.how, s.instance_id) for s in await sessions.listed(7)) == [
        ("activity", "i-1"),
        ("activity", "i-2"),
        ("discord", None),
    ]
    assert await sessions.end_instance("i-1") == 2
    assert await sessions.find(again) is None and await sessions.find(someone) is None
    assert await sessions.find(other) is not None and await sessions.find(web) is not None
    clock.advance(ACTIVITY_HOURS * 3600 - 1)
    assert await sessions.find(other) is not None
    clock.advance(1)
    assert await sessions.find(other) is None and await sessions.find(web) is not None
    last = await sessions.start_activity(7, "i-3")
    await sessions.forget_user(7)
    assert await sessions.find(last) is None and await sessions.find(web) is None
