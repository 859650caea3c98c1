"""The board as a Discord Activity (issue 39), its refusals and its rules, against the fake Discord: the launch
from "Play on the board" (and the sign-in link with ``ACTIVITY=off`` or when Discord refuses the launch), the
Entry Point command, ``/api/token`` (a code Discord rejects, a replayed code, another origin, a user Discord
does not show in the instance: each refused, nothing changed), the framing of the Activity's pages and of every
other page, and the access token kept out of the logs."""

from __future__ import annotations

import logging
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import aiohttp
import pytest

from bot import settings
from bot.i18n import t
from bot.testing.fakediscord.activity import REFUSALS
from bot.testing.fakediscord.payloads import CB_LAUNCH_ACTIVITY
from tests.conftest import FakeClock
from tests.discord.activity_standin import run_harness
from tests.discord.conftest import Harness, answer
from tests.discord.test_activity_e2e import launch, new_game


@pytest.fixture
async def activity_harness(tmp_path: Path, clock: FakeClock, database: str | Path) -> AsyncIterator[Harness]:
    async for h in run_harness(tmp_path, clock, database):
        yield h


@pytest.fixture
async def activity_off(tmp_path: Path, clock: FakeClock, database: str | Path) -> AsyncIterator[Harness]:
    async for h in run_harness(tmp_path, clock, database, activity=False):
        yield h


def base(h: Harness) -> str:
    return h.bot.web_links.base_url


def activity_origin(h: Harness) -> str:
    return f"https://{h.fake.oauth.client_id}.discordsays.com"


async def sessions(h: Harness) -> list[Any]:
    return list(await h.service._store.fetch_all("SELECT * FROM web_sessions ORDER BY id_hash"))


async def post(h: Harness, path: str, body: Any, origin: str | None) -> tuple[int, dict[str, Any], list[str]]:
    """A POST to the Activity's API from ``origin``: (status, JSON answer, its Set-Cookie headers)."""
    headers = {"Content-Type": "application/json"}
    if origin is not None:
        headers["Origin"] = origin
    async with aiohttp.ClientSession() as client, client.post(base(h) + path, json=body, headers=headers) as r:
        answer = await r.json() if r.content_type == "application/json" else {}
        return r.status, answer, r.headers.getall("Set-Cookie", [])


async def launched(h: Harness) -> tuple[int, str, str]:
    """A Quadropolis game in "games" whose awaited player launched the Activity: (game, instance, player)."""
    gid = await new_game(h, "quadropolis", "classic", ["alice", "bob"], "games")
    info = await h.service.info(gid)
    names = {h.fake.user("alice").id: "alice", h.fake.user("bob").id: "bob"}
    player = names[info.seats[next(iter(info.awaiting))].user_xid]
    return gid, await launch(h, gid, "games", player), player


async def test_a_code_buys_a_session_bound_to_the_instance_and_the_channels_game(activity_harness: Harness) -> None:
    h = activity_harness
    gid, instance_id, player = await launched(h)
    code = h.fake.oauth.activity_code(player, h.fake.oauth.client_id)
    status, body, cookies = await post(h, "/api/token", {"code": code, "instance_id": instance_id}, activity_origin(h))
    assert status == 200, body
    assert body["user"] == {"id": str(h.fake.user(player).id)}
    assert h.fake.oauth.tokens[body["access_token"]] == int(h.fake.user(player).id)
    page = h.bot.web_links.game(gid)
    assert page is not None and body["game"] == "activity" + page.removeprefix(base(h)) + "?lang=en"
    [cookie] = cookies  # for Discord's cross-site frame, and for it only: never an age of its own
    assert all(part in cookie for part in ("HttpOnly", "Secure", "SameSite=None", "Partitioned", "Path=/"))
    assert "Max-Age" not in cookie and "Expires" not in cookie
    [row] = await sessions(h)
    assert row[1] == int(h.fake.user(player).id)
    assert body["access_token"] not in repr(await h.service._store.fetch_all("SELECT * FROM web_sessions"))
    # The channel has no game: a short list of the player's own games instead.
    other = await new_game(h, "quadropolis", "classic", ["alice", "bob"], "general")
    h.fake.activities.instances[instance_id].channel_id = 1  # the instance now runs where no game is
    code = h.fake.oauth.activity_code(player, h.fake.oauth.client_id)
    status, body, _ = await post(h, "/api/token", {"code": code, "instance_id": instance_id}, base(h))
    assert status == 200 and "game" not in body
    assert sorted(g["url"].split("/")[2] for g in body["games"]) == sorted([str(gid), str(other)])


