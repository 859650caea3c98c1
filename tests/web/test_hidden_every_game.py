"""The hidden-information probe extended to sessions, in every game and mode and every kind of phase (issue 38):
Quadropolis Classic and Expert, Between Two Cities with three players, two and solo, Urban Panic basic, advanced
and party. The real bot plays against the fake Discord (which records the channel), every seat signed in by its
own sign-in link in its own cookie jar, and a signed-out viewer beside them. Seeded games are played by the rules'
legal moves through the click's own door (``Service.move``, then the turn flow); at the start, after each move
that reaches a kind of phase not yet probed, every few moves and at the end, each of them fetches over HTTP the
page, its event stream's first event, ``play.json``, ``play.png`` and the turn pictures ``t{n}.png``, and:

- the rules hide per seat only what the game declares (:data:`tests.web.hiddenprobe.PER_SEAT`, read from the
  views), and the web asks the rules for no view but the public one and the asking seat's own;
- a signed-in seat's page is the public page plus its own links, byte for byte; its ``play.json`` names no tile of
  another seat's private view (Between Two Cities), and its ``play.json`` and ``play.png`` stay the same when every
  other seat's private view and every hidden order (bag, stack, face-down tiles, Automa deck) change (a twin);
- a signed-out viewer gets no ``play.json`` or ``play.png``, and its event is the version alone;
- everyone's turn pictures are the same bytes, drawn from the public view, and the channel's where the channel
  draws the same turn (Quadropolis, Urban Panic: Between Two Cities' channel shows the whole table instead); at the
  end the story chart is the channel's; the move list, signed in or out, is what the channel told, post for post."""

from __future__ import annotations

import dataclasses
import html
import json
import random
import re
from collections import OrderedDict
from dataclasses import dataclass, field
from typing import Any

import aiohttp
import pytest

from bot import games
from bot.rules.btc.audit import ids_in
from bot.web.game import build_timeline
from bot.web.watch import RateLimit
from render import pictures
from tests.discord.conftest import Harness, web_harness
from tests.discord.test_board_e2e import lobby_game, settled
from tests.web.hiddenprobe import allowed, differences, own_parts, private_part, sentences_of, twin
from tests.web.test_hidden import seat_views
from tests.web.test_hidden_board import btc_named

__all__ = ["seat_views", "web_harness"]
CHANNEL = "general"
EVENT = re.compile(rb'retry: 2000\nevent: version\ndata: \{"version": (\d+)\}\n\n')


@dataclass(frozen=True)
class Mode:
    game: str
    mode: str
    users: tuple[str, ...]
    every: int
    """Probe at least every this many moves."""
    private: bool
    """Whether a seat's view holds something the public view lacks (else it differs only in who is looking)."""
    phases: frozenset[str]
    """The kinds of phase the game must have been probed in."""


TWO, THREE = ("alice", "bob"), ("alice", "bob", "carol")
CHOOSING = frozenset({"choosing", "chosen", "placing", "round end", "over"})
"""Between Two Cities' phases: nobody has chosen yet, some have (before the reveal), placing (after it), a round's
end (in the 2-player variant, a half round's), the end."""
MODES = {
    # Quadropolis hides nothing per seat (only the face-down tiles, from everyone).
    "quadropolis-classic": Mode(
        "quadropolis", "classic", TWO, 6, False, frozenset({"take", "build", "round end", "over"})
    ),
    "quadropolis-expert": Mode(
        "quadropolis", "expert", TWO, 6, False, frozenset({"take", "build", "discard", "round end", "over"})
    ),
    "btc-standard": Mode("btc", "standard", THREE, 6, True, CHOOSING),
    "btc-two-player": Mode("btc", "two_player", TWO, 8, True, CHOOSING),
    "btc-solo": Mode("btc", "solo_full", ("alice",), 4, True, frozenset({"assign", "place", "round end", "over"})),
    # Urban Panic's turn games hide nothing per seat (only the stack's order); the party game hides each hand.
    "urbanpanic-basic": Mode(
        "urbanpanic", "basic", TWO, 16, False, frozenset({"architect", "planner", "engineer", "end_turn", "over"})
    ),
    "urbanpanic-advanced": Mode(
        "urbanpanic", "advanced", TWO, 16, False, frozenset({"architect", "spy", "goals", "end_turn", "over"})
    ),
    "urbanpanic-party": Mode(
        "urbanpanic", "party", TWO, 10, True, frozenset({"draw", "take", "place", "timer", "over"})
    ),
}


