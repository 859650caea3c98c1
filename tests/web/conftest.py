"""The web pages over a service: a server on a free port of this machine and games played by the AI."""

from __future__ import annotations

from collections.abc import AsyncIterator
from dataclasses import dataclass
from typing import Any

import aiohttp
import pytest

from bot.service import Service
from bot.store import Store
from bot.web.links import Links
from bot.web.server import WebServer

SECRET = b"test-secret-of-the-web-pages"


@dataclass(frozen=True)
class Source:
    service: Service
    store: Store


@dataclass
class Site:
    server: WebServer
    links: Links
    session: aiohttp.ClientSession

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.server.port}"

    def game(self, game_id: int, lang: str | None = None) -> str:
        url = self.links.game(game_id, lang)
        assert url is not None
        return url

    async def get(self, url: str, **kwargs: Any) -> tuple[aiohttp.ClientResponse, bytes]:
        async with self.session.get(url if url.startswith("http") else self.base + url, **kwargs) as r:
            return r, await r.read()


def make_server(service: Service, **kwargs: Any) -> WebServer:
    return WebServer(Source(service, service._store), Links("", SECRET), host="127.0.0.1", port=0, **kwargs)


@pytest.fixture
async def site(service: Service) -> AsyncIterator[Site]:
    server = make_server(service, poll=0.05)
    await server.start()
    links = Links(f"http://127.0.0.1:{server.port}", SECRET)
    async with aiohttp.ClientSession() as session:
        yield Site(server, links, session)
    await server.stop()


async def new_game(
    service: Service,
    kind: str,
    *,
    host: str = "Host",
    ai: int = 1,
    locale: str = "en",
    options: dict[str, Any] | None = None,
) -> int:
    info = await service.create_game(
        guild_xid=None,
        channel_xid=None,
        kind=kind,
        options=options or {},
        host_xid=1,
        host_name=host,
        ai_seats=ai,
        ai_level=None,
        locale=locale,
    )
    return (await service.start(info.id, 1)).id


async def play(service: Service, game_id: int, moves: int | None) -> int:
    """The AI plays every awaited seat (the host's too) for ``moves`` moves (None: to the end)."""
    done = 0
    while moves is None or done < moves:
        info = await service.info(game_id)
        if info.game.status != "active" or not info.awaiting:
            break
        await service.play_for(game_id, min(info.awaiting))
        done += 1
    return done