async def test_signing_in_again_in_the_same_frame_replaces_its_session(activity_harness: Harness) -> None:
    """An Activity opened again (its page signs in again with its cookie) keeps one session, not one a launch."""
    h = activity_harness
    _, instance_id, player = await launched(h)
    code = h.fake.oauth.activity_code(player, h.fake.oauth.client_id)
    status, _, cookies = await post(h, "/api/token", {"code": code, "instance_id": instance_id}, base(h))
    assert status == 200
    jar = cookies[0].split(";", 1)[0]
    code = h.fake.oauth.activity_code(player, h.fake.oauth.client_id)
    async with (
        aiohttp.ClientSession() as client,
        client.post(
            base(h) + "/api/token",
            json={"code": code, "instance_id": instance_id},
            headers={"Origin": base(h), "Cookie": jar},
        ) as r,
    ):
        assert r.status == 200
    [row] = await sessions(h)
    assert row[1] == int(h.fake.user(player).id)


async def test_a_code_discord_rejects_is_refused_and_changes_nothing(activity_harness: Harness) -> None:
    h = activity_harness
    _, instance_id, _ = await launched(h)
    before = await sessions(h)
    status, body, cookies = await post(h, "/api/token", {"code": "forged-code", "instance_id": instance_id}, base(h))
    assert (status, body, cookies) == (403, {"error": t("web.activity.code_refused", "en")}, [])
    assert "invalid code or redirect_uri" in h.fake.oauth.refused
    assert await sessions(h) == before


async def test_a_replayed_code_is_refused(activity_harness: Harness) -> None:
    h = activity_harness
    _, instance_id, player = await launched(h)
    code = h.fake.oauth.activity_code(player, h.fake.oauth.client_id)
    status, _, _ = await post(h, "/api/token", {"code": code, "instance_id": instance_id}, activity_origin(h))
    assert status == 200
    before = await sessions(h)
    status, body, cookies = await post(h, "/api/token", {"code": code, "instance_id": instance_id}, activity_origin(h))
    assert (status, body, cookies) == (403, {"error": t("web.activity.code_refused", "en")}, [])
    assert await sessions(h) == before


@pytest.mark.parametrize("origin", ["https://evil.example", "https://999.discordsays.com", "null", None])
async def test_a_page_from_another_origin_is_refused(activity_harness: Harness, origin: str | None) -> None:
    h = activity_harness
    _, instance_id, player = await launched(h)
    code = h.fake.oauth.activity_code(player, h.fake.oauth.client_id)
    status, body, cookies = await post(h, "/api/token", {"code": code, "instance_id": instance_id}, origin)
    assert (status, body, cookies) == (403, {"error": t("web.play.cross_site", "en")}, [])
    assert await sessions(h) == [] and code in h.fake.oauth.codes  # the code was never spent
    status, body, _ = await post(h, "/api/public", {"instance_id": instance_id}, origin)
    assert status == 403