def phases(kind: str, before: Any, after: Any, move: dict[str, Any] | None) -> set[str]:
    """The kinds of phase a probe after ``move`` looks at, from the public views before and after it."""
    found = {"over"} if after.get("result") else set()
    if kind == "btc":
        if after["phase"] in ("assign", "place"):  # solo
            found.add(after["phase"])
        elif any(p["to_place"] for p in after["players"]):
            found.add("placing")  # after the reveal
        elif any(p["committed"] for p in after["players"]):
            found.add("chosen")  # some have chosen, before the reveal
        else:
            found.add("choosing")
        if (before["round"], before["part"]) != (after["round"], after["part"]):
            found.add("round end")
    elif kind == "quadropolis":
        found.add(after["turn"]["phase"])
        if before["round"] != after["round"]:
            found.add("round end")
    else:
        if move is not None:
            found.add(move["kind"].split("_")[0] if move["kind"].startswith("engineer") else move["kind"])
        if after.get("goals"):
            found.add("goals")
        if after.get("party", {}).get("timer_running"):
            found.add("timer")
    if move is not None and move.get("kind") == "discard":
        found.add("discard")
    return found


@dataclass
class Seen:
    """What one viewer fetched."""

    page: str
    event: bytes
    data: str = ""
    png: bytes = b""


