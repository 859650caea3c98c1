"""Play on the board, end to end (issue 38's first "Done when"): the real bot with its pages against the fake
Discord, players signed in through the real sign-in link in their own Chromium contexts at 390 x 844 and a
signed-out spectator beside them. Every move is made by taps on the page (board.js's targets and buttons, then
Confirm); after each, the channel holds the posts a Discord click would have made, compared with a twin game
(the same seed, another channel) played by Discord clicks (Quadropolis) or by the same moves through the click's
own turn flow (``Service.move`` then ``bot.flow.after_move``, what ``cogs.play`` does after a click), and the
spectator's page has followed to the game's version."""

from __future__ import annotations

import asyncio
import json
import random
from typing import Any

import pytest
from playwright.async_api import Browser, Page

from bot.i18n import t
from bot.web.watch import RateLimit
from tests.discord.conftest import Harness, _is_bot_task
from tests.discord.test_quadropolis import play_turn
from tests.web.browser import PHONE, Watched, chromium, open_page

pytestmark = pytest.mark.browser

SEED = 424242
WAIT = 30.0
"""Seconds a page may take to follow a move on a loaded machine (a wait, not a timed assertion)."""
Posts = list[tuple[str, list[bytes]]]


async def settled(h: Harness) -> None:
    """The bot's own background work finished, as :meth:`Harness.settle` waits for it, looking every 5 ms rather
    than pausing 20 ms twice (a whole game waits for it after every move, and its twin too): quiet at two looks in
    a row, so a task started by the last one's end is waited for too."""
    quiet = False
    for _ in range(6000):
        busy = any(not t.done() and _is_bot_task(t) for t in asyncio.all_tasks() if t is not asyncio.current_task())
        if not busy and quiet:
            return
        quiet = not busy
        await asyncio.sleep(0.005)
    raise AssertionError("the bot did not settle")


async def told(h: Harness) -> None:
    """The bot's work after a move done, and the notices it owes now sent (the reminders' pass runs after a
    move on a short delay: here at once, so a fast twin and a slow tapped game owe the same)."""
    await settled(h)
    await h.bot.get_cog("RemindersCog").tick()  # type: ignore[union-attr]
    await settled(h)


async def until(page: Page, expression: str, seconds: float = WAIT) -> None:
    """Wait for a condition on the page, read every 20 ms (``tests.discord.test_web_browser.until`` reads every 50
    ms: here every move waits three times, for its board, the spectator's page and each seat's picture)."""
    for _ in range(int(seconds / 0.02)):
        if await page.evaluate(expression):
            return
        await asyncio.sleep(0.02)
    raise AssertionError(f"never true: {expression}")


def canonical(value: Any) -> Any:
    return json.loads(json.dumps(value, sort_keys=True))


async def lobby_game(h: Harness, game: str, mode: str, users: list[str], channel: str, ai: int = 0) -> int:
    h.service._seed_source = lambda: SEED  # the same tiles in the tapped game and its twin
    lobby = await h.fake.slash("game", "new", game=game, mode=mode, ai_players=ai, user=users[0], channel=channel)
    await lobby.response()
    gid = (await h.service.game_in_channel(h.fake.channel(channel).id)).id
    for user in users[1:]:
        await (await h.fake.click(lobby, f"lobby:{gid}:join", user=user)).response()
    await (await h.fake.click(lobby, f"lobby:{gid}:start", user=users[0])).response()
    await h.settle()
    return int(gid)


def posts(h: Harness, channel: str, gid: int) -> Posts:
    """What the channel shows: each message's text (its game number made neutral) and its pictures."""
    return [
        ((m.content or "").replace(f"#{gid}", "#N"), [a.data for a in m.attachments])
        for m in h.channel_messages(channel)
    ]


async def sign_in(h: Harness, browser: Browser, user: str, gid: int) -> Watched:
    """A browser context of its own, signed in by the real single-use link, on the game's page."""
    raw = await h.bot.app.sessions.link_token(int(h.fake.user(user).id), gid)
    w = await open_page(browser, f"{h.bot.web_links.base_url}/signin/{raw}", PHONE)
    await w.page.get_by_role("button", name="Sign in and open the game").click()
    page_url = h.bot.web_links.game(gid)
    assert page_url is not None
    await w.page.wait_for_url(page_url + "**")
    return w


def path_to(step: dict[str, Any], move: dict[str, Any]) -> list[str] | None:
    """The option ids leading to ``move`` in play.json's tree of steps."""
    for option in step["options"]:
        if "next" in option:
            below = path_to(option["next"], move)
            if below is not None:
                return [option["id"], *below]
        elif canonical(option["move"]) == canonical(move):
            return [option["id"]]
    return None