async def test_a_user_discord_does_not_show_in_the_instance_is_refused(activity_harness: Harness) -> None:
    h = activity_harness
    _, instance_id, _ = await launched(h)
    for instance, user in ((instance_id, "carol"), ("i-unknown", "alice")):
        code = h.fake.oauth.activity_code(user, h.fake.oauth.client_id)
        status, body, cookies = await post(h, "/api/token", {"code": code, "instance_id": instance}, base(h))
        assert (status, body, cookies) == (403, {"error": t("web.activity.not_here", "en")}, [])
    assert await sessions(h) == []
    for bad in ({"code": "x"}, {"code": 5, "instance_id": instance_id}, [], {"instance_id": "../../x"}):
        status, _, _ = await post(h, "/api/token", bad, base(h))
        assert status == 422


async def test_a_refused_consent_gets_the_public_board_and_no_session(activity_harness: Harness) -> None:
    h = activity_harness
    gid, instance_id, _ = await launched(h)
    status, body, cookies = await post(h, "/api/public", {"instance_id": instance_id}, activity_origin(h))
    page = h.bot.web_links.game(gid)
    assert page is not None and status == 200 and body["game"].startswith("activity" + page.removeprefix(base(h)))
    assert cookies == [] and await sessions(h) == []


async def test_the_access_token_never_reaches_a_log(
    activity_harness: Harness, caplog: pytest.LogCaptureFixture
) -> None:
    h = activity_harness
    _, instance_id, player = await launched(h)
    caplog.set_level(logging.DEBUG)
    code = h.fake.oauth.activity_code(player, h.fake.oauth.client_id)
    status, body, _ = await post(h, "/api/token", {"code": code, "instance_id": instance_id}, base(h))
    assert status == 200
    logged = "\n".join(r.getMessage() for r in caplog.records)
    assert body["access_token"] not in logged and code not in logged and h.fake.oauth.client_secret not in logged


async def test_the_activitys_pages_are_framed_by_discord_only_and_every_other_page_by_no_one(
    activity_harness: Harness,
) -> None:
    h = activity_harness
    gid, _, _ = await launched(h)
    page = h.bot.web_links.game(gid)
    assert page is not None
    framed = [base(h) + "/?instance_id=i-1&frame_id=f&platform=desktop", page.replace(base(h), base(h) + "/activity")]
    others = [page, page + "/play.json", base(h) + "/sessions", base(h) + "/nowhere", base(h) + "/static/web.js"]
    async with aiohttp.ClientSession() as client:
        for url in framed:
            async with client.get(url) as r:
                assert r.status == 200, url
                assert "X-Frame-Options" not in r.headers
                policy = r.headers["Content-Security-Policy"]
                assert "frame-ancestors 'self' https://discord.com " in policy and "*.discordsays.com" in policy
                assert "script-src 'self';" in policy and "unsafe-inline" not in policy
        for url in others:
            async with client.get(url) as r:
                assert r.headers["X-Frame-Options"] == "DENY", url
                assert "frame-ancestors 'none'" in r.headers["Content-Security-Policy"]


async def test_the_entry_point_command_is_registered_beside_the_slash_commands(activity_harness: Harness) -> None:
    h = activity_harness
    [entry] = [c for c in h.fake.commands(None) if c.get("type") == 4]
    assert (entry["name"], entry["handler"]) == ("launch", 2)
    assert entry["description"] == t("web.activity.command", "en")
    assert entry["description_localizations"]["pl"] == t("web.activity.command", "pl")
    assert any(c["name"] == "game" for c in h.fake.commands("guild"))
    assert not h.fake.refusals


async def test_the_entry_point_goes_with_the_global_commands_in_one_overwrite(
    tmp_path: Path, clock: FakeClock, database: str | Path
) -> None:
    """Without a development server the commands are global: the Entry Point is in the same bulk overwrite
    (Discord refuses one that drops an app's Entry Point)."""
    async for h in run_harness(tmp_path, clock, database, dev_guild=False):
        await h.bot.sync_commands()
        registered = h.fake.commands(None)
        assert [c["name"] for c in registered if c.get("type") == 4] == ["launch"]
        assert any(c["name"] == "game" for c in registered) and not h.fake.commands("guild")
        puts = [r for r in h.fake.requests if r.method == "PUT" and r.path.endswith("/commands")]
        assert puts and any(c.get("type") == 4 for c in puts[-1].json)
        assert not h.fake.refusals


