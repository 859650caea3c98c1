"""Tests of the fake Discord itself: REST semantics, failure switches, gateway, payload factories,
the stand-in bot in-process (through ``parse_interaction_create``) and as a whole process (gateway,
kill -9, restart, persistent button)."""

from __future__ import annotations

import asyncio
import json
import subprocess
import sys
import time
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import aiohttp
import discord
import pytest
import pytest_asyncio

from bot.testing.fakediscord import payloads as P
from bot.testing.fakediscord.launch import configure
from bot.testing.fakediscord.server import FakeDiscord, FakeDiscordTimeout, RecordedRequest, compile_match
from bot.testing.fakediscord.standin import build_bot, tiny_png
from tests.fakediscord import fixtures
from tests.fakediscord.fixtures import STANDIN_ENTRY, BotProcessFactory

REPO_ROOT = Path(__file__).resolve().parents[1]
fake_discord = fixtures.fake_discord  # what a conftest would import
bot_process = fixtures.bot_process

GAME_COMMAND = {
    "name": "game",
    "description": "Games",
    "type": 1,
    "options": [
        {
            "type": 2,
            "name": "admin",
            "description": "Admin",
            "options": [{"type": 1, "name": "reset", "description": "Reset", "options": []}],
        },
        {
            "type": 1,
            "name": "new",
            "description": "New game",
            "options": [
                {
                    "type": 3,
                    "name": "game",
                    "description": "Game",
                    "required": True,
                    "choices": [{"name": "Quadropolis", "value": "quadropolis"}, {"name": "Toy", "value": "toy"}],
                },
                {"type": 4, "name": "seats", "description": "Seats", "min_value": 2, "max_value": 4},
                {"type": 6, "name": "rival", "description": "Rival"},
                {"type": 7, "name": "where", "description": "Where", "channel_types": [0]},
                {"type": 11, "name": "picture", "description": "Picture"},
                {"type": 3, "name": "name", "description": "Name", "autocomplete": True},
            ],
        },
    ],
}
SETTINGS_COMMAND = {"name": "settings", "description": "Server settings", "default_member_permissions": "32"}


# --------------------------------------------------------------------------------------------------
# helpers
# --------------------------------------------------------------------------------------------------


@pytest_asyncio.fixture
async def http(fake_discord: FakeDiscord) -> AsyncIterator[aiohttp.ClientSession]:
    async with aiohttp.ClientSession() as session:
        yield session


async def call(
    session: aiohttp.ClientSession,
    fake: FakeDiscord,
    method: str,
    path: str,
    *,
    body: Any = None,
    auth: bool = True,
    data: Any = None,
) -> tuple[int, Any, aiohttp.ClientResponse]:
    headers = {"Authorization": f"Bot {fake.token}"} if auth else {}
    async with session.request(method, fake.api_url + path, json=body, data=data, headers=headers) as resp:
        text = await resp.text()
        parsed = json.loads(text) if resp.headers.get("Content-Type") == "application/json" else text
        return resp.status, parsed, resp


async def register(session: aiohttp.ClientSession, fake: FakeDiscord, *commands: dict[str, Any]) -> list[Any]:
    path = f"/applications/{fake.world.application_id}/guilds/{fake.world.guild_id}/commands"
    status, body, _ = await call(session, fake, "PUT", path, body=list(commands))
    assert status == 200, body
    return list(body)


@pytest_asyncio.fixture
async def standin(fake_discord: FakeDiscord, tmp_path: Path) -> AsyncIterator[discord.Client]:
    """The stand-in bot in-process: logged in against the fake (commands synced), interactions
    delivered through ``parse_interaction_create``."""
    undo = configure(fake_discord.url)
    bot = build_bot(str(tmp_path / "standin.sqlite3"), fake_discord.world.guild_id)
    try:
        await bot.login(fake_discord.token)
        fake_discord.use_client(bot)
        yield bot
    finally:
        await bot.close()
        undo()


# --------------------------------------------------------------------------------------------------
# REST basics
# --------------------------------------------------------------------------------------------------


async def test_json_answers_carry_exact_content_type(fake_discord: FakeDiscord, http: aiohttp.ClientSession) -> None:
    """JSON answers have exactly `Content-Type: application/json` (no charset), as discord.py needs."""
    status, body, resp = await call(http, fake_discord, "GET", "/users/@me")
    assert status == 200
    assert resp.headers["Content-Type"] == "application/json"
    assert body["id"] == str(fake_discord.world.bot_id) and body["bot"] is True
    assert "X-RateLimit-Remaining" not in resp.headers


async def test_unknown_route_is_a_recorded_json_404(fake_discord: FakeDiscord, http: aiohttp.ClientSession) -> None:
    """An unknown route answers a JSON 404 and is recorded with no route template."""
    status, body, resp = await call(http, fake_discord, "POST", "/no/such/route", body={"x": 1})
    assert status == 404 and resp.headers["Content-Type"] == "application/json"
    assert body == {"message": "404: Not Found", "code": 0}
    rec = fake_discord.requests[-1]
    assert (rec.method, rec.path, rec.route, rec.status, rec.json) == ("POST", "/no/such/route", None, 404, {"x": 1})
    status, _, _ = await call(http, fake_discord, "DELETE", "/users/@me")
    assert status == 405