async def board_ready(page: Page, version: int) -> None:
    """Waits until board.js shows the seat's choices of ``version`` (its picture is that version's)."""
    await until(
        page,
        "(() => { const p = document.querySelector('section.play');"
        " const img = p && p.querySelector('img.playpic');"
        f" return !!p && !p.hidden && !!img && /[?&]v={version}(&|$)/.test(img.src)"
        " && p.querySelectorAll('.playtarget, .playchoice').length > 0; })()",
        WAIT,
    )


async def play_json(page: Page, version: int) -> dict[str, Any]:
    body: dict[str, Any] = await page.evaluate(
        "fetch(document.getElementById('live').dataset.play, {credentials: 'same-origin', cache: 'no-store'})"
        ".then(r => r.json())"
    )
    assert body["version"] == version and "play" in body
    return dict(body["play"])


async def tap(page: Page, play: dict[str, Any], move: dict[str, Any]) -> None:
    """The move by taps: each option of its way (a target on the picture or a button), then Confirm."""
    way = path_to(play["root"], move)
    assert way is not None, move
    for option in way:
        await page.locator(f"section.play button[data-option={json.dumps(option)}]").click()
    await confirm(page)


async def confirm(page: Page) -> None:
    """Confirm, once the chosen move is told on the page (and lit on the picture)."""
    confirm = page.locator("section.play .playconfirm")
    assert (await page.locator("section.play .playsaid").text_content() or "").startswith("You play: ")
    async with page.expect_response(
        lambda r: r.url.split("?")[0].endswith("/move") and r.request.method == "POST"
    ) as sent:
        await confirm.click()  # its answer comes once the turn flow has told the channel
    answer = await sent.value
    assert answer.status == 200, await answer.text()


class Table:
    """The tapped game: its players' pages, the spectator's, and the channel after each move."""

    def __init__(self, h: Harness, gid: int, channel: str, pages: dict[int, Watched], spectator: Watched) -> None:
        self.h, self.gid, self.channel, self.pages, self.spectator = h, gid, channel, pages, spectator
        self.after: list[Posts] = []
        self.result: list[str] = []
        """The spectator's page's result lines, at the end."""

    async def move(self, seat: int, move: dict[str, Any] | None = None, rng: random.Random | None = None) -> None:
        """The seat's next move by taps: ``move`` (found in play.json's steps), or random taps (``rng``) on the
        options board.js shows; then Confirm. Waits for the bot's posts and the spectator's page."""
        h = self.h
        before = (await h.service.info(self.gid)).game.version
        page = self.pages[seat].page
        await board_ready(page, before)
        if move is not None:
            await tap(page, await play_json(page, before), move)
        else:
            assert rng is not None
            for _ in range(12):  # at most this many taps lead to one move (Urban Panic's Engineer)
                if await page.locator("section.play .playconfirm").count():
                    break
                options = page.locator("section.play .playtarget, section.play .playchoice")
                await options.nth(rng.randrange(await options.count())).click()
            await confirm(page)
        await told(h)
        version = (await h.service.info(self.gid)).game.version
        assert version > before, "the tapped move was not made"
        self.after.append(posts(h, self.channel, self.gid))
        await until(self.spectator.page, f"Number(document.getElementById('live').dataset.version) == {version}", WAIT)
        for w in self.pages.values():  # each seat's own view (its hand) follows too
            await until(  # this version's picture, or a later one's when two versions came close together
                w.page,
                f"Number((/[?&]v=(\\d+)/.exec(document.getElementById('mine-picture').src) || [0, 0])[1]) >= {version}",
                WAIT,
            )

    async def check(self) -> None:
        for w in [*self.pages.values(), self.spectator]:
            assert not w.errors and not w.dialogs, (w.errors, w.dialogs)
        assert await self.spectator.page.locator("section.play").count() == 0
        # The spectator's move list, grown live, is the one a fresh page shows.
        fresh = await self.spectator.page.context.new_page()
        await fresh.goto(self.spectator.page.url)
        told = await fresh.locator("#moves li").all_text_contents()
        assert await self.spectator.page.locator("#moves li").all_text_contents() == told
        self.result = await self.spectator.page.locator("section.result .ranking li").all_text_contents()


