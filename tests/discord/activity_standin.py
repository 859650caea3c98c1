"""The board as a Discord Activity in a stand-in Discord client (issue 39): the real bot with ``ACTIVITY=on``
against the fake Discord (its OAuth2 application's id the bot's), and Chromium showing the stand-in client
(``bot/testing/fakediscord/activity_client/``) at Discord's own origin (Playwright serves it there), which frames
the Activity's URL with the query Discord adds and answers the Embedded App SDK's postMessage protocol. The
SDK's build runs unmodified in the frame. The frame is the bot's own pages (``WEB_BASE_URL``, on this
machine), a cross-site frame of ``https://discord.com`` as in Discord: its session cookie must be one such a
frame sends."""

from __future__ import annotations

import contextlib
import json
import logging
import secrets
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from typing import Any
from urllib.parse import urlencode

import discord
from playwright.async_api import Browser, Frame, Page, Route, async_playwright

from bot.settings import Settings
from bot.testing.fakediscord.server import FakeDiscord
from cogs.app import CityBot
from tests.conftest import CHROMIUM, FakeClock
from tests.discord.conftest import Harness, free_port
from tests.discord.test_web_browser import until

DISCORD = "https://discord.com"
WAIT = 30.0
"""Seconds a page may take on a loaded machine (a wait, not a timed assertion)."""


@contextlib.asynccontextmanager
async def discord_chromium() -> AsyncIterator[Browser]:
    """Chromium for the stand-in client. Its Local Network Access checks are off: the stand-in is served at
    Discord's public origin and frames the bot's pages on this machine, which Chromium would otherwise hold
    for the user's permission (in Discord the frame is Discord's own proxy, a public host)."""
    async with async_playwright() as p:
        browser = await p.chromium.launch(
            executable_path=CHROMIUM,
            args=["--no-sandbox", "--disable-gpu", "--disable-features=LocalNetworkAccessChecks"],
        )
        try:
            yield browser
        finally:
            await browser.close()


def client_file(name: str) -> str:
    return resources.files("bot.testing.fakediscord").joinpath("activity_client", name).read_text("utf-8")


async def run_harness(
    tmp_path: Path, clock: FakeClock, database: str | Path, *, activity: bool = True, dev_guild: bool = True
) -> AsyncIterator[Harness]:
    """The bot with its pages, ``DISCORD_CLIENT_ID``/``_SECRET`` the fake's application and ``ACTIVITY``."""
    url = database if isinstance(database, str) else None
    fake = await FakeDiscord().start()
    fake.oauth.client_id = str(fake.world.application_id)  # Discord's OAuth2 client id is the application's
    old_base = discord.http.Route.BASE
    discord.http.Route.BASE = fake.api_url
    port = free_port()
    settings = Settings(
        token=fake.token,
        database_path=Path(database) if url is None else tmp_path / "unused.sqlite3",
        dev_guild_id=fake.world.guild_id if dev_guild else None,
        log_level=logging.INFO,
        ai_pause_seconds=0.0,
        database_url=url,
        web_port=port,
        web_base_url=f"http://127.0.0.1:{port}",
        discord_client_id=fake.oauth.client_id,
        discord_client_secret=fake.oauth.client_secret,
        activity=activity,
    )
    bot = CityBot(settings, clock=clock)
    try:
        await bot.login(fake.token)
        fake.use_client(bot)
        yield Harness(fake, bot, clock)
    finally:
        with contextlib.suppress(AssertionError):
            await Harness(fake, bot, clock).settle()
        await bot.close()
        await fake.stop()
        discord.http.Route.BASE = old_base


def user_payload(h: Harness, name: str) -> dict[str, Any]:
    user = h.fake.user(name)
    return {"id": str(user.id), "username": user.username, "discriminator": "0", "global_name": user.global_name}


def participant(h: Harness, name: str) -> dict[str, Any]:
    return {**user_payload(h, name), "avatar": None, "flags": 0, "bot": False}