async def test_wrong_token_is_401(fake_discord: FakeDiscord, http: aiohttp.ClientSession) -> None:
    """Bot-authenticated routes refuse a missing or wrong token with 401."""
    assert (await call(http, fake_discord, "GET", "/users/@me", auth=False))[0] == 401
    async with http.get(fake_discord.api_url + "/users/@me", headers={"Authorization": "Bot nope"}) as resp:
        assert resp.status == 401


def test_request_patterns() -> None:
    """Patterns: `*` is one path segment, `**` any number, a method prefix and route templates."""

    def rec(method: str, path: str, route: str | None = None) -> RecordedRequest:
        return RecordedRequest(0, 0.0, method, path, {}, {}, "", route=route)

    cb = rec("POST", "/interactions/1/tok/callback", "POST /interactions/{interaction_id}/{token}/callback")
    assert compile_match("POST /interactions/*/*/callback")(cb)
    assert compile_match("/interactions/**")(cb)
    assert not compile_match("GET /interactions/**")(cb)
    assert not compile_match("/interactions/*")(cb)
    assert compile_match("POST /interactions/{interaction_id}/{token}/callback")(cb)
    assert not compile_match("POST /channels/{channel_id}/messages")(cb)
    assert compile_match(lambda r: r.method == "POST")(cb)


async def test_commands_put_replaces_and_keeps_ids(fake_discord: FakeDiscord, http: aiohttp.ClientSession) -> None:
    """PUT commands replaces the set (not appends) and keeps a command's id across syncs."""
    first = await register(http, fake_discord, GAME_COMMAND, SETTINGS_COMMAND)
    second = await register(http, fake_discord, GAME_COMMAND)
    assert [c["name"] for c in fake_discord.commands()] == ["game"]
    assert first[0]["id"] == second[0]["id"]
    assert second[0]["guild_id"] == str(fake_discord.world.guild_id)
    assert fake_discord.command_syncs == 2
    bad = {"name": "Bad Name", "description": ""}
    path = f"/applications/{fake_discord.world.application_id}/guilds/{fake_discord.world.guild_id}/commands"
    status, body, _ = await call(http, fake_discord, "PUT", path, body=[bad])
    assert status == 400 and body["code"] == 50035 and body["errors"]["0"]["name"]["_errors"]  # Discord nests errors


async def test_channel_post_multipart_recorded_and_served(
    fake_discord: FakeDiscord, http: aiohttp.ClientSession
) -> None:
    """A multipart channel post records payload_json and file bytes; the attachment URL serves them."""
    png = tiny_png()
    form = aiohttp.FormData(quote_fields=False)
    payload = {"content": "board", "attachments": [{"id": 0, "filename": "b.png", "description": "the board"}]}
    form.add_field("payload_json", json.dumps(payload), content_type="application/json")
    form.add_field("files[0]", png, filename="b.png", content_type="application/octet-stream")
    channel = fake_discord.channel("general")
    status, body, _ = await call(http, fake_discord, "POST", f"/channels/{channel.id}/messages", data=form)
    assert status == 200
    rec = fake_discord.requests[-1]
    assert rec.multipart and rec.json == payload
    assert [(p.name, p.filename, p.data) for p in rec.files] == [("files[0]", "b.png", png)]
    sent = fake_discord.sent[-1]
    assert sent.kind == "message" and sent.pngs == [png] and sent.content == "board"
    attachment = body["attachments"][0]
    assert (attachment["width"], attachment["height"], attachment["description"]) == (4, 3, "the board")
    async with http.get(attachment["url"]) as resp:
        assert await resp.read() == png
    assert fake_discord.messages("general")[-1].file("b.png").data == png


async def test_message_validation(fake_discord: FakeDiscord, http: aiohttp.ClientSession) -> None:
    """Too-long content is 400 Invalid Form Body (50035); an empty message is 50006."""
    channel = fake_discord.channel("general").id
    status, body, _ = await call(
        http, fake_discord, "POST", f"/channels/{channel}/messages", body={"content": "x" * 2001}
    )
    assert (status, body["code"]) == (400, 50035) and "content" in body["errors"]
    status, body, _ = await call(http, fake_discord, "POST", f"/channels/{channel}/messages", body={"content": ""})
    assert (status, body["code"]) == (400, 50006)
    rows = [{"type": 1, "components": [{"type": 2, "style": 1, "label": "x", "custom_id": "a"}]}] * 6
    status, body, _ = await call(
        http, fake_discord, "POST", f"/channels/{channel}/messages", body={"content": "x", "components": rows}
    )
    assert status == 400 and "components" in body["errors"]
    assert fake_discord.messages("general") == []


