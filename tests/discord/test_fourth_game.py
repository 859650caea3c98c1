"""A fourth game, added from this one module: its rules, then one line per front-end (the registry, the
pictures, the Discord presenter), and nothing else: no shared list, no contract file. It is played through
Discord (the in-process harness), in the terminal (``bot.local``) and on the web page (``bot.web``), each
front-end finding the game and its parts through the registry and the bindings alone."""

from __future__ import annotations

import io
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import aiohttp
import pytest
from PIL import Image

from bot import games, local
from bot.games import Game, TurnStyle
from bot.testing.toygame import SealedBids
from cogs import games as discord_games
from cogs import presenters
from cogs.presenters import Presenter
from render import common as c
from render import pictures
from render.png import Pictures
from tests.discord.conftest import Harness, answer

KIND = "fourthbids"
SIZE = (c.IMAGE_WIDTH, 160)
"""Every picture of the game: a title bar and the revealed bids, a size no other game draws."""


class FourthBids(SealedBids):
    """The toy game's rules under a kind of their own (its catalogue texts are the toy's)."""

    kind = KIND


def picture(view: Any, *_: Any, locale: str = "en") -> Image.Image:
    """The table: the bids revealed so far."""
    img, draw = c.canvas(*SIZE)
    c.title_bar(draw, SIZE[0], games.get(KIND).title_key)
    bids = "  ".join(f"{a}:{b}" for a, b in view["revealed"]) or "-"
    c.draw_text(draw, (20, 110), bids, c.font(c.KEY_TEXT), c.INK, "lm")
    return img


@pytest.fixture(autouse=True, scope="module")
def fourth_game() -> Iterator[None]:
    """The game, added for this module's tests and taken away after them."""
    registries: list[dict[str, Any]] = [games._extra, pictures._bound, discord_games.SIDES, presenters._registered]
    kept = [dict(registry) for registry in registries]
    games.register(Game(kind=KIND, rules=FourthBids(), turns=TurnStyle(secret=True)))  # the rules
    pictures.bind(KIND, Pictures(KIND, turn=picture, board=picture, end=picture))  # the pictures
    discord_games.bind(Presenter(KIND))  # Discord
    yield
    for registry, before in zip(registries, kept):
        registry.clear()
        registry.update(before)


def drawn_here(png: bytes) -> bool:
    """Whether a PNG is one of this game's pictures."""
    return png.startswith(b"\x89PNG") and Image.open(io.BytesIO(png)).size == SIZE


def test_the_game_is_added_without_a_shared_list() -> None:
    """The game is known to every registry through the three lines above, and to no shared list."""
    assert KIND in games.available() and KIND not in games.GAMES
    assert pictures.get(KIND) is not None and KIND not in discord_games.PRESENTERS
    assert presenters.get(KIND).kind == KIND and type(presenters.get(KIND)) is Presenter
    assert not any(
        KIND in path.read_text(encoding="utf-8")
        for path in Path(".importlinter").parent.glob("*.*")
        if path.is_file() and path.suffix in (".md", ".toml", ".importlinter")
    )


async def bid(h: Harness, gid: int, user: str, card: int) -> None:
    """``user`` opens their private choices from the turn post and bids ``card``."""
    info = await h.service.info(gid)
    turn = next(m for m in h.channel_messages() if m.id == info.game.turn_message_xid)
    open_id = next(c["custom_id"] for row in turn.components for c in row["components"] if "custom_id" in c)
    opened = await h.fake.click(turn, open_id, user=user)
    private = await answer(opened)
    assert private.ephemeral
    button = next(i for i in private.custom_ids if json.loads(i.split(":", 4)[4])["card"] == card)
    await (await h.fake.click(opened, button, user=user)).response()
    await h.settle()


async def test_played_in_discord_and_shown_on_the_web_page(web_harness: Harness) -> None:
    """`/game new` opens it, two players bid to the end by clicks, the turn posts carry its own pictures,
    and the game's page shows it with its picture."""
    h = web_harness
    lobby = await h.fake.slash("game", "new", game=KIND, user="alice")
    await lobby.response()
    gid = (await h.service.game_in_channel(h.fake.channel("games").id)).id
    await (await h.fake.click(lobby, f"lobby:{gid}:join", user="bob")).response()
    await (await h.fake.click(lobby, f"lobby:{gid}:start", user="alice")).response()
    await h.settle()
    for a, b in ((3, 1), (1, 2), (2, 3)):
        await bid(h, gid, "alice", a)
        await bid(h, gid, "bob", b)
    info = await h.service.info(gid)
    assert info.game.kind == KIND and info.game.status == "finished"
    text = "\n".join(m.content or "" for m in h.channel_messages())
    assert "Bids revealed: 3 against 1." in text and "is over" in text
    posted = [f.data for m in h.channel_messages() for f in m.attachments]
    assert posted and all(drawn_here(png) for png in posted)
    url = h.bot.web_links.game(gid)
    assert url is not None
    async with aiohttp.ClientSession() as session:
        async with session.get(url) as r:
            page = await r.text()
            assert r.status == 200 and "Bids revealed: 2 against 3." in page
        src = page.split('<img id="board" src="', 1)[1].split('"', 1)[0].replace("&amp;", "&")
        async with session.get(src if src.startswith("http") else url.split("/g/")[0] + src) as r:
            assert r.status == 200 and drawn_here(await r.read())


def test_played_in_the_terminal(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """`python -m bot local fourthbids --ai 1`: the player bids against an AI to the end; the pictures are
    the game's own."""
    answers = iter(["1"] * 20)
    monkeypatch.setattr("builtins.input", lambda prompt="": next(answers))
    code = local.main(
        [
            KIND,
            "--players",
            "2",
            "--ai",
            "1",
            "--level",
            "greedy",
            "--db",
            str(tmp_path / "l.sqlite3"),
            "--out",
            str(tmp_path / "out"),
        ]
    )
    out = capsys.readouterr().out
    assert code == 0, out
    assert "Bids revealed:" in out and " is over!" in out
    written = sorted((tmp_path / "out" / f"{KIND}-1").glob("*.png"))
    assert written and all(drawn_here(path.read_bytes()) for path in written)
