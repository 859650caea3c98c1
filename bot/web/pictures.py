"""The game page's pictures: their addresses and their answers.

A picture's address names everything it shows: the game (its signed path), the turn, the language and a
*mark*, a short hash of what decides its bytes: the names it draws, the language, the moves up to that turn
(their versions in the log) and what the picture is (the board, a seat's turn, the end). So

- an unchanged turn keeps its address and its bytes across new moves (a browser, a proxy or a CDN that has
  it never asks again: the answer is ``immutable``);
- a rename or forget-me changes the mark, so the address, of every picture that drew the old name;
- the bytes of one address never change: an address whose mark is not the turn's mark now is answered by a
  redirect (``no-store``) to the address of the picture as it is now, never by other bytes.

``{base}/t{turn}.png?lang={lang}&m={mark}`` is a turn's picture, ``{base}/story.png?lang={lang}&m={mark}``
the finished game's story chart, ``{base}/b{turn}.png?lang={lang}&m={mark}`` the analysed game's best move
at a turn (:mod:`bot.web.bestmove`). Without ``m`` (or with an old one) the same path redirects to the picture
as it is now; that is the page's template (``data-src``, ``{n}`` the turn), and ``data-marks`` lists the
marks of every turn, so the script can ask for the picture's own address at once.
"""

from __future__ import annotations

import asyncio
import base64
import functools
import hashlib
import json
from collections.abc import Awaitable, Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol
from urllib.parse import quote

import PIL
from aiohttp import web

from bot import games
from bot import story as stories
from bot.web import bestmove, weighed
from bot.web.context import LRU, WebContext
from render import pictures as render_pictures

if TYPE_CHECKING:
    from bot.service import GameInfo


class Frame(Protocol):
    """What a mark reads of a turn (:class:`bot.web.game.Frame`)."""

    @property
    def turn(self) -> int: ...

    @property
    def moves(self) -> int: ...

    @property
    def seat(self) -> int | None: ...


class Timeline(Protocol):
    """What a mark reads of a game's told turns (:class:`bot.web.game.Timeline`)."""

    @property
    def version(self) -> int: ...

    @property
    def move_versions(self) -> tuple[int, ...]: ...

    @property
    def frames(self) -> Sequence[Frame]: ...


Draw = Callable[["GameInfo", Any, int, str], "bytes | None"]
"""Draws one turn's picture (:func:`bot.web.game.picture`)."""

IMMUTABLE = "public, max-age=31536000, immutable"
MARK_BYTES = 9
"""A mark is 12 base64url characters (72 bits of BLAKE2b)."""
DRAWN_BY = ("render", "bot/rules", "bot/games", "bot/locales")
"""What decides how a turn is drawn, besides its moves and names: the renderers, the rules' views, the
games' tellers and the catalogue (folders of the installed code, relative to its root)."""
MARKS_CACHE = 256


def _mark(digest: Any) -> str:
    return base64.urlsafe_b64encode(digest.digest()).decode("ascii")


@functools.cache
def drawing() -> str:
    """A hash of the code and texts that draw the pictures (``DRAWN_BY``) and of Pillow's version, taken once
    per process: a new release that draws the same turn differently gives it a new address, so no cache
    (a browser's, a proxy's) keeps the old drawing under an address that promises the bytes never change."""
    return drawing_of(Path(__file__).resolve().parents[2])


def drawing_of(root: Path) -> str:
    """:func:`drawing` of the code under ``root``."""
    digest = hashlib.blake2b(PIL.__version__.encode(), digest_size=MARK_BYTES)
    for folder in DRAWN_BY:
        for path in sorted((root / folder).rglob("*")):
            if path.suffix in (".py", ".json") and "__pycache__" not in path.parts:
                digest.update(str(path.relative_to(root)).encode() + b"\x00" + path.read_bytes())
    return _mark(digest)


def _start(info: GameInfo, locale: str) -> Any:
    names = "\x1f".join(s.name for s in info.seats)
    return hashlib.blake2b(
        f"{drawing()}\x1e{info.game.kind}\x1e{locale}\x1e{names}\x1e".encode(), digest_size=MARK_BYTES
    )


def marks(info: GameInfo, timeline: Timeline, locale: str) -> list[str]:
    """The mark of every turn's picture (see the module), in order."""
    digest = _start(info, locale)
    end = info.game.status == "finished"
    last = len(timeline.frames) - 1
    done = 0
    out = []
    for frame in timeline.frames:
        for version in timeline.move_versions[done : frame.moves]:
            digest.update(b"%d," % version)
        done = max(done, frame.moves)
        look = "end" if end and frame.turn == last else ("turn" if frame.seat is not None else "board")
        one = digest.copy()
        one.update(f"|{look}:{frame.seat}".encode())
        out.append(_mark(one))
    return out


def story_mark(info: GameInfo, timeline: Timeline, locale: str, margins: Any = None) -> str:
    """The story chart's mark; an analysed game's chart (with its expected-margin curve, ``margins``: see
    :func:`bot.web.weighed.margins`) has another, which its values decide too."""
    digest = _start(info, locale)
    digest.update(("story|" + ",".join(str(v) for v in timeline.move_versions)).encode())
    if margins:
        digest.update(json.dumps(sorted(margins.items())).encode())
    return _mark(digest)


def _query(locale: str, mark: str | None = None) -> str:
    return f"lang={quote(locale, safe='')}" + (f"&m={mark}" if mark else "")


