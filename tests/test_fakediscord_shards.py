"""The fake Discord's gateway with shards: IDENTIFY with ``shard: [id, count]`` gets the guilds of that
shard (Discord's rule ``(guild_id >> 22) % count``), an interaction of a guild arrives on its shard only,
``GET /gateway/bot`` recommends the fake's shard count."""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator
from typing import Any

import aiohttp
import pytest
import pytest_asyncio

from bot.testing.fakediscord import payloads as P
from bot.testing.fakediscord.server import FakeDiscord
from tests.fakediscord import fixtures

fake_discord = fixtures.fake_discord


@pytest_asyncio.fixture
async def http() -> AsyncIterator[aiohttp.ClientSession]:
    async with aiohttp.ClientSession() as session:
        yield session


async def recv(ws: aiohttp.ClientWebSocketResponse) -> dict[str, Any]:
    msg = await ws.receive(timeout=5)
    assert msg.type == aiohttp.WSMsgType.TEXT, msg
    return dict(json.loads(msg.data))


async def identify(ws: aiohttp.ClientWebSocketResponse, token: str, shard: Any) -> dict[str, Any]:
    await recv(ws)  # HELLO
    await ws.send_json({"op": 2, "d": {"token": token, "intents": 0, "properties": {}, "shard": shard}})
    ready = await recv(ws)
    assert ready["t"] == "READY"
    return ready


def test_a_new_guild_lands_on_the_shard_asked_for() -> None:
    world = P.default_world()
    for shard in ((0, 2), (1, 2), (2, 3), (1, 3)):
        gid = world.add_guild(f"guild {shard}", shard=shard)
        assert P.shard_of(gid, shard[1]) == shard[0]
    assert len(world.guild_ids) == 5 and len(set(world.guild_ids)) == 5


async def test_each_shard_gets_its_guilds_and_their_interactions(
    fake_discord: FakeDiscord, http: aiohttp.ClientSession
) -> None:
    world = fake_discord.world
    main_shard = P.shard_of(world.guild_id, 2)
    other = world.add_guild("Town Hall", shard=(1 - main_shard, 2))
    plaza = world.add_channel("plaza", guild_id=other)
    fake_discord.shard_count = 2
    async with http.get(
        fake_discord.api_url + "/gateway/bot", headers={"Authorization": f"Bot {fake_discord.token}"}
    ) as resp:
        assert (await resp.json())["shards"] == 2
    async with (
        http.ws_connect(fake_discord.gateway_url) as main_ws,
        http.ws_connect(fake_discord.gateway_url) as other_ws,
    ):
        ready_main = await identify(main_ws, fake_discord.token, [main_shard, 2])
        ready_other = await identify(other_ws, fake_discord.token, [1 - main_shard, 2])
        assert [g["id"] for g in ready_main["d"]["guilds"]] == [str(world.guild_id)]
        assert [g["id"] for g in ready_other["d"]["guilds"]] == [str(other)]
        assert ready_other["d"]["shard"] == [1 - main_shard, 2]
        created = await recv(other_ws)
        assert created["t"] == "GUILD_CREATE" and created["d"]["id"] == str(other)
        assert [c["name"] for c in created["d"]["channels"]] == ["plaza"]
        assert created["d"]["roles"][0]["id"] == str(other)  # its own @everyone
        assert (await recv(main_ws))["d"]["id"] == str(world.guild_id)

        in_other = await fake_discord.click(_post(fake_discord, plaza.id), "x:1", user="alice")
        got = await recv(other_ws)
        assert got["t"] == "INTERACTION_CREATE" and got["d"]["id"] == str(in_other.id)
        assert got["d"]["guild_id"] == str(other)
        with pytest.raises(asyncio.TimeoutError):
            await main_ws.receive(timeout=0.2)
        in_main = await fake_discord.click(_post(fake_discord, world.channel("games").id), "x:2", user="bob")
        assert (await recv(main_ws))["d"]["id"] == str(in_main.id)
        with pytest.raises(asyncio.TimeoutError):
            await other_ws.receive(timeout=0.2)
        assert fake_discord.gateway.shard_connected(0) and fake_discord.gateway.shard_connected(1)


async def test_an_invalid_shard_is_refused(fake_discord: FakeDiscord, http: aiohttp.ClientSession) -> None:
    for shard in ([2, 2], [0], ["0", 2], [-1, 2]):
        async with http.ws_connect(fake_discord.gateway_url) as ws:
            await recv(ws)
            await ws.send_json({"op": 2, "d": {"token": fake_discord.token, "intents": 0, "shard": shard}})
            await ws.receive(timeout=5)
            assert ws.close_code == 4010, shard


async def test_a_shard_that_is_down_gets_nothing(fake_discord: FakeDiscord, http: aiohttp.ClientSession) -> None:
    world = fake_discord.world
    other = world.add_guild("Town Hall", shard=(1 - P.shard_of(world.guild_id, 2), 2))
    plaza = world.add_channel("plaza", guild_id=other)
    async with http.ws_connect(fake_discord.gateway_url) as ws:
        await identify(ws, fake_discord.token, [P.shard_of(world.guild_id, 2), 2])
        with pytest.raises(RuntimeError, match=f"for guild {other}"):
            await fake_discord.click(_post(fake_discord, plaza.id), "x:1", user="alice")


def _post(fake: FakeDiscord, channel_id: int) -> P.FakeMessage:
    """A bot message with a button in a channel (what a click needs)."""
    message = P.FakeMessage(
        id=fake.world.new_id(),
        channel_id=channel_id,
        guild_id=fake.world.channels[channel_id].guild_id,
        author_id=fake.world.bot_id,
        content="hi",
        components=[
            {"type": 1, "components": [{"type": 2, "style": 1, "label": "x", "custom_id": f"x:{n}"} for n in (1, 2)]}
        ],
    )
    fake.world.messages[message.id] = message
    return message
