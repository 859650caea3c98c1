"""The fake refuses what Discord refuses: bodies outside Discord's OpenAPI description, the documented
limits the description does not carry, late interaction callbacks, and edits in archived threads.

Every limit is tried at the limit (accepted) and one past it (refused with 400 Invalid Form Body,
code 50035, and the field path in Discord's nested ``errors``); a refused body changes nothing.
"""

from __future__ import annotations

import json
from collections.abc import AsyncIterator, Callable
from typing import Any

import aiohttp
import pytest
import pytest_asyncio

from bot.testing.fakediscord import limits as L
from bot.testing.fakediscord import payloads as P
from bot.testing.fakediscord import schema as S
from bot.testing.fakediscord.server import FakeDiscord, InteractionHandle

PING = {"name": "ping", "description": "Ping"}
BIG_ID = 10**17  # a plausible snowflake


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
    data: Any = None,
    auth: bool = True,
    raw: bytes | None = None,
) -> tuple[int, Any]:
    headers = {"Authorization": f"Bot {fake.token}"} if auth else {}
    if raw is not None:
        headers["Content-Type"] = "application/json"
        data = raw
    async with session.request(method, fake.api_url + path, json=body, data=data, headers=headers) as resp:
        text = await resp.text()
        return resp.status, json.loads(text) if resp.headers.get("Content-Type") == "application/json" else text


async def register_ping(session: aiohttp.ClientSession, fake: FakeDiscord) -> None:
    path = f"/applications/{fake.world.application_id}/guilds/{fake.world.guild_id}/commands"
    status, body = await call(session, fake, "PUT", path, body=[PING])
    assert status == 200, body


def callback_path(handle: InteractionHandle) -> str:
    return f"/interactions/{handle.id}/{handle.token}/callback"


def assert_refused(status: int, body: Any, path: str) -> None:
    assert status == 400, body
    assert body["code"] == 50035 and body["message"] == "Invalid Form Body", body
    assert path in S.error_paths(body["errors"]), (path, body["errors"])


# --------------------------------------------------------------------------------------------------
# Bodies at and past each limit
# --------------------------------------------------------------------------------------------------


def button(i: int = 0, **extra: Any) -> dict[str, Any]:
    return {"type": 2, "style": 1, "label": f"b{i}", "custom_id": f"c{i}", **extra}


def row(*items: dict[str, Any]) -> dict[str, Any]:
    return {"type": 1, "components": list(items)}


def select(options: int = 1, **extra: Any) -> dict[str, Any]:
    return {
        "type": 3,
        "custom_id": "pick",
        "options": [{"label": f"o{i}", "value": f"v{i}"} for i in range(options)],
        **extra,
    }


def option_select(key: str, length: int) -> dict[str, Any]:
    opt = {"label": "o", "value": "v", key: "x" * length}
    return {"type": 3, "custom_id": "pick", "options": [opt]}


def embeds_totalling(extra: int) -> list[dict[str, Any]]:
    """Two embeds whose counted characters add up to 6,000 + ``extra`` (each part within its own
    limit): 4,096 + (256 + 1 + 1,000 + 400 + 247 + extra)."""
    return [
        {"description": "d" * 4096},
        {
            "title": "t" * 256,
            "fields": [{"name": "n", "value": "v" * 1000}],
            "footer": {"text": "f" * 400},
            "author": {"name": "a" * (247 + extra)},
        },
    ]


