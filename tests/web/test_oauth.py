""" "Sign in with Discord" against the fake Discord (issue 38): the consent's redirect, the token exchange with
PKCE and ``/users/@me`` with the token; a wrong ``state`` and a denied consent sign no one in and change no
table; without the two settings there is no button and no route."""

from __future__ import annotations

from collections.abc import AsyncIterator
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import parse_qs, urlencode, urlsplit

import aiohttp
import pytest

from bot import settings
from bot.composition import App, compose
from bot.i18n import t
from bot.service import Service
from bot.testing.fakediscord.oauth import me_problems
from bot.testing.fakediscord.payloads import user_payload
from bot.testing.fakediscord.server import FakeDiscord
from bot.web.links import Links
from bot.web.oauth import OAuth
from bot.web.server import WebServer
from tests.discord.conftest import free_port
from tests.web.conftest import SECRET
from tests.web.signedin import everything


@dataclass
class Site:
    fake: FakeDiscord
    app: App
    base: str
    browser: aiohttp.ClientSession


@pytest.fixture
async def site(service: Service) -> AsyncIterator[Site]:
    fake = await FakeDiscord().start()
    app = compose(service)
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    oauth = OAuth(
        fake.oauth.client_id,
        fake.oauth.client_secret,
        authorize_url=fake.url + "/oauth2/authorize",
        api_url=fake.api_url,
    )
    fake.oauth.redirect_uris.add(base + "/signin/discord/done")
    server = WebServer(app, Links(base, SECRET), host="127.0.0.1", port=port, extra_routes=oauth.routes)
    await server.start()
    async with aiohttp.ClientSession(cookie_jar=aiohttp.CookieJar(unsafe=True)) as browser:
        yield Site(fake, app, base, browser)
    await server.stop()
    await fake.stop()


async def test_sign_in_with_discord(site: Site, service: Service) -> None:
    async with site.browser.get(site.base + "/sessions") as r:
        assert "Sign in with Discord" in await r.text()
    async with site.browser.get(site.base + "/signin/discord") as r:
        assert r.status == 200 and str(r.url) == site.base + "/sessions?lang=en"
        page = await r.text()
    assert "(this browser)" in page and "Sign in with Discord)" in page  # how: Sign in with Discord
    alice = int(site.fake.user("alice").id)
    rows = await service._store.fetch_all("SELECT user_xid, how FROM web_sessions")
    assert [tuple(r) for r in rows] == [(alice, "discord")]
    # The access token was used once and is kept nowhere; the state is used up.
    assert site.fake.oauth.tokens and not site.fake.oauth.refused
    kept = repr(await everything(service._store))
    assert not any(token in kept for token in site.fake.oauth.tokens)
    assert await service._store.fetch_all("SELECT * FROM web_oauth") == []


async def test_a_wrong_state_signs_no_one_in(site: Site, service: Service) -> None:
    async with site.browser.get(site.base + "/signin/discord", allow_redirects=False) as r:
        consent = r.headers["Location"]
    before = await everything(service._store)
    query = {k: v[0] for k, v in parse_qs(urlsplit(consent).query).items()}
    forged = {**query, "state": "A" * 43}
    async with site.browser.get(consent.split("?")[0] + "?" + urlencode(forged)) as r:
        assert r.status == 403
        assert "did not start on this browser, or it took too long" in await r.text()
    assert await everything(service._store) == before
    # Nor does the right state from another browser (the state is bound to the cookie of the one that began).
    async with aiohttp.ClientSession(cookie_jar=aiohttp.CookieJar(unsafe=True)) as other, other.get(consent) as r:
        assert r.status == 403
    assert await everything(service._store) == before


async def test_a_denied_consent_signs_no_one_in(site: Site, service: Service) -> None:
    site.fake.oauth.consent = None
    async with site.browser.get(site.base + "/signin/discord", allow_redirects=False) as r:
        consent = r.headers["Location"]
    before = await everything(service._store)
    async with site.browser.get(consent) as r:
        assert r.status == 403 and "the request was cancelled" in await r.text()
    assert await everything(service._store) == before
    assert await service._store.fetch_all("SELECT * FROM web_sessions") == []


async def test_without_the_settings_there_is_no_button(service: Service) -> None:
    server = WebServer(compose(service), Links("http://127.0.0.1:1", SECRET), host="127.0.0.1", port=0)
    await server.start()
    try:
        async with aiohttp.ClientSession() as browser:
            async with browser.get(f"http://127.0.0.1:{server.port}/sessions") as r:
                assert "Sign in with Discord" not in await r.text()
            async with browser.get(f"http://127.0.0.1:{server.port}/signin/discord") as r:
                assert r.status == 404
    finally:
        await server.stop()


def test_the_fakes_users_me_is_what_the_description_allows() -> None:
    fake = FakeDiscord()
    body = {**user_payload(fake.user("alice")), "mfa_enabled": False, "locale": "en-US"}
    assert me_problems(body) == []
    assert me_problems({k: v for k, v in body.items() if k != "locale"}) != []  # the check can fail


def test_the_secret_never_shows() -> None:
    oauth = OAuth("112233445566778899", "very-secret-value")
    assert "very-secret-value" not in repr(oauth) and "very-secret-value" not in str(vars(oauth).keys())


@pytest.mark.parametrize(
    ("env", "ok"),
    [
        ({}, True),
        ({"DISCORD_CLIENT_ID": "112233445566778899", "DISCORD_CLIENT_SECRET": "s3cr3t"}, True),
        ({"DISCORD_CLIENT_ID": "112233445566778899"}, False),
        ({"DISCORD_CLIENT_SECRET": "s3cr3t"}, False),
        ({"DISCORD_CLIENT_ID": "my-app", "DISCORD_CLIENT_SECRET": "s3cr3t"}, False),
    ],
)
def test_the_two_settings_go_together(tmp_path: Path, env: dict[str, str], ok: bool) -> None:
    load = lambda: settings.load({"DISCORD_TOKEN": "abc", **env}, env_file=tmp_path / "none.env")  # noqa: E731
    if ok:
        got = load()
        assert (got.discord_client_id, got.discord_client_secret) == (
            env.get("DISCORD_CLIENT_ID", ""),
            env.get("DISCORD_CLIENT_SECRET", ""),
        )
    else:
        with pytest.raises(settings.SettingsError) as refused:
            load()
        assert str(refused.value) == t("cli.settings.discord_oauth_pair", "en")
    assert settings.BY_NAME["DISCORD_CLIENT_SECRET"].secret
