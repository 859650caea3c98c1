"""Nothing of an analysis is shown before a game ends (issue 40): even with an analysis kept for a game still in
play (which the bot never makes: only finished games are queued), its page shows no mark and no accuracy."""

from __future__ import annotations

from collections.abc import AsyncIterator

import aiohttp
import pytest

from bot.composition import App, compose
from bot.service import Service
from bot.web.links import Links
from bot.web.server import WebServer
from tests.web.conftest import SECRET, new_game, play


@pytest.fixture
async def served(service: Service) -> AsyncIterator[tuple[App, Links]]:
    app = compose(service, boot="web")
    server = WebServer(app, Links("", SECRET), host="127.0.0.1", port=0)
    await server.start()
    try:
        yield app, Links(f"http://127.0.0.1:{server.port}", SECRET)
    finally:
        await server.stop()


async def test_a_game_in_play_shows_no_analysis_even_if_one_were_kept(
    served: tuple[App, Links], service: Service
) -> None:
    app, links = served
    gid = await new_game(service, "quadropolis", options={"mode": "classic"})
    await play(service, gid, 6)
    db = app.analyses.db
    assert await db.queue(gid, 1, 0)
    [row] = await db.take_due("forced", 0, 1, max_attempts=3, lease_ms=60_000)
    made = {
        "players": [{"seat": 0, "decisions": 3, "accuracy": 50.0, "average_loss": 2.0, "misses": {}}],
        "moves": [{"number": n, "seat": 0, "loss": 7.0, "miss": "large"} for n in range(1, 7)],
        "turning_points": [],
    }
    assert await db.finish(row.id, "forced", made, 0, None)
    url = links.game(gid)
    assert url is not None
    async with aiohttp.ClientSession() as session, session.get(url) as r:
        page = await r.text()
    assert r.status == 200 and 'data-turn="1"' in page  # the move list is there, unmarked
    assert 'class="loss"' not in page and 'id="accuracy"' not in page and "??" not in page