async def test_with_activity_off_the_button_gives_the_sign_in_link(activity_off: Harness) -> None:
    h = activity_off
    gid = await new_game(h, "quadropolis", "classic", ["alice", "bob"], "games")
    post_ = next(m for m in reversed(h.channel_messages("games")) if f"board:{gid}" in m.custom_ids())
    click = await h.fake.click(post_, f"board:{gid}", user="alice")
    sent = await answer(click)
    assert sent.ephemeral and f"{base(h)}/signin/" in (sent.content or "")
    assert click.callback is not None and click.callback.callback_type != CB_LAUNCH_ACTIVITY
    assert not h.fake.activities.launches and not h.fake.activities.instances
    assert not [c for c in h.fake.commands(None) if c.get("type") == 4]
    async with (
        aiohttp.ClientSession() as client,
        client.get(base(h) + "/?instance_id=i-1&frame_id=f&platform=desktop") as r,
    ):
        assert r.status == 404
    code = h.fake.oauth.activity_code("alice", h.fake.oauth.client_id)
    status, _, cookies = await post(h, "/api/token", {"code": code, "instance_id": "i-1"}, base(h))
    assert status == 404 and cookies == [] and await sessions(h) == []


@pytest.mark.parametrize("why", sorted(REFUSALS))
async def test_when_discord_refuses_the_launch_the_user_gets_the_sign_in_link(
    activity_harness: Harness, why: str
) -> None:
    h = activity_harness
    gid = await new_game(h, "quadropolis", "classic", ["alice", "bob"], "games")
    h.fake.activities.refusal = REFUSALS[why]
    post_ = next(m for m in reversed(h.channel_messages("games")) if f"board:{gid}" in m.custom_ids())
    click = await h.fake.click(post_, f"board:{gid}", user="alice")
    sent = await answer(click)
    assert sent.ephemeral and f"{base(h)}/signin/" in (sent.content or "")
    assert h.fake.activities.refused == [click.id] and not h.fake.activities.instances
    assert click.callback is not None and click.callback.callback_type != CB_LAUNCH_ACTIVITY


FULL = {
    "DISCORD_CLIENT_ID": "112233445566778899",
    "DISCORD_CLIENT_SECRET": "s3cr3t",
    "WEB_BASE_URL": "https://games.example.org",
}


@pytest.mark.parametrize(
    ("env", "got"),
    [
        ({}, False),
        (FULL, False),
        ({**FULL, "ACTIVITY": "off"}, False),
        ({**FULL, "ACTIVITY": " ON "}, True),
        ({**FULL, "ACTIVITY": "yes"}, "cli.settings.activity"),
        ({"ACTIVITY": "on"}, "cli.settings.activity_needs"),
        ({**FULL, "WEB_BASE_URL": "", "ACTIVITY": "on"}, "cli.settings.activity_needs"),
        ({**FULL, "WEB_PORT": "off", "ACTIVITY": "on"}, "cli.settings.activity_needs"),
    ],
)
def test_the_activity_setting(tmp_path: Path, env: dict[str, str], got: bool | str) -> None:
    """``ACTIVITY``: on or off (default off); on needs the OAuth2 pair, ``WEB_BASE_URL`` and the pages."""
    load = lambda: settings.load({"DISCORD_TOKEN": "abc", **env}, env_file=tmp_path / "none.env")  # noqa: E731
    if isinstance(got, bool):
        assert load().activity is got
    else:
        with pytest.raises(settings.SettingsError) as refused:
            load()
        assert str(refused.value) == t(got, "en", value=env.get("ACTIVITY", "").strip())
    assert settings.BY_NAME["ACTIVITY"].default == "off"