# name -> (body at the limit when over=0 / one past it when over=1, the refused field's path)
LIMITS: dict[str, tuple[Callable[[int], dict[str, Any]], str]] = {
    "content 2000": (lambda over: {"content": "x" * (L.MAX_CONTENT + over)}, "content"),
    "embeds 10": (lambda over: {"embeds": [{"title": "t"}] * (L.MAX_EMBEDS + over)}, "embeds"),
    "embed totals 6000": (lambda over: {"embeds": embeds_totalling(over)}, "embeds"),
    "embed title 256": (lambda over: {"embeds": [{"title": "t" * (256 + over)}]}, "embeds.0.title"),
    "embed description 4096": (lambda over: {"embeds": [{"description": "d" * (4096 + over)}]}, "embeds.0.description"),
    "embed fields 25": (
        lambda over: {"embeds": [{"fields": [{"name": "n", "value": "v"}] * (25 + over)}]},
        "embeds.0.fields",
    ),
    "embed field name 256": (
        lambda over: {"embeds": [{"fields": [{"name": "n" * (256 + over), "value": "v"}]}]},
        "embeds.0.fields.0.name",
    ),
    "embed field value 1024": (
        lambda over: {"embeds": [{"fields": [{"name": "n", "value": "v" * (1024 + over)}]}]},
        "embeds.0.fields.0.value",
    ),
    "embed footer 2048": (lambda over: {"embeds": [{"footer": {"text": "f" * (2048 + over)}}]}, "embeds.0.footer.text"),
    "embed author 256": (lambda over: {"embeds": [{"author": {"name": "a" * (256 + over)}}]}, "embeds.0.author.name"),
    "mentioned users 100": (
        lambda over: {
            "content": "hi",
            "allowed_mentions": {"parse": [], "users": [BIG_ID + i for i in range(100 + over)]},
        },
        "allowed_mentions.users",
    ),
    "mentioned roles 100": (
        lambda over: {
            "content": "hi",
            "allowed_mentions": {"parse": [], "roles": [str(BIG_ID + i) for i in range(100 + over)]},
        },
        "allowed_mentions.roles",
    ),
    "action rows 5": (
        lambda over: {"components": [row(button(i)) for i in range(L.MAX_ACTION_ROWS + over)]},
        "components",
    ),
    "buttons per row 5": (
        lambda over: {"components": [row(*(button(i) for i in range(5 + over)))]},
        "components.0.components",
    ),
    "a select alone in its row": (
        lambda over: {"components": [row(select(), *([button()] if over else []))]},
        "components.0.components",
    ),
    "select options 25": (lambda over: {"components": [row(select(25 + over))]}, "components.0.components.0.options"),
    "button label 80": (
        lambda over: {"components": [row(button(label="l" * (80 + over)))]},
        "components.0.components.0.label",
    ),
    "custom_id 100": (
        lambda over: {"components": [row(button(custom_id="c" * (100 + over)))]},
        "components.0.components.0.custom_id",
    ),
    "option label 100": (
        lambda over: {"components": [row(option_select("label", 100 + over))]},
        "components.0.components.0.options.0.label",
    ),
    "option value 100": (
        lambda over: {"components": [row(option_select("value", 100 + over))]},
        "components.0.components.0.options.0.value",
    ),
    "option description 100": (
        lambda over: {"components": [row(option_select("description", 100 + over))]},
        "components.0.components.0.options.0.description",
    ),
    "placeholder 150": (
        lambda over: {"components": [row(select(placeholder="p" * (150 + over)))]},
        "components.0.components.0.placeholder",
    ),
}


def with_content(body: dict[str, Any]) -> dict[str, Any]:
    return body if "content" in body or "embeds" in body else {"content": "x", **body}


@pytest.mark.parametrize("name", list(LIMITS))
async def test_channel_message_at_the_limit_passes_and_past_it_is_refused(
    fake_discord: FakeDiscord, http: aiohttp.ClientSession, name: str
) -> None:
    make, path = LIMITS[name]
    channel = fake_discord.channel("general").id
    status, body = await call(http, fake_discord, "POST", f"/channels/{channel}/messages", body=with_content(make(0)))
    assert status == 200, body
    stored = len(fake_discord.messages("general"))
    status, body = await call(http, fake_discord, "POST", f"/channels/{channel}/messages", body=with_content(make(1)))
    assert_refused(status, body, path)
    assert len(fake_discord.messages("general")) == stored  # nothing was posted
    assert path in [p.dotted for p in fake_discord.refusals[-1].problems]


@pytest.mark.parametrize("name", list(LIMITS))
async def test_interaction_answer_at_the_limit_passes_and_past_it_is_refused(
    fake_discord: FakeDiscord, http: aiohttp.ClientSession, name: str
) -> None:
    make, path = LIMITS[name]
    await register_ping(http, fake_discord)
    late = fake_discord.make_slash("ping")
    status, body = await call(
        http, fake_discord, "POST", callback_path(late), body={"type": 4, "data": with_content(make(1))}, auth=False
    )
    assert_refused(status, body, f"data.{path}")
    assert not late.record.acknowledged and late.callback is None  # refused: the interaction is still open
    status, body = await call(
        http, fake_discord, "POST", callback_path(late), body={"type": 4, "data": with_content(make(0))}, auth=False
    )
    assert status == 204, body
    assert late.callback is not None and late.original is not None