@dataclass
class Activity:
    """One user's Discord client showing the Activity of an instance."""

    h: Harness
    page: Page
    user: str
    instance_id: str
    errors: list[str] = field(default_factory=list)

    @property
    def shell(self) -> Frame:
        """The Activity's own page (the frame the stand-in made)."""
        frame = next((f for f in self.page.frames if f.parent_frame is self.page.main_frame), None)
        assert frame is not None, [f.url for f in self.page.frames]
        return frame

    async def game(self) -> Frame:
        """The game page inside the Activity's page (once it is open)."""
        try:
            await until(
                self.shell,
                "!!(document.getElementById('activity-game') || {getAttribute() {}}).getAttribute('src')",
                WAIT,
            )
        except AssertionError:
            said = await self.shell.evaluate("(document.getElementById('activity-status') || {}).textContent")
            raise AssertionError((said, self.errors, await self.messages())) from None
        for _ in range(int(WAIT / 0.05)):
            found = next((f for f in self.page.frames if "/activity/g/" in f.url), None)
            if found is not None:
                await until(found, "!!document.getElementById('live')", WAIT)
                return found
            await self.page.wait_for_timeout(50)
        raise AssertionError([f.url for f in self.page.frames])

    async def participants(self, names: list[str]) -> None:
        """The instance's participants change (Discord's update event, to a subscribed Activity)."""
        for name in names:
            self.h.fake.activities.join(self.instance_id, int(self.h.fake.user(name).id))
        listed = [participant(self.h, n) for n in names]
        await self.page.evaluate(f"window.standin.participants({json.dumps(listed)})")

    async def messages(self) -> list[Any]:
        """Every message between the stand-in and the frame, in order."""
        return list(await self.page.evaluate("window.standin.log"))


async def open_activity(
    h: Harness,
    browser: Browser,
    user: str,
    instance_id: str,
    viewport: dict[str, int],
    *,
    consent: bool = True,
    platform: str = "desktop",
    others: list[str] | None = None,
) -> Activity:
    """A user's stand-in client at ``https://discord.com`` framing the Activity of ``instance_id``."""
    fake = h.fake
    instance = fake.activities.instances[instance_id]
    base = h.bot.web_links.base_url
    frame_id = secrets.token_hex(8)
    query = {
        "instance_id": instance_id,
        "location_id": f"gc-{instance.channel_id}",
        "launch_id": f"{instance_id}-launch",
        "channel_id": str(instance.channel_id),
        "guild_id": str(instance.guild_id),
        "frame_id": frame_id,
        "platform": platform,
    }
    config = {
        "url": f"{base}/?{urlencode(query)}",
        "client_id": fake.oauth.client_id,
        "frame_id": frame_id,
        "user": user_payload(h, user),
        "participants": [participant(h, n) for n in [user, *(others or [])]],
    }
    context = await browser.new_context(viewport=viewport)  # type: ignore[arg-type]
    page = await context.new_page()

    async def serve(route: Route) -> None:
        path = route.request.url.split("?")[0]
        if path.endswith("/client.js"):
            await route.fulfill(body=client_file("client.js"), content_type="application/javascript")
        else:
            html = client_file("client.html").replace("{{CONFIG}}", json.dumps(config).replace("</", "<\\/"))
            await route.fulfill(body=html, content_type="text/html")

    async def authorize(client_id: str) -> str | None:
        return fake.oauth.activity_code(user, client_id) if consent else None

    async def authenticate(token: str) -> dict[str, Any] | None:
        if fake.oauth.tokens.get(token) != int(fake.user(user).id):
            return None
        return {**user_payload(h, user), "avatar": None, "public_flags": 0}

    await context.route(f"{DISCORD}/**", serve)
    await page.expose_function("standinAuthorize", authorize)
    await page.expose_function("standinAuthenticate", authenticate)
    activity = Activity(h, page, user, instance_id)
    page.on("console", lambda m: activity.errors.append(m.text) if m.type == "error" else None)
    page.on("pageerror", lambda e: activity.errors.append(str(e)))
    response = await page.goto(f"{DISCORD}/channels/{instance.guild_id}/{instance.channel_id}")
    assert response is not None and response.status == 200
    return activity