@dataclass
class Probe:
    h: Harness
    mode: Mode
    spy: list[tuple[str, Any]]
    gid: int = 0
    browsers: dict[int, aiohttp.ClientSession] = field(default_factory=dict)
    public: aiohttp.ClientSession | None = None
    twin_of: Any = None
    """While set, the snapshot the web reads has this function's twin of the state."""
    pictured: int = 0
    """The turn pictures already compared (from turn 0)."""
    looked: set[str] = field(default_factory=set)
    private: int = 0
    """Seats' views seen holding more than the public view."""
    storied: bool = False
    """The finished game's story chart compared."""
    secrets: int = 0
    """Probes where another seat held a private view (or a hidden order changed in the twin)."""

    @property
    def kind(self) -> str:
        return self.mode.game

    async def start(self, monkeypatch: pytest.MonkeyPatch) -> None:
        h = self.h
        assert h.bot.web is not None
        h.bot.web.limit = RateLimit(1e6, 1e6)  # the probe's many reads from one address are not a crowd
        self.gid = await lobby_game(h, self.kind, self.mode.mode, list(self.mode.users), CHANNEL)
        service = h.service
        original = service.snapshot_of

        async def snapshot_of(info: Any) -> Any:
            snap = await original(info)
            if self.twin_of is None:
                return snap
            return dataclasses.replace(snap, state=self.twin_of(snap.state), views=OrderedDict())

        monkeypatch.setattr(service, "snapshot_of", snapshot_of)
        info = await service.info(self.gid)
        base = h.bot.web_links.base_url
        for user in self.mode.users:
            seat = info.seat_of(int(h.fake.user(user).id))
            assert seat is not None
            browser = aiohttp.ClientSession(cookie_jar=aiohttp.CookieJar(unsafe=True))
            self.browsers[seat.seat] = browser
            raw = await h.bot.app.sessions.link_token(int(h.fake.user(user).id), self.gid)
            async with browser.post(f"{base}/signin/{raw}", headers={"Origin": base}, allow_redirects=False) as r:
                assert r.status == 303, await r.text()
        self.public = aiohttp.ClientSession()

    async def close(self) -> None:
        for browser in [*self.browsers.values(), self.public]:
            if browser is not None:
                await browser.close()

    def url(self, path: str = "") -> str:
        page = self.h.bot.web_links.game(self.gid)
        assert page is not None
        return page.split("?")[0] + path

    async def fetch(self, browser: aiohttp.ClientSession, *, signed_in: bool) -> Seen:
        async with browser.get(self.url("?lang=en")) as r:
            assert r.status == 200
            page = await r.text()
        async with browser.get(self.url("/events")) as stream:
            event = await stream.content.readuntil(b"\n\n")
        seen = Seen(page, event)
        async with browser.get(self.url("/play.json")) as r:
            assert r.status == (200 if signed_in else 404)
            seen.data = await r.text() if signed_in else ""
        async with browser.get(self.url("/play.png")) as r:
            assert r.status == (200 if signed_in else 404)
            seen.png = await r.read() if signed_in else b""
        return seen

    async def own(self, browser: aiohttp.ClientSession) -> tuple[str, bytes]:
        async with browser.get(self.url("/play.json")) as r:
            data = await r.text()
        async with browser.get(self.url("/play.png")) as r:
            return data, await r.read()

    async def move(self, rng: random.Random) -> dict[str, Any]:
        """One seeded legal move of an awaited seat, through the click's door, the channel told."""
        h, rules = self.h, games.rules(self.kind)
        info = await h.service.info(self.gid)
        seat = rng.choice(sorted(info.awaiting))
        state = (await h.service.snapshot(self.gid)).state
        move = dict(rng.choice(rules.legal_moves(state, seat)))
        user = info.seats[seat].user_xid
        outcome = await h.service.move(self.gid, user, move, expected_version=info.game.version)
        await h.bot.flow.after_move(outcome, None)
        await settled(h)
        return move

    async def look(self) -> None:
        """Every viewer's fetches now, checked."""
        h, kind, rules = self.h, self.kind, games.rules(self.kind)
        snap = await h.service.snapshot(self.gid)
        state, info = snap.state, snap.info
        public_view = rules.view(state, None)
        views = {s: rules.view(state, s) for s in self.browsers}
        private = {}
        for s, view in views.items():  # the rules hide per seat only what the game declares
            paths = differences(view, public_view)
            assert all(allowed(kind, s, p) for p in paths), (kind, s, [p for p in paths if not allowed(kind, s, p)])
            private[s] = private_part(view, paths)
            assert self.mode.private or not private[s], (kind, s, "a seat's view holds more than the public one")
            self.private += bool(private[s])
        assert self.public is not None
        asked = len(self.spy)
        public = await self.fetch(self.public, signed_in=False)
        assert all(seat is None for _, seat in self.spy[asked:]), (kind, self.spy[asked:][:5])
        assert EVENT.fullmatch(public.event) and int(EVENT.fullmatch(public.event)[1]) == info.game.version  # type: ignore[index]
        if kind == "btc":  # no tile of any seat's private view named on the public page
            hidden = set().union(*(ids_in(p) for p in private.values())) - ids_in(public_view)
            assert not btc_named(public.page, {}) & hidden
        for s, browser in self.browsers.items():
            asked = len(self.spy)
            mine = await self.fetch(browser, signed_in=True)
            assert {seat for _, seat in self.spy[asked:]} <= {None, s}, (kind, s, self.spy[asked:][:5])
            assert own_parts(mine.page, s) == public.page, (kind, s)
            assert mine.event == public.event
            answer = json.loads(mine.data)
            assert answer["seat"] == s and answer["version"] == info.game.version
            if kind == "btc":
                others = set().union(*(ids_in(private[o]) for o in private if o != s)) - ids_in(views[s])
                assert not btc_named(mine.data + mine.page, answer) & others, (s, sorted(others))
            await self.same_without_secrets(browser, s, state, views[s], public_view, (mine.data, mine.png))
        await self.pictures(public.page)
        await self.story(public.page)

    async def same_without_secrets(
        self, browser: aiohttp.ClientSession, seat: int, state: Any, mine: Any, public: Any, seen: tuple[str, bytes]
    ) -> None:
        """The seat's ``play.json`` and ``play.png`` again, from the twin of the state (every other seat's private
        view and every hidden order changed): the same answers."""
        kind, rules = self.kind, games.rules(self.kind)
        other = twin(kind, state, seat)
        assert rules.view(other, seat) == mine and rules.view(other, None) == public
        assert rules.legal_moves(other, seat) == rules.legal_moves(state, seat)
        if other == state:
            return  # nothing hidden now (no face-down tile, an empty stack, no other hand)
        self.secrets += 1
        self.twin_of = lambda s: twin(kind, s, seat)
        try:
            again = await self.own(browser)
        finally:
            self.twin_of = None
        assert again[0] == seen[0], (kind, seat, "the seat's play.json depends on what it may not see")
        assert again[1] == seen[1], (kind, seat, "the seat's play.png depends on what it may not see")

    async def pictures(self, page: str) -> None:
        """The move list is the channel's tellings, post for post, and each turn picture not yet compared is the
        same for every viewer and drawn from the public view: the channel's picture of that turn where the channel
        draws the acting seat's turn (Quadropolis, Urban Panic), else (Between Two Cities' channel shows the whole
        table, the page the acting seat's cities) both drawn from the same public view."""
        h, kind = self.h, self.kind
        posts = [m for m in h.channel_messages(CHANNEL) if len(m.attachments) == 1]  # the turn posts
        sentences = sentences_of(page)
        assert len(sentences) == len(posts) - 1, (sentences[-2:], [p.content for p in posts[-2:]])
        for sentence, post in zip(sentences, posts[1:], strict=True):
            assert (post.content or "").replace("\n", " ").startswith(sentence), (sentence, post.content)
        info = await h.service.info(self.gid)
        timeline = build_timeline(info, await h.service.move_rows(self.gid), None)
        template = html.unescape(re.search(r'data-src="([^"]+)"', page)[1])  # type: ignore[index]
        base = h.bot.web_links.base_url
        last = len(timeline.frames) - 1
        for n in range(self.pictured, last + 1):
            shown = set()
            for browser in [self.public, *self.browsers.values()]:
                assert browser is not None
                async with browser.get(base + template.replace("{n}", str(n))) as r:
                    assert r.status == 200
                    shown.add(await r.read())
            assert len(shown) == 1, (kind, n, "a turn picture differs between viewers")
            png, frame = shown.pop(), timeline.frames[n]
            end = n == last and info.game.status == "finished"
            if frame.sentence is not None and kind != "btc":
                assert png == posts[n].attachments[0].data, (kind, n, "the channel drew another picture")
            else:  # the set-up, the board as it stands after quiet moves, or Between Two Cities' turn
                assert png == drawn(info, frame.state, frame.seat, end=end), (kind, n)
            if frame.sentence is not None and kind == "btc":
                assert posts[n].attachments[0].data == drawn(info, frame.state, None, end=end), (kind, n)
            if frame.sentence is not None or n == 0:  # a quiet tail is compared again once told
                self.pictured = n + 1

    async def story(self, page: str) -> None:
        """At the end, the story chart: the same bytes for every viewer, the channel's."""
        found = re.search(r'<img class="story" src="([^"]+)"', page)
        if found is None:
            return
        shown = set()
        for browser in [self.public, *self.browsers.values()]:
            assert browser is not None
            async with browser.get(self.h.bot.web_links.base_url + html.unescape(found[1])) as r:
                assert r.status == 200
                shown.add(await r.read())
        stories = [a.data for m in self.h.channel_messages(CHANNEL) if len(m.attachments) > 1 for a in m.attachments]
        assert len(shown) == 1 and shown.pop() in stories, (self.kind, "the story chart differs")
        self.storied = True