async def test_channel_permissions_and_dms(fake_discord: FakeDiscord, http: aiohttp.ClientSession) -> None:
    """Files in a channel denying Attach Files get 403 50013; a user with closed DMs gets 50007."""
    no_files = fake_discord.channel("no-files").id
    form = aiohttp.FormData(quote_fields=False)
    form.add_field("payload_json", json.dumps({"content": "x"}))
    form.add_field("files[0]", b"data", filename="a.bin")
    status, body, _ = await call(http, fake_discord, "POST", f"/channels/{no_files}/messages", data=form)
    assert (status, body["code"]) == (403, 50013)
    status, _, _ = await call(http, fake_discord, "POST", f"/channels/{no_files}/messages", body={"content": "text"})
    assert status == 200
    quinn = fake_discord.user("quinn")
    status, dm, _ = await call(http, fake_discord, "POST", "/users/@me/channels", body={"recipient_id": str(quinn.id)})
    assert status == 200 and dm["type"] == 1
    status, body, _ = await call(http, fake_discord, "POST", f"/channels/{dm['id']}/messages", body={"content": "hi"})
    assert (status, body["code"]) == (403, 50007)


async def test_fetch_routes(fake_discord: FakeDiscord, http: aiohttp.ClientSession) -> None:
    """Member, user, channel and guild fetches answer; unknown ids answer Discord's error codes."""
    world = fake_discord.world
    mona = fake_discord.user("mona")
    status, member, _ = await call(http, fake_discord, "GET", f"/guilds/{world.guild_id}/members/{mona.id}")
    assert status == 200 and member["user"]["username"] == "mona"
    stranger = fake_discord.user("stranger")
    status, body, _ = await call(http, fake_discord, "GET", f"/guilds/{world.guild_id}/members/{stranger.id}")
    assert (status, body["code"]) == (404, 10007)
    assert (await call(http, fake_discord, "GET", f"/users/{stranger.id}"))[0] == 200
    status, channel, _ = await call(http, fake_discord, "GET", f"/channels/{fake_discord.channel('table-1').id}")
    assert status == 200 and channel["type"] == 11
    status, guild, _ = await call(http, fake_discord, "GET", f"/guilds/{world.guild_id}?with_counts=1")
    assert status == 200 and guild["approximate_member_count"] == len(world.members())
    assert (await call(http, fake_discord, "GET", "/channels/1"))[1]["code"] == 10003


async def test_interaction_webhook_semantics(fake_discord: FakeDiscord, http: aiohttp.ClientSession) -> None:
    """Follow-up before an answer is 10015; defer then follow-up replaces the thinking message;
    a second callback is 40060; an expired interaction is 10062."""
    await register(http, fake_discord, GAME_COMMAND)
    handle = fake_discord.make_slash("game", "new", game="toy")
    app = fake_discord.world.application_id
    hook = f"/webhooks/{app}/{handle.token}"
    callback = f"/interactions/{handle.id}/{handle.token}/callback?with_response=1"
    assert (await call(http, fake_discord, "POST", hook + "?wait=1", body={"content": "x"}, auth=False))[1][
        "code"
    ] == 10015
    assert (await call(http, fake_discord, "GET", hook + "/messages/@original", auth=False))[1]["code"] == 10008
    status, body, _ = await call(
        http, fake_discord, "POST", callback, body={"type": 5, "data": {"flags": 64}}, auth=False
    )
    assert status == 200
    assert body["interaction"]["response_message_loading"] is True
    assert body["interaction"]["response_message_ephemeral"] is True
    assert handle.original is not None and handle.original.loading
    status, body, _ = await call(
        http, fake_discord, "POST", callback, body={"type": 4, "data": {"content": "x"}}, auth=False
    )
    assert (status, body["code"]) == (400, 40060)
    status, msg, _ = await call(http, fake_discord, "POST", hook + "?wait=1", body={"content": "done"}, auth=False)
    assert status == 200 and msg["id"] == str(handle.original.id) and msg["flags"] == 64
    status, msg2, _ = await call(http, fake_discord, "POST", hook + "?wait=1", body={"content": "more"}, auth=False)
    assert msg2["id"] != msg["id"]
    assert [s.kind for s in handle.sent] == ["callback", "followup", "followup"]
    status, edited, _ = await call(
        http, fake_discord, "PATCH", hook + "/messages/@original", body={"content": "edit"}, auth=False
    )
    assert edited["content"] == "edit" and handle.original.edits[-1]["content"] == "done"
    late = fake_discord.make_slash("game", "new", game="toy")
    late.expire()
    path = f"/interactions/{late.id}/{late.token}/callback?with_response=1"
    assert (await call(http, fake_discord, "POST", path, body={"type": 4, "data": {"content": "x"}}, auth=False))[1][
        "code"
    ] == 10062


async def test_a_refused_interaction_stays_refused(fake_discord: FakeDiscord, http: aiohttp.ClientSession) -> None:
    """An interaction whose callback Discord refused (10062) is refused at every later use: a second
    callback is 10062 again, a follow-up or an edit of @original is 10015 (not only the first try)."""
    await register(http, fake_discord, GAME_COMMAND)
    switch = fake_discord.unknown_interaction()
    handle = fake_discord.make_slash("game", "new", game="toy")
    app = fake_discord.world.application_id
    hook = f"/webhooks/{app}/{handle.token}"
    callback = f"/interactions/{handle.id}/{handle.token}/callback?with_response=1"
    for attempt in range(2):
        status, body, _ = await call(http, fake_discord, "POST", callback, body={"type": 5}, auth=False)
        assert (status, body["code"]) == (404, 10062), attempt
    assert len(switch.hits) == 1  # the second refusal is Discord's memory, not the switch
    status, body, _ = await call(http, fake_discord, "POST", hook + "?wait=1", body={"content": "x"}, auth=False)
    assert (status, body["code"]) == (404, 10015)
    status, body, _ = await call(
        http, fake_discord, "PATCH", hook + "/messages/@original", body={"content": "x"}, auth=False
    )
    assert (status, body["code"]) == (404, 10015)
    assert handle.sent == []
    other = fake_discord.make_slash("game", "new", game="toy")  # another interaction is answered as usual
    path = f"/interactions/{other.id}/{other.token}/callback?with_response=1"
    assert (await call(http, fake_discord, "POST", path, body={"type": 5}, auth=False))[0] == 200


