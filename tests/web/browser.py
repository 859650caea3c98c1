"""Debian's Chromium driven by Playwright for the browser tests (marker ``browser``; skipped with one line
when Chromium is missing, unless CI is set: tests/conftest.py)."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from typing import Any

from playwright.async_api import Browser, Page, async_playwright

from tests.conftest import CHROMIUM

PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 900}


@dataclass
class Watched:
    """A page with what went wrong on it: console errors, script errors, dialogs (an alert means a script ran)."""

    page: Page
    errors: list[str] = field(default_factory=list)
    dialogs: list[str] = field(default_factory=list)

    async def no_horizontal_scroll(self) -> None:
        wide = await self.page.evaluate("[document.documentElement.scrollWidth, window.innerWidth]")
        assert wide[0] <= wide[1], f"the page is {wide[0]} px wide in a {wide[1]} px viewport"


@asynccontextmanager
async def chromium() -> AsyncIterator[Browser]:
    async with async_playwright() as p:
        browser = await p.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox", "--disable-gpu"])
        try:
            yield browser
        finally:
            await browser.close()


async def open_page(browser: Browser, url: str, viewport: dict[str, int], **context: Any) -> Watched:
    ctx = await browser.new_context(viewport=viewport, **context)  # type: ignore[arg-type]
    page = await ctx.new_page()
    watched = Watched(page)
    page.on("console", lambda m: watched.errors.append(m.text) if m.type == "error" else None)
    page.on("pageerror", lambda e: watched.errors.append(str(e)))

    async def dialog(d: Any) -> None:
        watched.dialogs.append(d.message)
        await d.dismiss()

    page.on("dialog", dialog)
    response = await page.goto(url, wait_until="load")
    assert response is not None and response.status == 200, url
    return watched
