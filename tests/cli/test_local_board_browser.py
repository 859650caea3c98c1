"""A newcomer with no Discord plays on the board (issue 38): `python -m bot local quadropolis --players 2 --ai 1
--web`, its printed sign-in link opened in Chromium on a phone, and a whole game played by taps on the seat's
own board only; nothing is typed at the terminal but the Enter that closes it, and the terminal tells each
move made on the page as it tells its own."""

from __future__ import annotations

import asyncio
import codecs
import random
import re
from pathlib import Path

import pytest

from bot.i18n import t
from tests.cli.helpers import local_web
from tests.web.browser import PHONE, chromium, open_page
from tests.web.test_board_browser import tap_a_move

pytestmark = pytest.mark.browser

MOVES_AT_MOST = 200
"""More page moves than a 2-player Quadropolis game has (4 rounds of 4 architects, 2 steps each)."""


async def test_a_whole_local_game_played_by_taps_on_the_board(tmp_path: Path) -> None:
    proc = await local_web(tmp_path, "quadropolis", "--players", "2", "--ai", "1")
    player = t("local.player", "en", n=1)
    stays = t("local.web_stays", "en")
    link: asyncio.Future[str] = asyncio.get_running_loop().create_future()
    seen = ""

    async def reader() -> None:
        """Notes the terminal's output (nothing is typed at its prompts)."""
        nonlocal seen
        assert proc.stdout is not None
        utf8 = codecs.getincrementaldecoder("utf-8")()
        while True:
            chunk = await proc.stdout.read(4096)
            if not chunk:
                return
            seen += utf8.decode(chunk)  # a character split between two reads waits for its rest
            found = re.search(r"http://127\.0\.0\.1:\d+/signin/\S+", seen)
            if found and not link.done():
                link.set_result(found[0])

    reading = asyncio.create_task(reader())
    rng = random.Random(38)
    made = 0
    try:
        url = await asyncio.wait_for(link, 60)
        async with chromium() as browser:
            w = await open_page(browser, url, PHONE)
            await w.page.get_by_role("button", name="Sign in and open the game").click()
            await w.page.wait_for_selector("#live[data-seat='0']")
            page = w.page
            while made < MOVES_AT_MOST:
                # The seat's next move on its board, or the end of the game (the AI's moves come between).
                try:
                    await page.locator(".playtarget, .playchoice, .result").first.wait_for(timeout=120_000)
                except Exception as exc:  # what the page and the terminal were at, to find why
                    state = await page.evaluate(
                        "() => { const l = document.getElementById('live'), p = document.getElementById('play');"
                        " return [l && l.dataset.version, l && l.dataset.status, l && l.dataset.yours,"
                        " document.getElementById('livetext').textContent, p && p.hidden]; }"
                    )
                    raise AssertionError(f"no target after {made} moves: {state}; terminal: {seen[-1500:]}") from exc
                if await page.locator(".result").count():
                    break
                told = len(seen)
                await tap_a_move(page, rng)
                await page.wait_for_function(
                    "() => !document.querySelector('.playconfirm') || document.querySelector('.playerror').textContent",
                    timeout=30_000,
                )
                assert not await page.locator(".playerror").text_content()  # the move was taken
                made += 1
                for _ in range(400):  # the terminal tells the page's move
                    if re.search(rf"^{re.escape(player)} \S", seen[told:], re.M):
                        break
                    await asyncio.sleep(0.05)
                else:
                    raise AssertionError(seen[told:])
            assert await page.locator(".result").count() == 1, made
            await w.no_horizontal_scroll()
            assert not w.errors and not w.dialogs, (w.errors, w.dialogs)
        for _ in range(200):
            if stays in seen:
                break
            await asyncio.sleep(0.05)
        assert stays in seen, seen[-500:]
        assert proc.returncode is None  # the page stays up until Enter
        proc.stdin.write(b"\n")
        await proc.stdin.drain()
        assert await asyncio.wait_for(proc.wait(), 60) == 0
    finally:
        if proc.returncode is None:
            proc.kill()
            await proc.wait()
        reading.cancel()
    err = (await proc.stderr.read()).decode() if proc.stderr is not None else ""
    assert "Traceback" not in err, err
    # Each move made on the page was told once, on a line of its own, as the terminal tells a typed move.
    told = re.findall(rf"^{re.escape(player)} (?!,)\S.*$", seen, re.M)
    assert len(told) == made > 10, (made, told)
    assert "1. " in seen.split(stays)[0][-2000:]  # the result's ranking was printed before the page stayed