async def test_callback_in_a_deleted_channel_is_unknown_channel(
    fake_discord: FakeDiscord, http: aiohttp.ClientSession
) -> None:
    """The channel of an interaction was deleted before the answer: 404 Unknown Channel (10003), as
    Discord answers, for the callback and for a follow-up; never the fake's own error."""
    await register(http, fake_discord, GAME_COMMAND)
    handle = fake_discord.make_slash("game", "new", game="toy", channel="general")
    answered = fake_discord.make_slash("game", "new", game="toy", channel="general")
    app = fake_discord.world.application_id
    path = f"/interactions/{answered.id}/{answered.token}/callback"
    assert (await call(http, fake_discord, "POST", path, body={"type": 5}, auth=False))[0] == 204
    del fake_discord.world.channels[fake_discord.channel("general").id]
    path = f"/interactions/{handle.id}/{handle.token}/callback"
    status, body, _ = await call(
        http, fake_discord, "POST", path, body={"type": 4, "data": {"content": "x"}}, auth=False
    )
    assert (status, body["code"]) == (404, 10003)
    status, body, _ = await call(
        http, fake_discord, "POST", f"/webhooks/{app}/{answered.token}?wait=1", body={"content": "x"}, auth=False
    )
    assert (status, body["code"]) == (404, 10003)
    assert fake_discord.internal_errors == []


async def test_a_follow_up_after_the_deleted_thinking_message_is_its_own(
    fake_discord: FakeDiscord, http: aiohttp.ClientSession
) -> None:
    """A public "thinking..." deleted, then a private follow-up: a new ephemeral message (the deleted
    one is not edited back to life)."""
    await register(http, fake_discord, GAME_COMMAND)
    handle = fake_discord.make_slash("game", "new", game="toy")
    app = fake_discord.world.application_id
    hook = f"/webhooks/{app}/{handle.token}"
    callback = f"/interactions/{handle.id}/{handle.token}/callback"
    assert (await call(http, fake_discord, "POST", callback, body={"type": 5}, auth=False))[0] == 204
    thinking = handle.original
    assert thinking is not None and not thinking.ephemeral
    assert (await call(http, fake_discord, "DELETE", hook + "/messages/@original", auth=False))[0] == 204
    status, msg, _ = await call(
        http, fake_discord, "POST", hook + "?wait=1", body={"content": "no", "flags": 64}, auth=False
    )
    assert status == 200 and msg["id"] != str(thinking.id) and msg["flags"] & 64
    assert thinking.deleted


async def test_callback_type_must_fit_interaction(fake_discord: FakeDiscord, http: aiohttp.ClientSession) -> None:
    """A slash command cannot be answered with an update (7) or autocomplete result (8)."""
    await register(http, fake_discord, GAME_COMMAND)
    handle = fake_discord.make_slash("game", "new", game="toy")
    path = f"/interactions/{handle.id}/{handle.token}/callback?with_response=1"
    for kind in (7, 8):
        status, body, _ = await call(http, fake_discord, "POST", path, body={"type": kind, "data": {}}, auth=False)
        assert (status, body["code"]) == (400, 50035)
    assert not handle.record.acknowledged


# --------------------------------------------------------------------------------------------------
# Payload factories
# --------------------------------------------------------------------------------------------------


async def test_slash_payload_from_registered_command(fake_discord: FakeDiscord, http: aiohttp.ClientSession) -> None:
    """The slash payload nests subcommands, converts options and fills `resolved` from the world."""
    registered = await register(http, fake_discord, GAME_COMMAND)
    handle = fake_discord.make_slash(
        "game",
        "new",
        game="quadropolis",
        seats=3,
        rival="bob",
        where="general",
        picture=("p.png", tiny_png()),
        user="carol",
    )
    payload = handle.payload
    for key in (
        "id",
        "application_id",
        "type",
        "token",
        "version",
        "attachment_size_limit",
        "data",
        "guild_id",
        "channel",
        "member",
        "app_permissions",
        "locale",
    ):
        assert key in payload, key
    data = payload["data"]
    assert data["id"] == registered[0]["id"] and data["guild_id"] == str(fake_discord.world.guild_id)
    (sub,) = data["options"]
    assert sub["type"] == 1 and sub["name"] == "new"
    values = {o["name"]: o["value"] for o in sub["options"]}
    bob = fake_discord.user("bob")
    assert values["game"] == "quadropolis" and values["seats"] == 3 and values["rival"] == str(bob.id)
    assert data["resolved"]["users"][str(bob.id)]["username"] == "bob"
    assert str(bob.id) in data["resolved"]["members"]
    assert data["resolved"]["channels"][values["where"]]["name"] == "general"
    assert data["resolved"]["attachments"][values["picture"]]["filename"] == "p.png"
    assert payload["member"]["user"]["username"] == "carol"
    group = fake_discord.make_slash("game", "admin", "reset").payload["data"]["options"][0]
    assert (group["type"], group["options"][0]["name"]) == (2, "reset")