def unlimited(h: Harness) -> None:
    """The table is several people, each at an address of their own, who tap at a person's pace; here they are
    one machine's browser at 127.0.0.1 tapping as fast as a script can, so the per-address and per-user limits
    would refuse them (a refused read or move is a console error the table fails on). The limits have their own
    tests (tests/web/test_game_page.py, tests/web/test_play_door.py)."""
    web = h.bot.web
    assert web is not None
    web.limit = RateLimit(1e6, 1e6)
    web.door.per_address = RateLimit(1e6, 1e6)
    web.door.per_user = RateLimit(1e6, 1e6)


async def open_table(h: Harness, browser: Browser, gid: int, channel: str, users: list[str]) -> Table:
    unlimited(h)
    info = await h.service.info(gid)
    pages = {}
    for user in users:
        seat = info.seat_of(int(h.fake.user(user).id))
        assert seat is not None
        pages[seat.seat] = await sign_in(h, browser, user, gid)
    page_url = h.bot.web_links.game(gid)
    assert page_url is not None
    spectator = await open_page(browser, page_url, PHONE)
    return Table(h, gid, channel, pages, spectator)


async def twin_by_flow(h: Harness, gid: int, moves: list[tuple[int, dict[str, Any]]], channel: str) -> list[Posts]:
    """The same moves in the twin game, each through the click's door (the service, then the turn flow)."""
    after: list[Posts] = []
    for seat, move in moves:
        info = await h.service.info(gid)
        user = info.seats[seat].user_xid
        plain = {k: v for k, v in move.items() if k != "at"}
        outcome = await h.service.move(gid, user, plain, expected_version=info.game.version)
        await h.bot.flow.after_move(outcome, None)
        await told(h)
        after.append(posts(h, channel, gid))
    return after


def same_posts(tapped: list[Posts], twin: list[Posts]) -> None:
    assert len(tapped) == len(twin)
    for n, (a, b) in enumerate(zip(tapped, twin, strict=True)):
        assert [text for text, _ in a] == [text for text, _ in b], n
        assert [pngs for _, pngs in a] == [pngs for _, pngs in b], n


async def test_a_whole_two_player_quadropolis_classic_game_on_the_board(web_harness: Harness) -> None:
    h = web_harness
    names = {h.fake.user("alice").id: "alice", h.fake.user("bob").id: "bob"}
    clicked = await lobby_game(h, "quadropolis", "classic", ["alice", "bob"], "games")
    by_click: list[Posts] = []
    turns: list[int] = []  # the moves made by the end of each turn (a take, then a build or discard)
    while (await h.service.info(clicked)).game.status == "active":
        await play_turn(h, clicked, names)  # Discord clicks: the first offered tile, the first offered square
        by_click.append(posts(h, "games", clicked))
        turns.append(len(await h.service.move_log(clicked)))
    moves = await h.service.move_log(clicked)
    assert len(moves) == turns[-1] == 2 * len(turns)

    tapped = await lobby_game(h, "quadropolis", "classic", ["alice", "bob"], "general")
    async with chromium() as browser:
        table = await open_table(h, browser, tapped, "general", ["alice", "bob"])
        for seat, move in moves:
            await table.move(seat, move)
        await table.check()
    assert (await h.service.info(tapped)).game.status == "finished"
    assert await h.service.move_log(tapped) == moves
    same_posts([table.after[n - 1] for n in turns], by_click)


async def play_by_taps(
    h: Harness, game: str, mode: str, users: list[str], seed: int, enough: Any, limit: int = 60, ai: int = 0
) -> tuple[Table, int]:
    rng = random.Random(seed)
    tapped = await lobby_game(h, game, mode, users, "general", ai)
    async with chromium() as browser:
        table = await open_table(h, browser, tapped, "general", users)
        for n in range(limit):
            info = await h.service.info(tapped)
            if info.game.status != "active" or await enough(tapped):
                break
            seats = sorted(s for s in info.awaiting if s in table.pages)
            await table.move(seats[n % len(seats)], rng=rng)  # in turn where several may move
        else:
            raise AssertionError("too many moves")
        await table.check()
    twin = await lobby_game(h, game, mode, users, "games", ai)
    same_posts(table.after, await twin_by_flow(h, twin, await h.service.move_log(tapped), "games"))
    return table, tapped


def round_over(h: Harness) -> Any:
    async def over(gid: int) -> bool:
        return bool((await h.service.snapshot(gid)).view(None).get("round", 1) != 1)

    return over


async def test_a_quadropolis_expert_round_on_the_board(web_harness: Harness) -> None:
    h = web_harness
    _, gid = await play_by_taps(h, "quadropolis", "expert", ["alice", "bob"], 8, round_over(h))
    assert (await h.service.snapshot(gid)).view(None).get("round") == 2