@pytest.mark.parametrize("name", list(LIMITS))
async def test_each_limit_holds_without_the_description_too(
    fake_discord: FakeDiscord, http: aiohttp.ClientSession, name: str
) -> None:
    """limits.py enforces every limit on its own (second line behind the description)."""
    fake_discord.strict = False
    make, path = LIMITS[name]
    channel = fake_discord.channel("general").id
    status, body = await call(http, fake_discord, "POST", f"/channels/{channel}/messages", body=with_content(make(0)))
    assert status == 200, body
    status, body = await call(http, fake_discord, "POST", f"/channels/{channel}/messages", body=with_content(make(1)))
    assert_refused(status, body, path)


async def test_channel_message_content_is_2000_although_the_description_allows_4000(
    fake_discord: FakeDiscord, http: aiohttp.ClientSession
) -> None:
    """The description's 4,000 is a Nitro user's limit; a bot's message content stops at 2,000."""
    assert S.validate("POST", "/channels/1/messages", {"content": "x" * 2001}) == []
    channel = fake_discord.channel("general").id
    status, body = await call(http, fake_discord, "POST", f"/channels/{channel}/messages", body={"content": "x" * 2001})
    assert_refused(status, body, "content")


async def test_edits_are_held_to_the_same_limits(fake_discord: FakeDiscord, http: aiohttp.ClientSession) -> None:
    channel = fake_discord.channel("general").id
    status, msg = await call(http, fake_discord, "POST", f"/channels/{channel}/messages", body={"content": "a"})
    assert status == 200
    path = f"/channels/{channel}/messages/{msg['id']}"
    status, body = await call(http, fake_discord, "PATCH", path, body={"components": [row(select(), button())]})
    assert_refused(status, body, "components.0.components")
    status, body = await call(http, fake_discord, "PATCH", path, body={"embeds": embeds_totalling(1)})
    assert_refused(status, body, "embeds")
    assert fake_discord.messages("general")[-1].content == "a" and not fake_discord.messages("general")[-1].edits


# --------------------------------------------------------------------------------------------------
# Files
# --------------------------------------------------------------------------------------------------


def upload(count: int, size: int = 4, payload: dict[str, Any] | None = None) -> aiohttp.FormData:
    form = aiohttp.FormData(quote_fields=False)
    form.add_field("payload_json", json.dumps(payload or {"content": "files"}), content_type="application/json")
    for i in range(count):
        form.add_field(f"files[{i}]", b"x" * size, filename=f"f{i}.bin", content_type="application/octet-stream")
    return form


async def test_ten_files_per_message(fake_discord: FakeDiscord, http: aiohttp.ClientSession) -> None:
    channel = fake_discord.channel("general").id
    status, body = await call(http, fake_discord, "POST", f"/channels/{channel}/messages", data=upload(L.MAX_FILES))
    assert status == 200 and len(body["attachments"]) == 10
    status, body = await call(http, fake_discord, "POST", f"/channels/{channel}/messages", data=upload(11))
    assert_refused(status, body, "attachments")
    assert len(fake_discord.messages("general")) == 1


async def test_upload_size_limit(fake_discord: FakeDiscord, http: aiohttp.ClientSession) -> None:
    """A file of exactly the upload limit goes through; one byte more is 413 Request entity too large
    (40005), which is how Discord answers it."""
    channel = fake_discord.channel("general").id
    status, body = await call(
        http, fake_discord, "POST", f"/channels/{channel}/messages", data=upload(1, L.MAX_UPLOAD_BYTES)
    )
    assert status == 200 and body["attachments"][0]["size"] == L.MAX_UPLOAD_BYTES
    status, body = await call(
        http, fake_discord, "POST", f"/channels/{channel}/messages", data=upload(1, L.MAX_UPLOAD_BYTES + 1)
    )
    assert (status, body["code"]) == (413, 40005)
    assert len(fake_discord.messages("general")) == 1