async def test_slash_payload_refuses_what_discord_would(fake_discord: FakeDiscord, http: aiohttp.ClientSession) -> None:
    """Unknown options, missing required ones, bad choices/ranges and hidden commands raise."""
    await register(http, fake_discord, GAME_COMMAND, SETTINGS_COMMAND)
    cases = [
        (("game", "new"), {"game": "toy", "colour": "red"}, "no option 'colour'"),
        (("game", "new"), {"seats": 3}, "required option 'game'"),
        (("game", "new"), {"game": "chess"}, "not one of the choices"),
        (("game", "new"), {"game": "toy", "seats": 9}, "above max_value"),
        (("game",), {}, "needs a subcommand"),
        (("nope",), {}, "no registered command"),
        (("settings",), {}, "cannot see /settings"),
    ]
    for path, options, message in cases:
        with pytest.raises(P.PayloadError, match=message):
            fake_discord.make_slash(*path, user="alice", **options)
    assert fake_discord.make_slash("settings", user="mona").payload["member"]["user"]["username"] == "mona"
    assert fake_discord.make_slash("settings", user="olive") is not None
    assert fake_discord.make_slash("settings", user="alice", force=True) is not None


async def test_autocomplete_payload(fake_discord: FakeDiscord, http: aiohttp.ClientSession) -> None:
    """Autocomplete marks the focused option, sends its text, and has no resolved data."""
    await register(http, fake_discord, GAME_COMMAND)
    data = fake_discord.make_autocomplete("game", "new", game="toy", name="qu").payload["data"]
    options = data["options"][0]["options"]
    assert options[-1] == {"type": 3, "name": "name", "value": "qu", "focused": True}
    assert "resolved" not in data
    with pytest.raises(P.PayloadError, match="no autocomplete"):
        fake_discord.make_autocomplete("game", "new", game="to", focused="game")


def test_world_permissions() -> None:
    """Owner has everything; Moderator has Manage Server; the no-files channel denies Attach Files."""
    world = P.default_world()
    general, no_files = world.channel("general"), world.channel("no-files")
    assert world.channel_permissions(world.user("olive"), no_files) == P.ALL_PERMISSIONS
    assert world.base_permissions(world.user("mona")) & P.MANAGE_GUILD
    assert not world.base_permissions(world.user("alice")) & P.MANAGE_GUILD
    assert world.channel_permissions(world.bot, general) & P.ATTACH_FILES
    assert not world.channel_permissions(world.bot, no_files) & P.ATTACH_FILES
    assert world.channel_permissions(world.bot, no_files) & P.SEND_MESSAGES
    assert world.base_permissions(world.user("stranger")) == 0


def test_modal_submission_mirrors_modal() -> None:
    """A modal submission mirrors rows and labels; unknown or missing required inputs raise."""
    modal = {
        "custom_id": "m",
        "title": "T",
        "components": [
            {"type": 1, "components": [{"type": 4, "custom_id": "name", "style": 1, "label": "N"}]},
            {"type": 18, "label": "Pick", "component": {"type": 3, "custom_id": "pick", "options": []}},
            {"type": 10, "content": "just text"},
        ],
    }
    out = P.modal_submit_components(modal, {"name": "Ann", "pick": ["a"]})
    assert out[0]["components"][0] == {"type": 4, "id": 0, "custom_id": "name", "value": "Ann"}
    assert out[1]["component"]["values"] == ["a"]
    with pytest.raises(P.PayloadError, match="required"):
        P.modal_submit_components(modal, {})
    with pytest.raises(P.PayloadError, match="no inputs"):
        P.modal_submit_components(modal, {"name": "x", "other": "y"})


# --------------------------------------------------------------------------------------------------
# Gateway (raw websocket client)
# --------------------------------------------------------------------------------------------------


async def ws_recv(ws: aiohttp.ClientWebSocketResponse) -> dict[str, Any]:
    msg = await ws.receive(timeout=5)
    assert msg.type == aiohttp.WSMsgType.TEXT, msg
    return dict(json.loads(msg.data))


async def identify(ws: aiohttp.ClientWebSocketResponse, token: str, intents: int = 0) -> dict[str, Any]:
    await ws.send_json({"op": 2, "d": {"token": token, "intents": intents, "properties": {}}})
    ready = await ws_recv(ws)
    assert ready["t"] == "READY"
    return ready


