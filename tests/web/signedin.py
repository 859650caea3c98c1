"""Signed-in players on the game page (issue 38): a server over the composition root (sessions, the turn
flow with a recording announcer), stand-ins of ``bot.web.board``'s two functions (the tests' own, until the
board's branch is merged), browsers with their own cookie jars, and every table's rows to compare."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from typing import Any

import aiohttp
import pytest

from bot import games
from bot.composition import App, compose
from bot.service import GameInfo, MoveOutcome, Service
from bot.store import Store
from bot.web.links import Links
from bot.web.server import WebServer
from tests.web.conftest import SECRET

ALICE, BOB, CAROL = 11, 12, 13


def picture_standin(info: GameInfo, seat: int, state: Any, locale: str) -> bytes:
    """The seat's view as bytes (a stand-in of ``play_picture``: what it would draw from)."""
    view = games.rules(info.game.kind).view(state, seat)
    return b"\x89PNG-standin" + json.dumps(view, sort_keys=True, default=str).encode()


def data_standin(info: GameInfo, seat: int, state: Any, locale: str) -> dict[str, Any]:
    """A stand-in of ``play_data``: one region per legal move, its choice the move itself."""
    moves = games.rules(info.game.kind).legal_moves(state, seat)
    return {"regions": [{"id": n, "move": m} for n, m in enumerate(moves)]}


class Recorder:
    """An announcer that records what the turn flow asks of it."""

    def __init__(self) -> None:
        self.told: list[tuple[str, int, int | None]] = []

    async def announce(self, game_id: int, outcome: MoveOutcome | None, locale: str, *, repost: bool = False) -> None:
        self.told.append(("announce", game_id, outcome.version if outcome else None))

    async def show_status(self, game_id: int, locale: str, outcome: MoveOutcome | None = None) -> None:
        self.told.append(("status", game_id, outcome.version if outcome else None))

    async def acknowledge(self, origin: Any, outcome: MoveOutcome) -> None:
        self.told.append(("acknowledge", outcome.info.id, outcome.version))

    async def next_step(self, origin: Any, game_id: int) -> None:
        self.told.append(("next_step", game_id, None))

    def __getattr__(self, name: str) -> Any:
        async def other(*args: Any, **kwargs: Any) -> None:
            self.told.append((name, 0, None))

        return other


@dataclass
class Board:
    server: WebServer
    app: App
    recorder: Recorder
    browsers: list[aiohttp.ClientSession] = field(default_factory=list)

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.server.port}"

    @property
    def links(self) -> Links:
        return Links(self.base, SECRET)

    def game(self, game_id: int) -> str:
        url = self.links.game(game_id)
        assert url is not None
        return url

    async def browser(self) -> aiohttp.ClientSession:
        session = aiohttp.ClientSession(cookie_jar=aiohttp.CookieJar(unsafe=True))
        self.browsers.append(session)
        return session

    async def signed_in(self, user_xid: int, game_id: int | None) -> aiohttp.ClientSession:
        """A browser signed in as the user by a sign-in link (its button's POST)."""
        browser = await self.browser()
        raw = await self.app.sessions.link_token(user_xid, game_id)
        async with browser.post(f"{self.base}/signin/{raw}", headers={"Origin": self.base}, allow_redirects=False) as r:
            assert r.status == 303, await r.text()
        return browser

    async def play_json(self, browser: aiohttp.ClientSession, game_id: int) -> dict[str, Any]:
        async with browser.get(self.game(game_id) + "/play.json") as r:
            assert r.status == 200
            return await r.json()  # type: ignore[no-any-return]

    async def post_move(
        self, browser: aiohttp.ClientSession, game_id: int, body: Any, *, csrf: str | None, origin: str | None = "self"
    ) -> tuple[int, dict[str, Any]]:
        headers = {"Content-Type": "application/json"}
        if origin is not None:
            headers["Origin"] = self.base if origin == "self" else origin
        if csrf is not None:
            headers["X-CSRF-Token"] = csrf
        async with browser.post(self.game(game_id) + "/move", data=json.dumps(body), headers=headers) as r:
            return r.status, await r.json()


async def everything(store: Store) -> dict[str, list[Any]]:
    """Every row of every table (SQLite), to see that a refusal changed nothing."""
    names = [
        r[0]
        for r in await store.fetch_all(
            "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name"
        )
    ]
    return {name: sorted(map(repr, await store.fetch_all(f"SELECT * FROM {name}"))) for name in names}


async def two_player_game(service: Service, kind: str = "quadropolis", **options: Any) -> int:
    info = await service.create_game(
        guild_xid=None,
        channel_xid=None,
        kind=kind,
        options=options,
        host_xid=ALICE,
        host_name="Alice",
        ai_seats=0,
        locale="en",
    )
    await service.join(info.id, BOB, "Bob")
    return (await service.start(info.id, ALICE)).id


@pytest.fixture
async def board(service: Service) -> AsyncIterator[Board]:
    app = compose(service)
    recorder = Recorder()
    app.flow.announcer = recorder  # type: ignore[assignment]
    server = WebServer(app, Links("", SECRET), host="127.0.0.1", port=0, poll=0.05)
    server.door.picture = picture_standin
    server.door.data = data_standin
    await server.start()
    made = Board(server, app, recorder)
    yield made
    for browser in made.browsers:
        await browser.close()
    await server.stop()