async def test_a_three_player_between_two_cities_round_with_its_reveal(web_harness: Harness) -> None:
    h = web_harness
    table, gid = await play_by_taps(h, "btc", "standard", ["alice", "bob", "carol"], 5, round_over(h))
    kinds = {m["kind"] for _, m in await h.service.move_log(gid)}
    assert {"choose", "place"} <= kinds
    assert any("Everyone reveals: " in text for text, _ in table.after[-1])  # the reveal, told as after clicks


async def never(gid: int) -> bool:
    return False


@pytest.mark.parametrize("mode", ["solo_full", "solo_simple"])
async def test_a_whole_solo_between_two_cities_game_against_the_automa(web_harness: Harness, mode: str) -> None:
    """A whole solo game against the Automa, its three rounds by taps: each move's posts are a click's (the
    Automa's part told the same), the spectator's page follows to the end, and the channel tells the result its
    page shows."""
    h = web_harness
    table, gid = await play_by_taps(h, "btc", mode, ["alice"], 9, never)
    info = await h.service.info(gid)
    assert info.game.status == "finished" and (await h.service.snapshot(gid)).view(None).get("round") == 3
    mention = f"<@{h.fake.user('alice').id}>"
    title = t("end.title", "en", game="N")  # the game's number made neutral, as in every post compared
    ending = [text.split("\n") for text, _ in table.after[-1] if title in text]
    assert len(ending) == 1, table.after[-1]
    shown = [line.replace(info.name(0), mention) for line in table.result]
    assert len(shown) == 3 and ending[0][ending[0].index(title) + 1 :] == shown, (ending, shown)


def turn_over(h: Harness, seat: int = 0) -> Any:
    async def over(gid: int) -> bool:
        log = await h.service.move_log(gid)
        return any(s == seat and m["kind"] == "end_turn" for s, m in log)

    return over


async def test_an_urban_panic_basic_turn_on_the_board(web_harness: Harness) -> None:
    h = web_harness
    _, gid = await play_by_taps(h, "urbanpanic", "basic", ["alice", "bob"], 1, turn_over(h))
    assert (await h.service.move_log(gid))[-1][1]["kind"] == "end_turn"


async def test_an_urban_panic_advanced_turn_with_its_goals_on_the_board(web_harness: Harness) -> None:
    h = web_harness
    _, gid = await play_by_taps(h, "urbanpanic", "advanced", ["alice", "bob"], 2, turn_over(h))
    assert (await h.service.snapshot(gid)).view(None).get("goals")


async def test_an_urban_panic_party_round_on_the_board(web_harness: Harness) -> None:
    """Both players draw, take and place by taps, each once at least (the party variant has no turns)."""
    h = web_harness

    async def both_placed(gid: int) -> bool:
        log = await h.service.move_log(gid)
        return {s for s, m in log if m["kind"] in ("place", "drop")} == {0, 1}

    _, gid = await play_by_taps(h, "urbanpanic", "party", ["alice", "bob"], 4, both_placed, limit=16)
    kinds = {m["kind"] for _, m in await h.service.move_log(gid)}
    assert "draw" in kinds


async def test_the_board_speaks_the_pages_language(web_harness: Harness) -> None:
    """A seat's page in another language (its language link, ``?lang=hu``) shows its board in that language too:
    the step's words, the picture drawn in it, and the move's answer."""
    h = web_harness
    gid = await lobby_game(h, "quadropolis", "classic", ["alice", "bob"], "general")
    seat = min((await h.service.info(gid)).awaiting)
    user = ("alice", "bob")[seat]
    async with chromium() as browser:
        w = await sign_in(h, browser, user, gid)
        page = w.page
        await page.locator('a[hreflang="hu"]').click()
        await page.wait_for_url("**lang=hu**")
        await board_ready(page, 0)
        assert await page.locator("section.play .playhead").text_content() == t("web.board.your_move", "hu")
        assert "lang=hu" in (await page.locator("section.play img.playpic").get_attribute("src") or "")
        play = await play_json(page, 0)
        assert play["texts"]["confirm"] == t("web.board.confirm", "hu")
        # The move goes with the page's language (a refusal's sentence would be in it).
        while not await page.locator("section.play .playconfirm").count():
            await page.locator("section.play .playtarget, section.play .playchoice").first.click()
        async with page.expect_response(lambda r: r.request.method == "POST") as sent:
            await page.locator("section.play .playconfirm").click()
        answer = await sent.value
        assert answer.status == 200 and "lang=hu" in answer.url, answer.url
        assert not w.errors, w.errors