async def test_gateway_identify_heartbeat_members_resume(
    fake_discord: FakeDiscord, http: aiohttp.ClientSession
) -> None:
    """HELLO, heartbeat ACK, IDENTIFY -> READY + GUILD_CREATE, member chunk, RESUME replays + RESUMED."""
    gw = fake_discord.gateway
    async with http.ws_connect(fake_discord.gateway_url + "?v=10&encoding=json") as ws:
        hello = await ws_recv(ws)
        assert hello["op"] == 10 and hello["d"]["heartbeat_interval"] < 60_000
        await ws.send_json({"op": 1, "d": None})
        assert (await ws_recv(ws))["op"] == 11
        ready = await identify(ws, fake_discord.token, intents=P.INTENT_GUILD_MEMBERS)
        for key in ("v", "user", "guilds", "session_id", "resume_gateway_url", "application"):
            assert key in ready["d"]
        guild = await ws_recv(ws)
        assert guild["t"] == "GUILD_CREATE" and guild["s"] == 2
        assert guild["d"]["member_count"] == len(guild["d"]["members"])
        assert any(r["id"] == guild["d"]["id"] for r in guild["d"]["roles"])  # @everyone
        await ws.send_json({"op": 8, "d": {"guild_id": guild["d"]["id"], "query": "a", "limit": 0, "nonce": "n1"}})
        chunk = await ws_recv(ws)
        assert chunk["t"] == "GUILD_MEMBERS_CHUNK" and chunk["d"]["nonce"] == "n1"
        assert [m["user"]["username"] for m in chunk["d"]["members"]] == ["alice"]
        seq = await gw.dispatch("INTERACTION_CREATE", {"x": 1})
        assert (await ws_recv(ws))["s"] == seq
        session = ready["d"]["session_id"]
    await fake_discord.wait_until(lambda: not gw.connected, 5, "the socket to close")
    async with http.ws_connect(ready["d"]["resume_gateway_url"]) as ws:
        await ws_recv(ws)
        await ws.send_json({"op": 6, "d": {"token": fake_discord.token, "session_id": session, "seq": 2}})
        replayed = [await ws_recv(ws) for _ in range(3)]
        assert [m["t"] for m in replayed] == ["GUILD_MEMBERS_CHUNK", "INTERACTION_CREATE", "RESUMED"]
        await gw.invalidate_session(resumable=False)
        assert (await ws_recv(ws)) == {"op": 9, "s": None, "t": None, "d": False}
    assert (gw.ready_count, gw.resumed_count) == (1, 1)
    assert session not in gw.sessions


async def test_gateway_refusals_and_newest_connection(fake_discord: FakeDiscord, http: aiohttp.ClientSession) -> None:
    """A bad token closes 4004, a disallowed intent 4014, an unknown RESUME gets op 9; events go
    only to the newest connection; without members intent GUILD_CREATE carries only the bot."""
    async with http.ws_connect(fake_discord.gateway_url) as ws:
        await ws_recv(ws)
        await ws.send_json({"op": 2, "d": {"token": "wrong", "intents": 0}})
        await ws.receive(timeout=5)
        assert ws.close_code == 4004
    fake_discord.world.allowed_intents.discard("members")
    async with http.ws_connect(fake_discord.gateway_url) as ws:
        await ws_recv(ws)
        await ws.send_json({"op": 2, "d": {"token": fake_discord.token, "intents": P.INTENT_GUILD_MEMBERS}})
        await ws.receive(timeout=5)
        assert ws.close_code == 4014
    async with http.ws_connect(fake_discord.gateway_url) as ws:
        await ws_recv(ws)
        await ws.send_json({"op": 6, "d": {"token": fake_discord.token, "session_id": "nope", "seq": 1}})
        assert (await ws_recv(ws))["op"] == 9
    async with http.ws_connect(fake_discord.gateway_url) as old, http.ws_connect(fake_discord.gateway_url) as new:
        await ws_recv(old)
        await ws_recv(new)
        await identify(new, fake_discord.token)
        guild = await ws_recv(new)
        assert [m["user"]["id"] for m in guild["d"]["members"]] == [str(fake_discord.world.bot_id)]
        assert guild["d"]["member_count"] > 1
        await fake_discord.gateway.dispatch("INTERACTION_CREATE", {"n": 1})
        assert (await ws_recv(new))["d"] == {"n": 1}
        with pytest.raises(asyncio.TimeoutError):
            await old.receive(timeout=0.2)
    with pytest.raises(RuntimeError, match="no identified gateway connection"):
        await fake_discord.gateway.dispatch("INTERACTION_CREATE", {})


async def test_wait_times_out_with_context(fake_discord: FakeDiscord) -> None:
    """A wait that runs out raises FakeDiscordTimeout naming what it waited for."""
    start = time.monotonic()
    with pytest.raises(FakeDiscordTimeout, match="POST /nothing"):
        await fake_discord.wait_for_request("POST /nothing", timeout=0.2)
    assert time.monotonic() - start < 2


# --------------------------------------------------------------------------------------------------
# The stand-in bot, in-process
# --------------------------------------------------------------------------------------------------