def drawn(info: Any, state: Any, seat: int | None, *, end: bool) -> bytes:
    """A picture drawn here from the public view of a state: the end, a seat's turn, or the whole table."""
    renderer = pictures.get(info.game.kind)
    assert renderer is not None
    view = games.rules(info.game.kind).view(state, None)
    names = [s.name for s in info.seats]
    if end:
        return bytes(renderer.render_end(view, names, locale="en"))
    if seat is not None:
        return bytes(renderer.render_turn(view, seat, names, locale="en"))
    return bytes(renderer.render_board(view, names, locale="en"))


@pytest.mark.parametrize("name", sorted(MODES))
async def test_every_viewer_sees_its_own_view_and_no_other_in_every_phase(
    web_harness: Harness, seat_views: list[tuple[str, Any]], monkeypatch: pytest.MonkeyPatch, name: str
) -> None:
    mode = MODES[name]
    probe = Probe(web_harness, mode, seat_views)
    await probe.start(monkeypatch)
    rules = games.rules(mode.game)
    rng = random.Random(name)
    try:
        await probe.look()
        start = rules.view((await web_harness.service.snapshot(probe.gid)).state, None)
        probe.looked |= phases(mode.game, start, start, None)
        since = 0
        for _ in range(600):
            if (await web_harness.service.info(probe.gid)).game.status != "active":
                break
            before = rules.view((await web_harness.service.snapshot(probe.gid)).state, None)
            move = await probe.move(rng)
            after = rules.view((await web_harness.service.snapshot(probe.gid)).state, None)
            now = phases(mode.game, before, after, move)
            since += 1
            if now - probe.looked or since >= mode.every or after.get("result"):
                await probe.look()
                probe.looked |= now
                since = 0
        else:
            raise AssertionError("the game did not end")
    finally:
        await probe.close()
    assert mode.phases <= probe.looked, sorted(mode.phases - probe.looked)
    assert probe.secrets, "the probe looked while something was hidden"
    assert probe.storied == (games.get(mode.game).story is not None)
    assert bool(probe.private) == mode.private, ("whether a seat's view held more than the public one", probe.private)
