"""`local --web` without Discord (issue 38): beside the page's address the terminal prints a sign-in link for its
own seat; the page, signed in by it, plays that seat's move, the terminal tells it (its menu made before gives
way: the line typed at it is not applied to the next menu), and the terminal's next moves reach the page."""

from __future__ import annotations

import asyncio
import http.client
import json
import re
from pathlib import Path
from typing import Any

import pytest

from bot import local
from bot.i18n import t
from bot.local import terminal
from bot.store import Store
from bot.web.board import leaves


def request(
    url: str, method: str = "GET", body: Any = None, headers: dict[str, str] | None = None
) -> tuple[int, dict[str, str], bytes]:
    host, port, path = re.fullmatch(r"http://([\d.]+):(\d+)(/\S*)", url).groups()  # type: ignore[union-attr]
    connection = http.client.HTTPConnection(host, int(port), timeout=10)
    try:
        connection.request(method, path, body=body, headers=headers or {})
        answer = connection.getresponse()
        return answer.status, {k.lower(): v for k, v in answer.getheaders()}, answer.read()
    finally:
        connection.close()


def test_the_terminal_seat_plays_on_the_page(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    out: list[str] = []
    posted: list[Any] = []
    answers = 0

    def answer(prompt: str = "") -> str:  # the terminal's input, read in a thread while the page is served
        nonlocal answers
        out.append(capsys.readouterr().out)
        answers += 1
        if answers == 1:
            printed = "".join(out)
            signin = re.search(r"http://127\.0\.0\.1:\d+/signin/\S+", printed)
            page = re.search(r"http://127\.0\.0\.1:\d+/g/1/[A-Za-z0-9_-]+", printed)
            assert signin is not None and page is not None, printed
            origin = page[0].split("/g/")[0]
            status, headers, _ = request(signin[0], "POST", headers={"Origin": origin})
            assert status == 303, status
            cookie = headers["set-cookie"].split(";")[0]
            status, _, body = request(page[0] + "/play.json", headers={"Cookie": cookie})
            data = json.loads(body)
            assert status == 200 and data["seat"] == 0 and data["play"]["regions"]
            move = leaves(data["play"]["root"])[-1]  # the last choice the board offers
            status, _, body = request(
                page[0] + "/move",
                "POST",
                json.dumps({"version": data["version"], "move": move, "key": "terminal-seat-1"}),
                {"Origin": origin, "Cookie": cookie, "X-CSRF-Token": data["csrf"], "Content-Type": "application/json"},
            )
            assert status == 200, body
            posted.append(move)
        if answers == 6:
            raise EOFError
        return "1"

    monkeypatch.setattr("builtins.input", answer)
    db = tmp_path / "local.sqlite3"
    code = local.main(
        [
            "quadropolis",
            "--ai",
            "1",
            "--level",
            "random",
            "--web",
            "--web-port",
            "0",
            "--db",
            str(db),
            "--out",
            str(tmp_path / "out"),
        ]
    )
    printed = "".join(out) + capsys.readouterr().out
    assert code == 0
    assert t("web.local.signin", "en", url="") in printed
    assert t("error.stale", "en") not in printed  # the terminal's menu from before the page's move gave way
    # told: a take, or an architect placed at a face-down square (the last choice may be either, by the deal)
    assert re.search(r"^Player 1 (took|placed) .*\.$", printed.split(t("web.local.signin", "en", url=""))[1], re.M)

    async def first_moves() -> tuple[list[Any], list[Any]]:
        store = await Store.open(db)
        try:
            sessions = [tuple(r) for r in await store.fetch_all("SELECT user_xid, how FROM web_sessions")]
            return [(m.seat, m.move) for m in await store.moves(1)], sessions
        finally:
            await store.close()

    moves, sessions = asyncio.run(first_moves())
    assert sessions == [(terminal.LOCAL_USER_BASE, "local")]  # the terminal's seat, signed in by the terminal
    mine = [move for seat, move in moves if seat == 0]
    assert mine[0] == posted[0]  # the page's move counted, once
    assert len(mine) >= 2  # and the terminal's moves after it