async def test_payload_json_of_a_multipart_body_is_validated(
    fake_discord: FakeDiscord, http: aiohttp.ClientSession
) -> None:
    """discord.py's integer attachment ids pass (a snowflake may be an integer); a payload_json
    outside the description is refused like a JSON body."""
    channel = fake_discord.channel("general").id
    ok = {"content": "board", "attachments": [{"id": 0, "filename": "f0.bin", "description": "the board"}]}
    status, body = await call(http, fake_discord, "POST", f"/channels/{channel}/messages", data=upload(1, payload=ok))
    assert status == 200, body
    bad = {"content": "board", "attachments": [{"id": 0, "filename": "f0.bin", "description": "d" * 1025}]}
    status, body = await call(http, fake_discord, "POST", f"/channels/{channel}/messages", data=upload(1, payload=bad))
    assert_refused(status, body, "attachments.0.description")


# --------------------------------------------------------------------------------------------------
# The description's other refusals, and its normalisations
# --------------------------------------------------------------------------------------------------


SCHEMA_REFUSALS: dict[str, tuple[dict[str, Any], str]] = {
    "a snowflake that is not a number": (
        {"content": "hi", "allowed_mentions": {"users": ["alice"]}},
        "allowed_mentions.users.0",
    ),
    "a mention type Discord does not know": (
        {"content": "hi", "allowed_mentions": {"parse": ["all"]}},
        "allowed_mentions.parse.0",
    ),
    "a button style Discord does not have": ({"components": [row(button(style=9))]}, "components.0.components.0.style"),
    "a component type Discord does not have": (
        {"components": [row({"type": 99, "custom_id": "x"})]},
        "components.0.components.0.type",
    ),
    "a select without its options": (
        {"components": [row({"type": 3, "custom_id": "pick"})]},
        "components.0.components.0.options",
    ),
    "content that is not text": ({"content": ["hello"]}, "content"),
    "an embed colour past 0xFFFFFF": ({"embeds": [{"title": "t", "color": 0x1000000}]}, "embeds.0.color"),
    "a field without its value": ({"embeds": [{"fields": [{"name": "n"}]}]}, "embeds.0.fields.0.value"),
}


@pytest.mark.parametrize("name", list(SCHEMA_REFUSALS))
async def test_description_refusals(fake_discord: FakeDiscord, http: aiohttp.ClientSession, name: str) -> None:
    body_sent, path = SCHEMA_REFUSALS[name]
    channel = fake_discord.channel("general").id
    status, body = await call(http, fake_discord, "POST", f"/channels/{channel}/messages", body=body_sent)
    assert_refused(status, body, path)
    assert fake_discord.messages("general") == []
    assert fake_discord.refusals[-1].problems and fake_discord.refusals[-1].status == 400


async def test_integer_snowflakes_are_accepted(fake_discord: FakeDiscord, http: aiohttp.ClientSession) -> None:
    """discord.py sends allowed_mentions.users as integers; Discord accepts them."""
    channel = fake_discord.channel("general").id
    body_sent = {"content": "hi", "allowed_mentions": {"parse": ["roles"], "users": [BIG_ID], "replied_user": False}}
    status, body = await call(http, fake_discord, "POST", f"/channels/{channel}/messages", body=body_sent)
    assert status == 200, body


async def test_default_member_permissions_as_a_decimal_string(
    fake_discord: FakeDiscord, http: aiohttp.ClientSession
) -> None:
    """discord.py sends default_member_permissions as a decimal string ("32"), which Discord accepts
    although the description types it as an integer; anything else is refused."""
    path = f"/applications/{fake_discord.world.application_id}/guilds/{fake_discord.world.guild_id}/commands"
    status, body = await call(http, fake_discord, "PUT", path, body=[{**PING, "default_member_permissions": "32"}])
    assert status == 200, body
    status, body = await call(http, fake_discord, "PUT", path, body=[{**PING, "default_member_permissions": "lots"}])
    assert_refused(status, body, "0.default_member_permissions")
    assert [c["default_member_permissions"] for c in fake_discord.commands()] == ["32"]


async def test_callback_refusals(fake_discord: FakeDiscord, http: aiohttp.ClientSession) -> None:
    """An unknown callback type, and a modal whose title is over 45 characters, are refused; the
    interaction stays open."""
    await register_ping(http, fake_discord)
    handle = fake_discord.make_slash("ping")
    status, body = await call(http, fake_discord, "POST", callback_path(handle), body={"type": 99}, auth=False)
    assert_refused(status, body, "type")
    modal = {
        "type": 9,
        "data": {
            "custom_id": "m",
            "title": "t" * 46,
            "components": [row({"type": 4, "custom_id": "i", "style": 1, "label": "Name"})],
        },
    }
    status, body = await call(http, fake_discord, "POST", callback_path(handle), body=modal, auth=False)
    assert_refused(status, body, "data.title")
    assert not handle.record.acknowledged and handle.modal is None


