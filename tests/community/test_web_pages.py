"""The league page and the player page (``bot/web/community.py``) over HTTP, on both engines: standings per
season, every counted game linked to its game page, the pictures, the player's games under their name in that
server only, escaping of hostile names, friendly 404s for bad links, and forget-me removing the player."""

from __future__ import annotations

import html
import io
import re
from collections.abc import AsyncIterator
from dataclasses import dataclass

import aiohttp
import pytest
from PIL import Image

from bot.composition import App
from bot.i18n import t
from bot.service import FORGOTTEN_NAME, Service
from bot.store import web as web_store
from bot.web import links
from bot.web.links import Links
from bot.web.server import WebServer
from tests.community.conftest import ANA, BEA, CEM, GUILD, NAMES
from tests.community.test_leagues import ai_game
from tests.conftest import FakeClock
from tests.web.conftest import Source

SECRET = b"league-and-player-pages-secret"
HOSTILE = '"><img src=x onerror=alert(1)><script>alert(2)</script>\u202eevil'
OTHER_GUILD = 77


@dataclass
class Site:
    server: WebServer
    session: aiohttp.ClientSession

    async def get(self, path: str) -> tuple[int, str, dict[str, str], bytes]:
        async with self.session.get(f"http://127.0.0.1:{self.server.port}{path}", allow_redirects=False) as r:
            body = await r.read()
            return r.status, body.decode("utf-8", "replace"), dict(r.headers), body


@pytest.fixture
async def site(service: Service) -> AsyncIterator[Site]:
    server = WebServer(Source(service, service._store), Links("", SECRET), host="127.0.0.1", port=0)
    await server.start()
    async with aiohttp.ClientSession() as session:
        yield Site(server, session)
    await server.stop()


async def rated_league(community: App, service: Service, clock: FakeClock, *, ana: str = "Ana") -> int:
    league = await community.leagues.create_league(GUILD, "Bids <b>", "toy", rated=True, created_by=ANA)
    for user, name in ((ANA, ana), (BEA, NAMES[BEA]), (CEM, NAMES[CEM])):
        await community.leagues.join_league(GUILD, "Bids <b>", user, name)
    NAMES[ANA] = ana
    try:
        for a, b in ((ANA, BEA), (BEA, CEM), (ANA, CEM), (ANA, BEA)):
            await ai_game(service, clock, a, b)
    finally:
        NAMES[ANA] = "Ana"
    await community.leagues.table(GUILD, "Bids <b>")  # counts what the listener may have missed
    return league.id


def png_size(body: bytes) -> tuple[int, int]:
    return Image.open(io.BytesIO(body)).size


async def test_the_league_page_shows_standings_games_and_charts(
    site: Site, service: Service, community: App, clock: FakeClock
) -> None:
    league_id = await rated_league(community, service, clock, ana=HOSTILE)
    path = links.path_league(SECRET, league_id)
    status, page, headers, _ = await site.get(path)
    assert status == 200 and headers["X-Content-Type-Options"] == "nosniff"
    assert "Content-Security-Policy" in headers
    # Hostile names are text, never markup; the league's own name too.
    assert "<script>alert" not in page and "<img src=x" not in page and "<b>" not in page
    assert html.escape(HOSTILE) in page and html.escape("Bids <b>") in page
    assert t("web.league.season", "en", number=1, start="", end="").split(" (")[0] in page
    # Every counted game, each a link to its game page.
    counted = await community.leagues.db.league_games(league_id)
    assert len(counted) == 4
    for g in counted:
        assert f'href="{links.path_game(SECRET, g.game_id)}?lang=en"' in page
    # The table: three members, each with their games.
    rows = re.findall(r'<tr><td>(\d+)</td><th scope="row">([^<]*)</th>', page)
    assert [int(p) for p, _ in rows] == [1, 2, 3] and {n for _, n in rows} == {html.escape(HOSTILE), "Bea", "Cem"}
    # The pictures: the standings and the leaders' rating charts, real PNGs.
    pictures = re.findall(r'<img src="([^"]+)"', page)
    assert any(p.endswith("/s1/standings.png?lang=en") for p in pictures)
    charts = [p for p in pictures if re.search(r"/s1/r\d\.png", p)]
    assert len(charts) == 3
    for picture in pictures:
        status, _, headers, body = await site.get(html.unescape(picture))
        assert status == 200 and headers["Content-Type"] == "image/png" and png_size(body)[0] > 100
        assert headers["Cache-Control"] == "no-store"
    status, _, _, _ = await site.get(f"{path}/s1/r4.png")
    assert status == 404
    status, _, _, _ = await site.get(f"{path}/s2/standings.png")
    assert status == 404


async def test_the_league_page_speaks_the_asked_language(
    site: Site, service: Service, community: App, clock: FakeClock
) -> None:
    league_id = await rated_league(community, service, clock)
    for lang in ("hu", "es", "ru", "pl"):
        _, page, _, _ = await site.get(links.path_league(SECRET, league_id) + f"?lang={lang}")
        assert f'lang="{lang}"' in page
        assert html.escape(t("web.league.games", lang)) in page and t("web.league.games", lang) != t(
            "web.league.games", "en"
        )


