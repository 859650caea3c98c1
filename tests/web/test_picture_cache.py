"""The game page's pictures in a real browser cache (issue 35): cached where they may be, never showing a
forgotten name. Each picture the server draws is recorded with the strings the pen drew on it
(:func:`render.common.record_text`), by the hash of its bytes; the browser is then asked which bytes it
shows (its own HTTP cache, ``only-if-cached``)."""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from bot.service import Service
from bot.web import game as pages
from bot.web import pictures
from render.common import record_text
from tests.web.browser import PHONE, chromium, open_page
from tests.web.conftest import Site, new_game, play

pytestmark = pytest.mark.browser

NAME = "Zyxw Probe"
"""The host's name: unique, so a search for it is exact (its first word survives any shortening)."""

SHOWN_BYTES = """async () => {
  const out = [];
  for (const img of document.querySelectorAll("img")) {
    if (!img.complete || !img.naturalWidth) { out.push([img.currentSrc, null]); continue; }
    const r = await fetch(img.currentSrc, {cache: "only-if-cached", mode: "same-origin"});
    const digest = await crypto.subtle.digest("SHA-256", await r.arrayBuffer());
    out.push([img.currentSrc, Array.from(new Uint8Array(digest)).map(b => b.toString(16).padStart(2, "0")).join("")]);
  }
  return out;
}"""


class Drawn:
    """The server's drawings, by the SHA-256 of their bytes: the strings drawn on each; and the answers served."""

    def __init__(self) -> None:
        self.texts: dict[str, list[str]] = {}
        self.served = 0

    def wrap(self, draw: Callable[..., bytes | None]) -> Callable[..., bytes | None]:
        def recorded(*args: Any, **kwargs: Any) -> bytes | None:
            with record_text() as pen:
                data = draw(*args, **kwargs)
            if data is not None:
                self.texts[hashlib.sha256(data).hexdigest()] = [f"{d.text} {d.full}" for d in pen.texts]
            return data

        return recorded

    def names(self, digest: str | None, name: str) -> bool:
        assert digest is not None and digest in self.texts, "a picture the server never drew"
        return any(name.split()[0] in text for text in self.texts[digest])


async def test_no_cached_picture_names_a_forgotten_player(
    site: Site, service: Service, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A finished game (its end picture and story chart) and a turn of its replay, seen in one browser;
    seen again, every picture comes from the browser's cache; after forget-me, seen again: no picture
    shown draws the old name, and each is one the server drew after the forget-me."""
    drawn = Drawn()
    monkeypatch.setattr(pages, "picture", drawn.wrap(pages.picture))
    import render.story

    monkeypatch.setattr(render.story, "chart_png", drawn.wrap(render.story.chart_png))
    png = pictures.Pictures._png

    async def counted(self: pictures.Pictures, *args: Any, **kwargs: Any) -> Any:
        drawn.served += 1
        return await png(self, *args, **kwargs)

    monkeypatch.setattr(pictures.Pictures, "_png", counted)
    gid = await new_game(service, "quadropolis", host=NAME)
    await play(service, gid, None)
    urls = [site.game(gid), site.game(gid) + "?turn=2"]
    async with chromium() as browser:
        w = await open_page(browser, urls[0], PHONE)
        page = w.page
        before: list[list[Any]] = []
        for url in urls:
            await page.goto(url, wait_until="load")
            before += await page.evaluate(SHOWN_BYTES)
        assert len(before) >= 3 and all(digest for _, digest in before), before  # the end, turn 2, the story
        assert all(drawn.names(digest, NAME) for _, digest in before), "the pictures name the host"
        served = drawn.served
        again: list[list[Any]] = []
        for url in urls:  # again: the same pictures, and the browser asks the server for none of them
            await page.goto(url, wait_until="load")
            again += await page.evaluate(SHOWN_BYTES)
        assert again == before
        assert drawn.served == served, "the pictures were fetched again, not taken from the browser's cache"

        await service.forget_user(1)
        after: list[list[Any]] = []
        for url in urls:
            await page.goto(url, wait_until="load")
            after += await page.evaluate(SHOWN_BYTES)
        assert len(after) == len(before)
        for src, digest in after:
            assert not drawn.names(digest, NAME), f"{src} shows the forgotten name"
        assert not {d for _, d in after} & {d for _, d in before}
        assert not w.errors, w.errors
        await page.context.close()


def test_a_new_drawing_code_gives_every_picture_a_new_address(tmp_path: Path) -> None:
    """The mark's first part hashes the code and texts that draw (renderers, rules, tellers, catalogue): a
    release that draws a turn differently cannot serve its new bytes at an address a cache already holds."""
    from bot.web.pictures import DRAWN_BY, drawing_of

    for folder in DRAWN_BY:
        (tmp_path / folder).mkdir(parents=True)
    (tmp_path / "render" / "board.py").write_text("WIDTH = 800\n")
    (tmp_path / "bot" / "locales" / "en.json").write_text('{"a": "A"}')
    before = drawing_of(tmp_path)
    assert drawing_of(tmp_path) == before
    (tmp_path / "render" / "board.py").write_text("WIDTH = 801\n")
    assert drawing_of(tmp_path) != before
    (tmp_path / "render" / "board.py").write_text("WIDTH = 800\n")
    assert drawing_of(tmp_path) == before
    (tmp_path / "bot" / "locales" / "en.json").write_text('{"a": "B"}')
    assert drawing_of(tmp_path) != before
