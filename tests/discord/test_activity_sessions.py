"""The Activity's session is bound to its instance (issue 39, migration 013): the row keeps the instance, lives
:data:`ACTIVITY_HOURS` at most, is replaced by a new sign-in of the same user in the same instance (another
instance gets its own), is listed as the Activity's on the sessions page, ends with forget-me, and ends when
Discord no longer knows the instance: the move door and the framed game page then refuse it with one sentence,
and nothing else changes."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import aiohttp
import pytest

from bot.community.sessions import ACTIVITY_HOURS
from bot.i18n import t
from bot.web.activity import CHECK_MS
from tests.conftest import FakeClock
from tests.discord.activity_standin import run_harness
from tests.discord.conftest import Harness
from tests.discord.test_activity import base, launched, post, sessions
from tests.discord.test_activity_e2e import launch, new_game


@pytest.fixture
async def activity_harness(tmp_path: Path, clock: FakeClock, database: str | Path) -> AsyncIterator[Harness]:
    async for h in run_harness(tmp_path, clock, database):
        yield h


async def sign_in(h: Harness, user: str, instance_id: str) -> str:
    """``api/token`` for the user in the instance: the cookie header it sets."""
    code = h.fake.oauth.activity_code(user, h.fake.oauth.client_id)
    status, body, cookies = await post(h, "/api/token", {"code": code, "instance_id": instance_id}, base(h))
    assert status == 200, body
    return cookies[0].split(";", 1)[0]


async def bound(h: Harness) -> list[tuple[int, str, str | None, int]]:
    """(user, how, instance, lifetime in ms) of every session."""
    rows = await h.service._store.fetch_all(
        "SELECT user_xid, how, instance_id, expires_at - created_at FROM web_sessions ORDER BY instance_id"
    )
    return [(int(r[0]), str(r[1]), r[2], int(r[3])) for r in rows]


async def get(h: Harness, url: str, cookie: str) -> tuple[int, str]:
    async with aiohttp.ClientSession() as client, client.get(url, headers={"Cookie": cookie}) as r:
        return r.status, await r.text()


async def move(h: Harness, page: str, cookie: str, csrf: str, version: int) -> tuple[int, Any]:
    headers = {"Origin": base(h), "Cookie": cookie, "X-CSRF-Token": csrf, "Content-Type": "application/json"}
    body = json.dumps({"version": version, "move": {"kind": "nothing"}, "key": "after-the-end"})
    async with aiohttp.ClientSession() as client, client.post(page + "/move", data=body, headers=headers) as r:
        return r.status, await r.json()


async def test_the_session_keeps_its_instance_and_one_per_user_and_instance(activity_harness: Harness) -> None:
    h = activity_harness
    _, instance_id, player = await launched(h)
    user = int(h.fake.user(player).id)
    await sign_in(h, player, instance_id)
    await sign_in(h, player, instance_id)  # without the first cookie (another device): still replaced
    assert await bound(h) == [(user, "activity", instance_id, ACTIVITY_HOURS * 3600 * 1000)]
    other_game = await new_game(h, "quadropolis", "classic", ["alice", "bob"], "general")
    other = await launch(h, other_game, "general", player)
    assert other != instance_id
    cookie = await sign_in(h, player, other)
    assert sorted(await bound(h)) == sorted(
        [
            (user, "activity", instance_id, ACTIVITY_HOURS * 3600 * 1000),
            (user, "activity", other, ACTIVITY_HOURS * 3600 * 1000),
        ]
    )
    # The sessions page lists it as the Activity's.
    status, text = await get(h, base(h) + "/sessions", cookie)
    assert status == 200 and text.count(t("web.sessions.how.activity", "en")) == 2


async def test_the_session_ends_after_its_lifetime(activity_harness: Harness, clock: FakeClock) -> None:
    h = activity_harness
    gid, instance_id, player = await launched(h)
    cookie = await sign_in(h, player, instance_id)
    page = h.bot.web_links.game(gid)
    assert page is not None
    clock.advance(ACTIVITY_HOURS * 3600 - 1)
    status, data = await get(h, page + "/play.json", cookie)
    assert status == 200 and "csrf" in json.loads(data)
    clock.advance(1)
    status, text = await get(h, page + "/play.json", cookie)
    assert status != 200 or "csrf" not in json.loads(text)
    assert await h.bot.app.sessions.find(cookie.split("=", 1)[1]) is None


async def test_a_session_of_an_ended_instance_is_refused_and_ended(activity_harness: Harness, clock: FakeClock) -> None:
    h = activity_harness
    gid, instance_id, player = await launched(h)
    cookie = await sign_in(h, player, instance_id)
    other_game = await new_game(h, "quadropolis", "classic", ["alice", "bob"], "general")
    other = await launch(h, other_game, "general", player)
    await sign_in(h, player, other)
    page = h.bot.web_links.game(gid)
    assert page is not None
    status, text = await get(h, page + "/play.json", cookie)
    data = json.loads(text)
    del h.fake.activities.instances[instance_id]  # the Activity was closed in Discord
    clock.advance(CHECK_MS / 1000 + 1)
    version = (await h.service.info(gid)).game.version
    before = await h.service._store.fetch_all("SELECT * FROM web_moves")
    status, answer = await move(h, page, cookie, data["csrf"], data["version"])
    assert (status, answer) == (403, {"error": t("web.activity.ended", "en")})
    assert (await h.service.info(gid)).game.version == version
    assert await h.service._store.fetch_all("SELECT * FROM web_moves") == before
    assert [row[2] for row in await bound(h)] == [other]  # the other instance's session lives on
    # The session is gone: the framed game page now shows the public board (signed out).
    status, text = await get(h, base(h) + "/activity" + page.removeprefix(base(h)), cookie)
    assert status == 200 and t("web.activity.ended", "en") not in text


async def test_the_framed_page_asks_discord_once_the_check_is_due(activity_harness: Harness, clock: FakeClock) -> None:
    h = activity_harness
    gid, instance_id, player = await launched(h)
    cookie = await sign_in(h, player, instance_id)
    page = h.bot.web_links.game(gid)
    assert page is not None
    framed = base(h) + "/activity" + page.removeprefix(base(h))
    del h.fake.activities.instances[instance_id]
    status, _ = await get(h, framed, cookie)
    assert status == 200  # Discord said it ran a moment ago: not asked again
    clock.advance(CHECK_MS / 1000 + 1)
    status, text = await get(h, framed, cookie)
    assert status == 403 and t("web.activity.ended", "en") in text
    assert await sessions(h) == []


async def test_forget_me_ends_an_activity_session(activity_harness: Harness) -> None:
    h = activity_harness
    _, instance_id, player = await launched(h)
    cookie = await sign_in(h, player, instance_id)
    assert [row[1:3] for row in await bound(h)] == [("activity", instance_id)]
    await h.bot.app.forget(int(h.fake.user(player).id))
    assert await sessions(h) == []
    assert await h.bot.app.sessions.find(cookie.split("=", 1)[1]) is None


async def test_signing_in_elsewhere_ends_the_sessions_of_ended_instances(
    activity_harness: Harness, clock: FakeClock
) -> None:
    h = activity_harness
    _, instance_id, player = await launched(h)
    await sign_in(h, player, instance_id)
    other_game = await new_game(h, "quadropolis", "classic", ["alice", "bob"], "general")
    other = await launch(h, other_game, "general", player)
    del h.fake.activities.instances[instance_id]
    clock.advance(CHECK_MS / 1000 + 1)
    await sign_in(h, player, other)
    assert [row[2] for row in await bound(h)] == [other]


async def test_a_discord_that_cannot_be_asked_ends_no_session(activity_harness: Harness, clock: FakeClock) -> None:
    """Only Discord's "no such instance" ends an Activity's sessions: an error or an outage while the bot asks
    leaves the session as it was (its 12 hours still bound it): the move is weighed, not refused as ended."""
    h = activity_harness
    gid, instance_id, player = await launched(h)
    cookie = await sign_in(h, player, instance_id)
    page = h.bot.web_links.game(gid)
    assert page is not None
    status, text = await get(h, page + "/play.json", cookie)
    data = json.loads(text)
    clock.advance(CHECK_MS / 1000 + 1)  # the check is due
    h.fake.fail(f"GET /applications/*/activity-instances/{instance_id}", status=403, code=50001, times=5)
    status, answer = await move(h, page, cookie, data["csrf"], data["version"])
    assert (status, answer) == (422, {"error": t("web.play.illegal", "en")})  # signed in: the move itself is refused
    assert [row[2] for row in await bound(h)] == [instance_id]