async def test_in_process_slash_png_and_persistent_button(fake_discord: FakeDiscord, standin: discord.Client) -> None:
    """In-process: /ping is answered (callback type 4) with board.png and the persistent button;
    clicking it is answered."""
    sync = await fake_discord.wait_for_request("PUT /applications/*/guilds/*/commands")
    assert {c["name"] for c in sync.json} == {"table", "ping", "post"}
    handle = await fake_discord.slash("ping", user="alice")
    sent = await handle.response()
    assert sent.callback_type == 4 and sent.request.multipart
    assert sent.filenames == ["board.png"] and P.png_size(sent.file("board.png")) == (4, 3)
    assert sent.custom_ids == ["standin:ping"]
    assert handle.original is not None and handle.original.attachments[0].filename == "board.png"
    click = await fake_discord.click(handle, "standin:ping", user="bob")
    assert (await click.response()).content.startswith("pong #1 from pid")


async def test_in_process_group_autocomplete_select_modal(fake_discord: FakeDiscord, standin: discord.Client) -> None:
    """Subcommand group + defer/follow-up, autocomplete choices, select (type 7 update), modal."""
    auto = await fake_discord.autocomplete("table", "game", "new", game="urban")
    assert (await auto.response()).callback_type == 8
    assert auto.choices == [{"name": "urban-panic", "value": "urban-panic"}]
    new = await fake_discord.slash("table", "game", "new", game="quadropolis", seats=3, user="dave")
    assert (await new.response()).callback_type == 5
    followup = await new.followup()
    assert followup.content == "table for quadropolis with 3 seats"
    assert followup.message is new.original and not new.original.loading
    pick = await fake_discord.select(new, "standin:color", ["blue"], user="dave")
    update = await pick.response()
    assert update.callback_type == 7 and new.original.content == "color: blue"
    with pytest.raises(P.PayloadError, match="not an option"):
        fake_discord.make_select(new, "standin:color", ["purple"])
    rename = await fake_discord.click(new, "standin:rename", user="dave")
    assert (await rename.response()).callback_type == 9
    assert rename.modal is not None and rename.modal["custom_id"] == "standin:rename-modal"
    submitted = await fake_discord.modal(rename, {"name": "Big table"})
    answer = await submitted.response()
    assert answer.content == "renamed to Big table" and answer.ephemeral
    assert submitted.payload["member"]["user"]["username"] == "dave"


async def test_in_process_channel_post_dm_fetch_edit(fake_discord: FakeDiscord, standin: discord.Client) -> None:
    """/post: channel upload, DM, member fetch, then an edit of @original; refusals surface as codes."""
    ok = await fake_discord.slash("post", member="carol", user="alice")
    edit = await fake_discord.wait_until(lambda: ok.edits, 5, "the edit of @original")
    assert edit[0].content == "posted; dm sent; fetched carol"
    assert fake_discord.messages("games")[-1].file("post.png").data == tiny_png()
    assert [m.content for m in fake_discord.dms("alice")] == ["hello in private"]
    refused = await fake_discord.slash("post", user="quinn", channel="no-files")
    edit = await fake_discord.wait_until(lambda: refused.edits, 5, "the edit of @original")
    assert edit[0].content == "cannot post (50013); cannot dm (50007)"
    assert refused.payload["app_permissions"] == str(
        fake_discord.world.channel_permissions(fake_discord.world.bot, fake_discord.channel("no-files"))
    )


async def test_switch_rate_limit_is_retried(fake_discord: FakeDiscord, standin: discord.Client) -> None:
    """A 429 with retry_after and Via on the callback is retried by discord.py, then answered."""
    switch = fake_discord.rate_limit("POST /interactions/**", retry_after=0.05)
    handle = await fake_discord.slash("ping")
    await handle.response()
    callbacks = fake_discord.requests_matching("POST /interactions/**")
    assert [r.status for r in callbacks] == [429, 200] and switch.remaining == 0
    assert callbacks[0].switch == "rate_limit"


async def test_switch_server_error_is_retried(fake_discord: FakeDiscord, standin: discord.Client) -> None:
    """A 502 on a channel post is retried by discord.py after about a second."""
    fake_discord.server_error("POST /channels/*/messages", status=502)
    handle = await fake_discord.slash("post")
    await fake_discord.wait_until(lambda: handle.edits, 8, "the edit of @original")
    posts = fake_discord.requests_matching("POST /channels/*/messages")
    assert [r.status for r in posts][:2] == [502, 200]


async def test_switch_interaction_errors(fake_discord: FakeDiscord, standin: discord.Client) -> None:
    """Unknown interaction (10062) and already acknowledged (40060) reach the bot; nothing is sent."""
    for switch, code in ((fake_discord.unknown_interaction(), 10062), (fake_discord.already_acknowledged(), 40060)):
        handle = await fake_discord.slash("ping")
        rec = await fake_discord.wait_for_request(lambda r, h=handle: r.path.startswith(f"/interactions/{h.id}/"))
        assert rec.response["code"] == code and switch.hits == [rec]
        assert handle.callback is None


async def test_switch_missing_permissions(fake_discord: FakeDiscord, standin: discord.Client) -> None:
    """A forced 403 Missing Permissions reaches the bot as discord.Forbidden."""
    fake_discord.missing_permissions("POST /channels/*/messages")
    handle = await fake_discord.slash("post", channel="general")
    edit = await fake_discord.wait_until(lambda: handle.edits, 5, "the edit of @original")
    assert edit[0].content.startswith("cannot post (50013)")