def template(base: str, locale: str) -> str:
    """The address of turn ``{n}``'s picture as it is now (a redirect to its own address)."""
    return f"{base}/t{{n}}.png?{_query(locale)}"


def turn_url(base: str, locale: str, turn: int | str, mark: str) -> str:
    """Turn ``turn``'s own address (the page's script fills ``turn_url(…, "{n}", "{m}")`` per turn)."""
    return f"{base}/t{turn}.png?{_query(locale, mark)}"


def best_url(base: str, locale: str, turn: int | str, mark: str) -> str:
    """The picture of the best move at turn ``turn`` (:mod:`bot.web.bestmove`; the script fills ``{n}``, ``{m}``)."""
    return f"{base}/b{turn}.png?{_query(locale, mark)}"


def story_url(base: str, locale: str, mark: str) -> str:
    return f"{base}/story.png?{_query(locale, mark)}"


class Pictures:
    """The picture routes of :class:`bot.web.server.WebServer`: ``game`` finds the signed link's started game
    (None: not found), ``timeline`` its told turns, ``base`` its page's path, ``draw`` a turn's picture."""

    def __init__(
        self,
        ctx: WebContext,
        game: Callable[[web.Request], Awaitable[GameInfo | None]],
        timeline: Callable[[GameInfo], Awaitable[Any]],
        base: Callable[[GameInfo], str],
        draw: Draw,
    ) -> None:
        self.ctx = ctx
        self.draw = draw
        self.game = game
        self.timeline = timeline
        self.base = base
        self.marks: LRU[tuple[Any, ...], list[str]] = LRU(MARKS_CACHE)

    def routes(self, game_path: str) -> list[web.RouteDef]:
        return [
            web.get(game_path + r"/t{turn:\d{1,6}}.png", self.turn_picture),
            web.get(game_path + "/story.png", self.story_picture),
            web.get(game_path + r"/b{turn:\d{1,6}}.png", self.best_picture),
        ]

    def turn_marks(self, info: GameInfo, timeline: Timeline, locale: str) -> list[str]:
        key = (info.id, timeline.version, info.game.status, tuple(s.name for s in info.seats), locale)
        found = self.marks.get(key)
        if found is None:
            found = marks(info, timeline, locale)
            self.marks.put(key, found)
        return found

    async def _found(self, request: web.Request) -> tuple[GameInfo, str, Timeline]:
        info = await self.game(request)
        if info is None:
            raise web.HTTPNotFound()
        return info, self.ctx.locale(request, info.game.locale), await self.timeline(info)

    @staticmethod
    def _moved(request: web.Request, url: str) -> web.HTTPException:
        """The picture as it is now is at ``url``: a redirect nobody keeps."""
        return web.HTTPTemporaryRedirect(url, headers={"Cache-Control": "no-store"})

    async def _png(self, key: tuple[Any, ...], draw: Callable[[], bytes | None]) -> web.StreamResponse:
        data = self.ctx.pictures.get(key)
        if data is None:
            made = await asyncio.to_thread(draw)
            if made is None:
                raise web.HTTPNotFound()
            data = made
            self.ctx.pictures.put(key, data)
        return web.Response(body=data, content_type="image/png", headers={"Cache-Control": IMMUTABLE})

    async def turn_picture(self, request: web.Request) -> web.StreamResponse:
        info, locale, timeline = await self._found(request)
        turn = int(request.match_info["turn"])
        if turn >= len(timeline.frames) or render_pictures.get(info.game.kind) is None:
            raise web.HTTPNotFound()
        mark = self.turn_marks(info, timeline, locale)[turn]
        if request.query.get("m") != mark:
            raise self._moved(request, turn_url(self.base(info), locale, turn, mark))
        return await self._png(("turn", info.id, turn, mark), lambda: self.draw(info, timeline, turn, locale))

    async def best_picture(self, request: web.Request) -> web.StreamResponse:
        """The position the best move of turn ``turn`` would have made, once the finished game is analysed."""
        info, locale, found = await self._found(request)
        timeline: Any = found  # the told turns with their log (bot.web.game.Timeline)
        turn = int(request.match_info["turn"])
        if info.game.status != "finished" or render_pictures.get(info.game.kind) is None:
            raise web.HTTPNotFound()
        analysis = await weighed.kept(self.ctx.app, info.id)
        best = None if analysis is None else bestmove.decision(timeline, analysis, turn)
        if best is None or best.played:
            raise web.HTTPNotFound()
        mark = bestmove.mark(self.turn_marks(info, timeline, locale)[turn], best)
        if request.query.get("m") != mark:
            raise self._moved(request, best_url(self.base(info), locale, turn, mark))
        return await self._png(("best", info.id, turn, mark), lambda: bestmove.picture(info, timeline, best, locale))

    async def story_picture(self, request: web.Request) -> web.StreamResponse:
        info, locale, timeline = await self._found(request)
        g = info.game
        if g.status != "finished" or games.get(g.kind).story is None:
            raise web.HTTPNotFound()
        analysis = await weighed.kept(self.ctx.app, g.id)
        margins = None if analysis is None else weighed.margins(analysis)
        mark = story_mark(info, timeline, locale, margins)
        if request.query.get("m") != mark:
            raise self._moved(request, story_url(self.base(info), locale, mark))
        moves = await self.ctx.service.move_log(g.id)
        names = [s.name for s in info.seats]

        def draw() -> bytes:
            from render.story import chart_png

            told = stories.build(g.kind, g.options, len(info.seats), g.seed, moves)
            return chart_png(told, names, locale=locale, margins=margins)

        return await self._png(("story", g.id, mark), draw)