async def test_errors_body_has_discords_shape(fake_discord: FakeDiscord, http: aiohttp.ClientSession) -> None:
    channel = fake_discord.channel("general").id
    status, body = await call(
        http, fake_discord, "POST", f"/channels/{channel}/messages", body={"embeds": [{"title": "t" * 257}]}
    )
    assert status == 400
    too_long = {"code": "BASE_TYPE_MAX_LENGTH", "message": "Must be 256 or fewer in length."}
    assert body == {
        "code": 50035,
        "message": "Invalid Form Body",
        "errors": {"embeds": {"0": {"title": {"_errors": [too_long]}}}},
    }


async def test_a_body_that_is_not_json(fake_discord: FakeDiscord, http: aiohttp.ClientSession) -> None:
    channel = fake_discord.channel("general").id
    status, body = await call(http, fake_discord, "POST", f"/channels/{channel}/messages", raw=b"{not json")
    assert (status, body["code"]) == (400, 50109)
    assert fake_discord.messages("general") == [] and not fake_discord.internal_errors


async def test_strict_can_be_switched_off(fake_discord: FakeDiscord, http: aiohttp.ClientSession) -> None:
    """``FakeDiscord(strict=False)`` (or ``fake.strict = False``) skips the description's checks; the
    documented limits still hold."""
    fake_discord.strict = False
    channel = fake_discord.channel("general").id
    status, _ = await call(
        http, fake_discord, "POST", f"/channels/{channel}/messages", body={"content": "hi", "embeds": [{"color": -1}]}
    )
    assert status == 200
    status, body = await call(http, fake_discord, "POST", f"/channels/{channel}/messages", body={"content": "x" * 2001})
    assert_refused(status, body, "content")


def test_validators_are_built_once_per_process() -> None:
    first = S.validator_for("post", "/channels/{channel_id}/messages")
    assert first is not None and S.validator_for("post", "/channels/{channel_id}/messages") is first
    assert S.validator_for("get", "/channels/{channel_id}/messages") is None  # no body


def test_every_route_the_fake_answers_with_a_body_is_in_the_description(fake_discord: FakeDiscord) -> None:
    """The fake's body-taking routes all map onto an operation of the description that has a
    requestBody, so none escapes validation."""
    for method, template, _, _ in fake_discord._routes:
        if method not in ("POST", "PUT", "PATCH"):
            continue
        concrete = template.replace("{app_id}", "1").replace("{guild_id}", "2").replace("{command_id}", "3")
        for name in ("channel_id", "message_id", "interaction_id", "token", "user_id", "emoji"):
            concrete = concrete.replace("{" + name + "}", "9")
        spec_path = S.spec_path(concrete)
        assert spec_path is not None, template
        takes_body = S.validator_for(method.lower(), spec_path) is not None
        assert takes_body or template.endswith(("/typing", "/thread-members/{user_id}", "/@me")), template


# --------------------------------------------------------------------------------------------------
# The 3-second window, on a clock the test moves
# --------------------------------------------------------------------------------------------------


class ManualClock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


async def test_callback_window_is_three_seconds(fake_discord: FakeDiscord, http: aiohttp.ClientSession) -> None:
    clock = ManualClock()
    fake_discord.clock = clock
    await register_ping(http, fake_discord)
    in_time = fake_discord.make_slash("ping")
    too_late = fake_discord.make_slash("ping")
    clock.now += L.INTERACTION_RESPONSE_DEADLINE_S
    answer = {"type": 4, "data": {"content": "pong"}}
    status, _ = await call(http, fake_discord, "POST", callback_path(in_time), body=answer, auth=False)
    assert status == 204 and in_time.callback is not None
    clock.now += 0.001
    status, body = await call(http, fake_discord, "POST", callback_path(too_late), body=answer, auth=False)
    assert (status, body["code"], body["message"]) == (404, 10062, "Unknown interaction")
    assert too_late.callback is None