async def test_bad_league_and_player_links_are_a_friendly_404(
    site: Site, service: Service, community: App, clock: FakeClock
) -> None:
    league_id = await rated_league(community, service, clock)
    good = links.path_league(SECRET, league_id)
    player = links.path_player(SECRET, GUILD, ANA)
    for bad in (
        good[:-1] + ("A" if good[-1] != "A" else "B"),
        links.path_league(SECRET, league_id + 1),
        links.path_league(b"another key", league_id),
        f"/l/{league_id}/x",
        "/l/1",
        player[:-1] + ("A" if player[-1] != "A" else "B"),
        links.path_player(SECRET, GUILD, 999),
        links.path_player(SECRET, OTHER_GUILD, ANA),
        f"/p/{GUILD}/{ANA}/" + "x" * 22,
        f"{good}/s1/r1.png".replace(good.rsplit("/", 1)[1], "x" * 22),
    ):
        status, page, _, _ = await site.get(bad)
        assert status == 404, bad
        assert "Traceback" not in page


async def test_the_player_page_shows_their_games_and_leagues_under_their_server_name(
    site: Site, service: Service, community: App, clock: FakeClock
) -> None:
    league_id = await rated_league(community, service, clock)
    # The same player in another server under another name: never on this server's page.
    info = await service.create_game(
        guild_xid=OTHER_GUILD, channel_xid=55, kind="toy", options={}, host_xid=ANA, host_name="Elsewhere-Name"
    )
    await service.join(info.id, BEA, "Bea")
    await service.start(info.id, ANA)
    # A lobby abandoned before its start has no page: not listed either.
    lobby = await service.create_game(
        guild_xid=GUILD, channel_xid=56, kind="toy", options={}, host_xid=ANA, host_name="Ana"
    )
    await service.abandon(lobby.id, ANA, is_admin=False)
    status, page, _, _ = await site.get(links.path_player(SECRET, GUILD, ANA))
    assert status == 200
    assert "<h1>Ana</h1>" in page and "Elsewhere-Name" not in page
    assert f"#{lobby.id}," not in page
    assert f"#{info.id}" not in page  # the other server's game
    games = [
        g.game_id
        for g in await community.leagues.db.league_games(league_id)
        if any(o["user"] == ANA for o in g.outcome)
    ]
    assert len(games) == 3
    for gid in games:
        assert f'href="{links.path_game(SECRET, gid)}?lang=en"' in page
    assert f'href="{links.path_league(SECRET, league_id)}?lang=en"' in page
    chart = re.search(r'<img src="([^"]+/l\d+\.png[^"]*)"', page)
    assert chart is not None
    status, _, headers, body = await site.get(html.unescape(chart.group(1)))
    assert status == 200 and headers["Content-Type"] == "image/png" and png_size(body)[0] > 100
    # In the other server, the other name and only that game.
    status, page, _, _ = await site.get(links.path_player(SECRET, OTHER_GUILD, ANA))
    assert status == 200 and "<h1>Elsewhere-Name</h1>" in page and "Ana<" not in page


async def test_forget_me_removes_the_player_from_every_page(
    site: Site, service: Service, community: App, clock: FakeClock
) -> None:
    league_id = await rated_league(community, service, clock, ana="Anastasia")
    player = links.path_player(SECRET, GUILD, ANA)
    league = links.path_league(SECRET, league_id)
    status, page, _, _ = await site.get(league)
    assert "Anastasia" in page
    before = re.findall(r'<img src="([^"]+)"', page)
    assert (await site.get(player))[0] == 200
    await community.forget(ANA)
    status, page, _, _ = await site.get(player)
    assert status == 404
    status, page, _, _ = await site.get(league)
    assert status == 200 and "Anastasia" not in page
    assert html.escape(FORGOTTEN_NAME) in page  # their seats in the counted games, under the neutral name
    for picture in re.findall(r'<img src="([^"]+)"', page) + before:
        status, _, _, body = await site.get(html.unescape(picture))
        assert status in (200, 404) and b"Anastasia" not in body


async def test_the_stored_key_is_made_once_on_either_engine(service: Service) -> None:
    first = await web_store.secret(service._store)
    assert len(first) == web_store.KEY_BYTES and await web_store.secret(service._store) == first


async def test_the_league_page_shows_its_time_control(
    site: Site, service: Service, community: App, clock: FakeClock
) -> None:
    """A season with a time control says so on the league's page, in the page's language; one without says
    nothing. A new season starts with the league's; changing it then changes the new season's only, and the
    page shows each season's under its heading."""
    league = await community.leagues.create_league(GUILD, "Slow", "toy", created_by=ANA)
    path = links.path_league(SECRET, league.id)
    _, page, _, _ = await site.get(path)
    assert "time bank" not in page
    await community.leagues.edit_league(GUILD, "Slow", clock="3d+1d")
    _, page, _, _ = await site.get(path)
    slow = html.escape(
        "This season's games start with a time bank: 3 days, plus 1 day a finished turn, at most 7 days."
    )
    assert slow in page
    _, page, _, _ = await site.get(f"{path}?lang=pl")
    assert (
        "Gry tego sezonu zaczynają się z pulą czasu: 3 dni, plus 1 dzień za każdą zakończoną turę, najwyżej 7 dni."
        in page
    )
    clock.advance(3600)
    await community.leagues.new_season(GUILD, "Slow", 30)
    await community.leagues.edit_league(GUILD, "Slow", clock="1d+12h")
    _, page, _, _ = await site.get(path)
    fast = html.escape(
        "This season's games start with a time bank: 1 day, plus 12 hours a finished turn, at most 3 days."
    )
    second, first = page.index("Season 2"), page.index("Season 1")
    assert second < page.index(fast) < first < page.index(slow)
