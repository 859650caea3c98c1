"""`python -m bot local --web` in a real Chromium: the page shows the end of the game (issue 35, defect 6)."""

from __future__ import annotations

import asyncio
import codecs
import re
from pathlib import Path

import pytest

from bot.i18n import t
from tests.cli.helpers import local_web
from tests.web.browser import DESKTOP, chromium, open_page

pytestmark = pytest.mark.browser

PROMPT = "q to quit]: "
"""How the terminal's move prompt ends (``local.prompt`` in English)."""


async def test_local_web_shows_the_result_after_the_last_move(tmp_path: Path) -> None:
    """A whole game of `local quadropolis --ai 1 --web` typed at its prompt, the page open in a browser from
    the first move: after the last move the terminal says the page stays up and how to close it, the open
    page shows the result, and Enter closes it (exit 0)."""
    proc = await local_web(tmp_path, "quadropolis", "--ai", "1", "--level", "random")
    stays = t("local.web_stays", "en")
    address: asyncio.Future[str] = asyncio.get_running_loop().create_future()
    over = asyncio.Event()
    seen = ""

    async def typist() -> None:
        """Answers every move prompt with 1; notes the page's address and the end."""
        nonlocal seen
        assert proc.stdout is not None and proc.stdin is not None
        utf8 = codecs.getincrementaldecoder("utf-8")()
        while True:
            chunk = await proc.stdout.read(4096)
            if not chunk:
                return
            seen += utf8.decode(chunk)  # a character split between two reads waits for its rest
            url = re.search(r"http://127\.0\.0\.1:\d+/g/1/\S+", seen)
            if url and not address.done():
                address.set_result(url[0])
            if stays in seen:
                over.set()
            elif seen.endswith(PROMPT):
                proc.stdin.write(b"1\n")
                await proc.stdin.drain()

    typing = asyncio.create_task(typist())
    try:
        url = await asyncio.wait_for(address, 60)
        async with chromium() as browser:
            w = await open_page(browser, url, DESKTOP)
            assert await w.page.locator(".result").count() == 0  # the game has only begun
            ending = asyncio.create_task(over.wait())
            await asyncio.wait({ending, typing}, timeout=600, return_when=asyncio.FIRST_COMPLETED)
            ending.cancel()
            assert over.is_set(), seen[-500:]  # not the end of the terminal's output: it says the page stays
            await w.page.locator(".result").wait_for(timeout=30_000)  # the open page follows to the end
            assert "1. " in (await w.page.locator(".result").inner_text())
            await w.page.reload()  # and it is still served
            assert await w.page.locator(".result").count() == 1
        assert proc.returncode is None  # the page stays up until Enter
        proc.stdin.write(b"\n")
        await proc.stdin.drain()
        assert await asyncio.wait_for(proc.wait(), 60) == 0
    finally:
        if proc.returncode is None:
            proc.kill()
            await proc.wait()
        typing.cancel()
    err = (await proc.stderr.read()).decode() if proc.stderr is not None else ""
    assert "Traceback" not in err, err