async def test_follow_ups_work_for_fifteen_minutes(fake_discord: FakeDiscord, http: aiohttp.ClientSession) -> None:
    clock = ManualClock()
    fake_discord.clock = clock
    await register_ping(http, fake_discord)
    handle = fake_discord.make_slash("ping")
    status, _ = await call(http, fake_discord, "POST", callback_path(handle), body={"type": 5}, auth=False)
    assert status == 204
    hook = f"/webhooks/{fake_discord.world.application_id}/{handle.token}"
    clock.now += L.INTERACTION_TOKEN_TTL_S
    status, _ = await call(http, fake_discord, "POST", hook, body={"content": "done"}, auth=False)
    assert status == 204
    clock.now += 0.001
    status, body = await call(http, fake_discord, "POST", hook, body={"content": "more"}, auth=False)
    assert (status, body["code"]) == (404, 10015)


# --------------------------------------------------------------------------------------------------
# Archived threads
# --------------------------------------------------------------------------------------------------


async def test_archived_thread_refuses_edits_until_a_new_message_unarchives_it(
    fake_discord: FakeDiscord, http: aiohttp.ClientSession
) -> None:
    thread = fake_discord.channel("table-1")
    post = f"/channels/{thread.id}/messages"
    status, first = await call(http, fake_discord, "POST", post, body={"content": "turn 1"})
    assert status == 200
    fake_discord.archive_thread("table-1")
    status, info = await call(http, fake_discord, "GET", f"/channels/{thread.id}")
    assert info["thread_metadata"]["archived"] is True
    edit = f"/channels/{thread.id}/messages/{first['id']}"
    status, body = await call(http, fake_discord, "PATCH", edit, body={"content": "turn 1 (done)"})
    assert (status, body["code"], body["message"]) == (400, 50083, "Thread is archived")
    assert fake_discord.messages("table-1")[0].content == "turn 1"
    status, _ = await call(http, fake_discord, "POST", post, body={"content": "turn 2"})
    assert status == 200 and not thread.archived
    status, info = await call(http, fake_discord, "GET", f"/channels/{thread.id}")
    assert info["thread_metadata"]["archived"] is False
    status, body = await call(http, fake_discord, "PATCH", edit, body={"content": "turn 1 (done)"})
    assert status == 200 and fake_discord.messages("table-1")[0].content == "turn 1 (done)"


async def test_archived_thread_refuses_interaction_edits_too(
    fake_discord: FakeDiscord, http: aiohttp.ClientSession
) -> None:
    await register_ping(http, fake_discord)
    handle = fake_discord.make_slash("ping", channel="table-1")
    status, _ = await call(
        http, fake_discord, "POST", callback_path(handle), body={"type": 4, "data": {"content": "a"}}, auth=False
    )
    assert status == 204
    fake_discord.archive_thread("table-1")
    hook = f"/webhooks/{fake_discord.world.application_id}/{handle.token}/messages/@original"
    status, body = await call(http, fake_discord, "PATCH", hook, body={"content": "b"}, auth=False)
    assert (status, body["code"]) == (400, 50083)
    assert handle.original is not None and handle.original.content == "a"


async def test_a_bad_message_does_not_unarchive(fake_discord: FakeDiscord, http: aiohttp.ClientSession) -> None:
    thread = fake_discord.archive_thread("table-1")
    post = f"/channels/{thread.id}/messages"
    status, body = await call(http, fake_discord, "POST", post, body={"content": "x" * 2001})
    assert_refused(status, body, "content")
    assert thread.archived


async def test_a_locked_archived_thread_stays_archived_without_manage_threads(
    fake_discord: FakeDiscord, http: aiohttp.ClientSession
) -> None:
    bot_role = next(r for r in fake_discord.world.roles.values() if r.bot_id == fake_discord.world.bot_id)
    thread = fake_discord.archive_thread("table-1", locked=True)
    bot_role.permissions &= ~P.MANAGE_THREADS
    status, body = await call(http, fake_discord, "POST", f"/channels/{thread.id}/messages", body={"content": "hi"})
    assert (status, body["code"]) == (400, 50083) and thread.archived
    bot_role.permissions |= P.MANAGE_THREADS  # a moderator's power unarchives even a locked thread
    status, _ = await call(http, fake_discord, "POST", f"/channels/{thread.id}/messages", body={"content": "hi"})
    assert status == 200 and not thread.archived


def test_only_threads_can_be_archived(fake_discord: FakeDiscord) -> None:
    with pytest.raises(P.PayloadError):
        fake_discord.archive_thread("general")
