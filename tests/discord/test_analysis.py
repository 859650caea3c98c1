"""The after-game analysis on Discord (issue 40): when a game ends its analysis is weighed in a worker process,
then the channel hears it is ready (each player's accuracy, the biggest turning point, the game page's link);
``/game analysis game:`` answers privately with the asker's own biggest misses, in the game's own move labels,
with the board at each of them. In English and in Hungarian."""

from __future__ import annotations

import asyncio
import io
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest
from babel.numbers import format_decimal
from PIL import Image

from bot import games, labels
from bot.community.analyses import biggest_turn, own_misses
from bot.i18n import t
from tests.conftest import FakeClock
from tests.discord.conftest import Harness, _harness, answer
from tests.discord.test_recap import play_to_the_end

WAIT = 120.0


@pytest.fixture
async def analysis_harness(tmp_path: Path, clock: FakeClock, database: str | Path) -> AsyncIterator[Harness]:
    """The bot with its game pages and one analysis worker, weighing at one sample (a few seconds a game)."""
    async for h in _harness(tmp_path, clock, database, web=True, analysis_workers=1):
        h.bot.app.analyses.samples = 1
        yield h


def one(value: float, loc: str, signed: bool = False) -> str:
    return format_decimal(value, format="+#,##0.0;-#,##0.0" if signed else "#,##0.0", locale=loc)


async def ready_post(h: Harness, gid: int, loc: str) -> Any:
    start = t("analysis.ready", loc, game=gid, players="\0").partition("\0")[0]
    loop = asyncio.get_running_loop()
    deadline = loop.time() + WAIT
    while loop.time() < deadline:
        found = [m for m in h.channel_messages() if (m.content or "").startswith(start)]
        if found:
            return found
        await asyncio.sleep(0.1)
    raise AssertionError("the analysis was never said to be ready")


@pytest.mark.parametrize("loc", ["en", "hu"])
async def test_the_channel_hears_the_analysis_is_ready_and_a_player_sees_their_own_misses(
    analysis_harness: Harness, loc: str
) -> None:
    h = analysis_harness
    h.fake.user("alice").locale = loc
    h.fake.user("bob").locale = loc
    gid = await play_to_the_end(h, "quadropolis", 1, mode="classic", language=loc)
    posts = await ready_post(h, gid, loc)
    assert len(posts) == 1, "said once"
    ready = posts[0]
    everything = h.channel_messages()
    recap = next(m for m in everything if m.content == t("end.recap", loc, game=gid))
    assert everything.index(ready) > everything.index(recap), "after the recap"

    row = await h.bot.app.analyses.get(gid)
    assert row is not None and row.status == "done" and row.result is not None
    info = await h.service.info(gid)
    result = row.result
    players = ", ".join(
        t("analysis.ready_player", loc, name=info.name(p["seat"]), accuracy=one(p["accuracy"], loc))
        for p in result["players"]
    )
    turn = biggest_turn(result)
    assert turn is not None
    lines = ready.content.splitlines()
    assert lines[0] == t("analysis.ready", loc, game=gid, players=players)
    assert lines[1] == t(
        "analysis.ready_turn",
        loc,
        number=turn["number"],
        name=info.name(turn["seat"]),
        before=one(turn["before"], loc, signed=True),
        after=one(turn["after"], loc, signed=True),
    )

    async def recorded() -> bool:  # the post is kept once it is sent: the test may see the message first
        kept = await h.bot.app.erasure.db.posts(gid)
        return ("line", ready.id) in [(kind, message) for kind, _, _, message in kept]

    for _ in range(int(WAIT / 0.05)):
        if await recorded():
            break
        await asyncio.sleep(0.05)
    assert await recorded(), "a forget-me edits it"
    links = [c for row_ in ready.components for c in row_.get("components", []) if c.get("url")]
    assert links and links[0]["url"] == h.bot.web_links.game(gid), "the game page's link"

    # Alice asks for her own analysis: privately, her three biggest misses told in the game's own labels.
    alice = info.seat_of(h.fake.user("alice").id)
    assert alice is not None
    asked = await h.fake.slash("game", "analysis", game=gid, user="alice")
    sent = await answer(asked)
    assert sent.ephemeral
    mine = next(p for p in result["players"] if p["seat"] == alice.seat)
    text = sent.content.splitlines()
    assert text[0] == t(
        "analysis.yours",
        loc,
        game=gid,
        accuracy=one(mine["accuracy"], loc),
        loss=one(mine["average_loss"], loc),
        small=mine["misses"]["small"],
        medium=mine["misses"]["medium"],
        large=mine["misses"]["large"],
    )
    worst = own_misses(result, alice.seat)
    assert len(worst) == 3, "the random AI's moves miss"
    rules = games.rules("quadropolis")
    told = []
    for miss in worst:
        before = await h.service.snapshot(gid, miss["number"] - 1)
        view = rules.view(before.state, alice.seat)
        told.append(
            t(
                "analysis.miss",
                loc,
                number=miss["number"],
                move=labels.move_label("quadropolis", miss["move"], view, loc, 200),
                loss=one(miss["loss"], loc),
                best=labels.move_label("quadropolis", miss["best_move"], view, loc, 200),
                expected=one(miss["best"], loc, signed=True),
            )
        )
    assert text[1:] == [t("analysis.misses_title", loc), *told]
    assert [float(m["loss"]) for m in worst] == sorted((float(m["loss"]) for m in worst), reverse=True)
    assert len(sent.files) == 3
    for part in sent.files:
        with Image.open(io.BytesIO(part.data)) as img:
            assert img.format == "PNG" and img.width >= 400

    # Bob did not play: a sentence, privately; a game still in play is refused.
    bob = await answer(await h.fake.slash("game", "analysis", game=gid, user="bob"))
    assert bob.ephemeral and bob.content == t("analysis.not_player", loc, game=gid)


async def test_a_game_in_play_has_no_analysis_and_a_finished_one_is_queued_when_asked(
    analysis_harness: Harness,
) -> None:
    h = analysis_harness
    lobby = await h.fake.slash("game", "new", game="quadropolis", mode="classic", ai_players=1, user="alice")
    await lobby.response()
    gid = (await h.service.game_in_channel(h.fake.channel("games").id)).id
    await (await h.fake.click(lobby, f"lobby:{gid}:start", user="alice")).response()
    await h.settle()
    refused = await answer(await h.fake.slash("game", "analysis", game=gid, user="alice"))
    assert refused.ephemeral and refused.content == t("analysis.error.not_finished", "en", game=gid)
    assert await h.bot.app.analyses.get(gid) is None

    await h.service.abandon(gid, h.fake.user("alice").id, is_admin=True)
    await h.settle()
    assert await h.bot.app.analyses.get(gid) is None  # abandoned: never weighed
    missing = await answer(await h.fake.slash("game", "analysis", game=999, user="alice"))
    assert missing.ephemeral and "999" in missing.content

    # A server that weighs no game by itself: a finished game is analysed when someone asks.
    settings = await h.fake.slash("game", "settings", server=True, analysis="asked", user="mona")
    await settings.response()
    await h.settle()
    gid = await play_to_the_end(h, "quadropolis", 1, mode="classic")
    assert await h.bot.app.analyses.get(gid) is None
    asked = await answer(await h.fake.slash("game", "analysis", game=gid, user="alice"))
    assert asked.ephemeral and asked.content == t("analysis.queued", "en", game=gid)
    assert len(await ready_post(h, gid, "en")) == 1