async def test_late_callback_is_unknown_interaction(fake_discord: FakeDiscord, standin: discord.Client) -> None:
    """A callback arriving after the deadline (here shortened, delayed by a switch) gets 10062."""
    fake_discord.interaction_deadline = 0.2
    fake_discord.delay("POST /interactions/**", 0.4)
    handle = await fake_discord.slash("ping")
    rec = await fake_discord.wait_for_request("POST /interactions/**")
    assert rec.status == 404 and rec.response["code"] == 10062 and handle.callback is None


async def test_duplicate_delivery_gets_already_acknowledged(fake_discord: FakeDiscord, standin: discord.Client) -> None:
    """The same interaction delivered twice: the second answer is refused with 40060."""
    handle = await fake_discord.slash("ping")
    await handle.response()
    await fake_discord.deliver(handle)
    second = await fake_discord.wait_until(
        lambda: [r for r in fake_discord.requests_matching("POST /interactions/**") if r.status == 400], 5, "40060"
    )
    assert second[0].response["code"] == 40060 and len(handle.sent) == 1


# --------------------------------------------------------------------------------------------------
# Launcher and the whole process
# --------------------------------------------------------------------------------------------------


def test_launcher_blocks_non_loopback() -> None:
    """The launcher refuses non-loopback URLs and blocks any non-loopback connect or lookup."""
    with pytest.raises(ValueError, match="loopback"):
        configure("http://discord.com")
    code = (
        "import socket\n"
        "from bot.testing.fakediscord.launch import guard_network\n"
        "guard_network()\n"
        "for attempt in (lambda: socket.create_connection(('discord.com', 443), timeout=1),\n"
        "                lambda: socket.socket().connect(('10.255.255.1', 9)),\n"
        "                lambda: socket.socket().connect_ex(('162.159.128.233', 443))):\n"
        "    try:\n"
        "        attempt()\n"
        "    except OSError as exc:\n"
        "        print('refused:', exc)\n"
        "s = socket.socket(); s.bind(('127.0.0.1', 0)); s.listen(); "
        "socket.create_connection(s.getsockname(), timeout=1); print('loopback ok')\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], cwd=REPO_ROOT, capture_output=True, text=True, timeout=30, check=True
    ).stdout
    assert out.count("refused:") == 3 and "loopback ok" in out, out


async def test_whole_process_restart_keeps_persistent_button(
    fake_discord: FakeDiscord, bot_process: BotProcessFactory
) -> None:
    """The stand-in as a process: connects, syncs, answers /ping with a PNG and a button and the
    click; after kill -9 and restart the button on the old message is answered by the new process
    (its counter continues in the same database); after a dropped socket and an op 7 it RESUMEs."""
    started = time.monotonic()
    bp = await bot_process(entry=STANDIN_ENTRY)
    ready_s = time.monotonic() - started
    assert fake_discord.gateway.identifies[-1]["token"] == fake_discord.token
    assert {c["name"] for c in fake_discord.commands()} == {"table", "ping", "post"}
    ping = await fake_discord.slash("ping", user="alice")
    sent = await ping.response()
    assert sent.pngs and sent.custom_ids == ["standin:ping"]
    first = await (await fake_discord.click(ping, "standin:ping", user="bob")).response()
    assert first.content == f"pong #1 from pid {bp.pid}"
    old_pid = bp.pid
    await bp.kill()
    assert bp.returncode == -9
    started = time.monotonic()
    await bp.restart()
    restart_s = time.monotonic() - started
    assert bp.pid != old_pid and fake_discord.gateway.ready_count == 2
    again = await (await fake_discord.click(ping, "standin:ping", user="carol")).response()
    assert again.content == f"pong #2 from pid {bp.pid}"
    await fake_discord.gateway.disconnect(4000)  # the client resumes, no new READY
    await fake_discord.gateway.wait_resumed(1)
    await fake_discord.gateway.request_reconnect()  # op 7: resumes again
    await fake_discord.gateway.wait_resumed(2)
    assert fake_discord.gateway.ready_count == 2
    third = await (await fake_discord.click(ping, "standin:ping", user="dave")).response()
    assert third.content == f"pong #3 from pid {bp.pid}"
    put = fake_discord.requests_matching("PUT /applications/*/guilds/*/commands")
    assert len(put) == 2 and len(fake_discord.commands()) == 3
    print(f"spawn->READY {ready_s:.2f}s, restart->READY {restart_s:.2f}s")


@pytest.mark.parametrize(
    "header",
    [
        'form-data; name="files[0]"; filename="board.png"',
        'form-data; name="payload_json"',
        'form-data; name="a\\"b"; filename="c.png"',
        "form-data; name=x; filename*=utf-8''%C3%A9.png",
        'form-data; filename="first"; name="second"',
        'attachment; filename="x.png"',
        "",
        None,
    ],
)
def test_a_parts_name_and_file_name_are_read_as_aiohttp_reads_them(header: str | None) -> None:
    """The fake's quick reading of Content-Disposition gives what aiohttp's own parser gives, for what
    discord.py sends and for anything else."""
    from aiohttp.multipart import content_disposition_filename, parse_content_disposition

    from bot.testing.fakediscord.server import _disposition

    _, params = parse_content_disposition(header)
    assert _disposition(header) == (params.get("name"), content_disposition_filename(params, "filename"))
