"""The league page and the player page (issue 28), served by :class:`bot.web.server.WebServer` through
:func:`routes`.

- ``/l/{league_id}/{token}``: a league's standings per season (a table and the standings picture of
  :mod:`render.leagues`), the rating history of the leaders of a rated league (its rating chart), and every
  counted game with a link to its game page.
- ``/p/{guild_xid}/{user_xid}/{token}``: a player's started games in one server and their place and
  rating in that server's leagues, under the name they have in that server (the seat name of their newest
  game there), never another server's.

Both only read: the standings are computed from the counted games as ``/league table`` computes them
(:func:`bot.community.leagues.standings`), without counting games a listener missed (a write; the next
``/league table`` does it). After ``/game forget-me`` the player has no seat with their id and no
membership: their page is a 404, and league pages show only the neutral seat name the service gave them.
Every text a user chose (names, league names) is escaped with ``html.escape`` and isolated (its own
``<bdi>`` in the text, FSI … PDI in titles and alt texts: :mod:`bot.web.page`); every other word comes from
the catalogue (``web.league.*``, ``web.player.*``). Sizes are bounded (:data:`GAMES_SHOWN`,
:data:`PLAYER_GAMES`, :data:`CHARTS_SHOWN`, :data:`SEASONS_SHOWN`).
"""

from __future__ import annotations

import asyncio
import hashlib
import html
from collections.abc import Callable, Sequence
from datetime import UTC, datetime
from typing import Any

from aiohttp import web
from babel.dates import format_date

from bot import games
from bot.community.leagues import Standing, rating_history, standings
from bot.i18n import t
from bot.store.community.leagues import LeagueGameRow, LeagueRow, LeagueStore, PlayerSeatRow, SeasonRow
from bot.web import links
from bot.web.context import WebContext
from bot.web.page import attr, isolated, mark, text
from render.leagues import MAX_ROWS, rating_chart_png, standings_png

GAMES_SHOWN = 100
"""Counted games listed per season, newest first (then "and N more")."""
PLAYER_GAMES = 100
"""Games listed on a player page, newest first."""
CHARTS_SHOWN = 5
"""Rating charts of a rated league's season: its leaders'."""
SEASONS_SHOWN = 10
"""Seasons on a league page, newest first."""
PICTURE_CACHE = "no-store"
"""The league pictures carry names: not kept by browsers or proxies, so a forget-me takes them at once."""

TOKEN = r"{token:[A-Za-z0-9_-]{1,64}}"
LEAGUE = r"/l/{league_id:\d{1,18}}/" + TOKEN
PLAYER = r"/p/{guild_xid:\d{1,20}}/{user_xid:\d{1,20}}/" + TOKEN


def routes(ctx: WebContext) -> list[web.RouteDef]:
    """The league and player pages and their pictures."""
    pages = CommunityPages(ctx)
    return [
        web.get(LEAGUE, pages.league_page),
        web.get(LEAGUE + r"/s{season:\d{1,6}}/standings.png", pages.standings_picture),
        web.get(LEAGUE + r"/s{season:\d{1,6}}/r{position:\d{1,6}}.png", pages.rating_picture),
        web.get(PLAYER, pages.player_page),
        web.get(PLAYER + r"/l{league_id:\d{1,18}}.png", pages.player_rating_picture),
    ]


def e(text: object) -> str:
    return html.escape(str(text), quote=True)


def day(ms: int | None, locale: str) -> str:
    if ms is None:
        return "-"
    return format_date(datetime.fromtimestamp(ms / 1000, UTC).date(), "medium", locale=locale)


def game_name(kind: str, locale: str) -> str:
    return t(games.get(kind).title_key, locale) if kind in games.available() else kind


def with_lang(path: str, locale: str) -> str:
    return f"{path}?lang={locale}"


class CommunityPages:
    """The handlers, over the context's store (read only)."""

    def __init__(self, ctx: WebContext) -> None:
        self.ctx = ctx

    @property
    def db(self) -> LeagueStore:
        return LeagueStore(self.ctx.app.store)

    def now(self) -> int:
        return self.ctx.service.clock.now_ms()

    # -- a league ------------------------------------------------------------------------------------
    async def _league(self, request: web.Request) -> LeagueRow | None:
        league_id = int(request.match_info["league_id"])
        if not links.verify(self.ctx.secret, links.LEAGUE, links.league_ident(league_id), request.match_info["token"]):
            return None
        return await self.db.league(league_id)

    async def _season(
        self, league: LeagueRow, request: web.Request
    ) -> tuple[SeasonRow, list[LeagueGameRow], dict[int, str]]:
        number = int(request.match_info["season"])
        season = next((s for s in await self.db.seasons(league.id) if s.number == number), None)
        if season is None:
            raise web.HTTPNotFound()
        return season, await self.db.league_games(league.id, season.id), await self.db.members(league.id)

    async def league_page(self, request: web.Request) -> web.StreamResponse:
        locale = self.ctx.locale(request)
        league = await self._league(request)
        if league is None:
            return self.ctx.not_found(locale)
        base = links.path_league(self.ctx.secret, league.id)
        members = await self.db.members(league.id)
        seasons = list(reversed(await self.db.seasons(league.id)))[:SEASONS_SHOWN]
        kind_title = game_name(league.kind, locale)
        # A heading is a paragraph of its own: a name's override ends with it.
        parts = [
            f"<header><h1>{e(league.name)}</h1>",
            f"<p>{e(t('web.league.about', locale, game=kind_title, count=len(members)))} "
            f"{e(t('web.league.rated' if league.rated else 'web.league.unrated', locale))}</p>",
            self.ctx.language_links(locale, base),
            "</header><main>",
        ]
        for season in seasons:
            counted = await self.db.league_games(league.id, season.id)
            parts.append(await self.season_html(league, season, counted, members, base, locale))
        parts.append("</main>")
        title = t("web.league.title", locale, name=isolated(league.name))
        return self.ctx.page(title, "".join(parts), locale)

    async def season_html(
        self,
        league: LeagueRow,
        season: SeasonRow,
        counted: Sequence[LeagueGameRow],
        members: dict[int, str],
        base: str,
        locale: str,
    ) -> str:
        table = standings(counted, members, rated=league.rated)
        heading = t(
            "web.league.season",
            locale,
            number=season.number,
            start=day(season.starts_at, locale),
            end=day(season.ends_at, locale),
        )
        out = [f'<section class="season"><h2>{e(heading)}</h2>']
        if season.clock:  # the time control its games start with (issue 41)
            out.append(f"<p>{e(t('web.league.clock', locale, clock=t(f'community.clock.{season.clock}', locale)))}</p>")
        if not counted:
            out.append(f"<p>{e(t('web.league.no_games', locale))}</p></section>")
            return "".join(out)
        out.append(self.standings_table(table, league.rated, locale))
        picture = f"{base}/s{season.number}/standings.png?lang={locale}"
        alt = t("web.league.standings_alt", locale, number=season.number)
        out.append(f'<figure><img src="{e(picture)}" alt="{e(alt)}" loading="lazy"></figure>')
        if league.rated:
            leaders = [s for s in table if s.games][:CHARTS_SHOWN]
            if leaders:
                out.append(f"<h3>{e(t('web.league.ratings', locale))}</h3>")
            for position, s in enumerate(leaders, start=1):
                chart = f"{base}/s{season.number}/r{position}.png?lang={locale}"
                caption = t("web.league.rating_of", locale, player=mark(s.name))
                out.append(
                    f'<figure><img src="{e(chart)}" alt="{attr(caption)}" loading="lazy">'
                    f"<figcaption>{text(caption)}</figcaption></figure>"
                )
        out.append(await self.games_list(counted, locale))
        out.append("</section>")
        return "".join(out)

    @staticmethod
    def standings_table(table: Sequence[Standing], rated: bool, locale: str) -> str:
        heads = [
            t("web.league.col.place", locale),
            t("web.league.col.player", locale),
            t("web.league.col.games", locale),
            t("web.league.col.wins", locale),
            t("web.league.col.average", locale),
        ] + ([t("web.league.col.rating", locale)] if rated else [])
        head = "".join(f'<th scope="col">{e(h)}</th>' for h in heads)
        rows = [f"<tr>{head}</tr>"]
        for position, s in enumerate(table, start=1):
            cells = [str(s.games), str(s.wins), f"{s.average_place:.2f}" if s.games else "-"]
            if rated:
                cells.append(f"{s.ordinal:.1f}")
            # A table cell is a paragraph of its own: a name's override ends with the cell.
            rows.append(
                f'<tr><td>{position}</td><th scope="row">{e(s.name)}</th>'
                + "".join(f"<td>{e(c)}</td>" for c in cells)
                + "</tr>"
            )
        return f'<table class="scores standings">{"".join(rows)}</table>'

    async def games_list(self, counted: Sequence[LeagueGameRow], locale: str) -> str:
        """Every counted game, newest first, with its players in finishing order under their seat names of
        today (a forgotten player's is the neutral one), each a link to its game page."""
        newest = list(reversed(counted))
        shown = newest[:GAMES_SHOWN]
        names = await self.db.seat_names([g.game_id for g in shown])
        items = []
        for g in shown:
            seats = names.get(g.game_id, {})
            order = sorted(g.outcome, key=lambda o: (o["rank"], o["seat"]))
            players = ", ".join(
                t("web.league.ranked", locale, rank=o["rank"], player=mark(seats.get(o["seat"], "?"))) for o in order
            )
            href = with_lang(links.path_game(self.ctx.secret, g.game_id), locale)
            label = t("web.league.game", locale, id=g.game_id)
            items.append(
                f'<li><a href="{e(href)}">{e(label)}</a> · {e(day(g.finished_at, locale))} · {text(players)}</li>'
            )
        more = len(newest) - len(shown)
        tail = f"<p>{e(t('web.league.more', locale, count=more))}</p>" if more > 0 else ""
        return f'<h3>{e(t("web.league.games", locale))}</h3><ol class="games">{"".join(items)}</ol>{tail}'

    async def standings_picture(self, request: web.Request) -> web.StreamResponse:
        locale = self.ctx.locale(request)
        league = await self._league(request)
        if league is None:
            raise web.HTTPNotFound()
        season, counted, members = await self._season(league, request)
        table = standings(counted, members, rated=league.rated)
        title = t("web.league.picture_title", locale, name=league.name, number=season.number)
        kind_title = game_name(league.kind, locale)
        key = ("league", league.id, season.number, locale, self.fingerprint(counted, members, league))
        return await self.png(
            key, lambda: standings_png(title, kind_title, table[:MAX_ROWS], rated=league.rated, loc=locale)
        )

    async def rating_picture(self, request: web.Request) -> web.StreamResponse:
        locale = self.ctx.locale(request)
        league = await self._league(request)
        if league is None or not league.rated:
            raise web.HTTPNotFound()
        season, counted, members = await self._season(league, request)
        leaders = [s for s in standings(counted, members, rated=True) if s.games][:CHARTS_SHOWN]
        position = int(request.match_info["position"])
        if not 1 <= position <= len(leaders):
            raise web.HTTPNotFound()
        s = leaders[position - 1]
        ratings = rating_history(counted, s.user_xid)
        title = t("web.league.rating_of", locale, player=s.name)
        key = ("rating", league.id, season.number, position, locale, self.fingerprint(counted, members, league))
        return await self.png(key, lambda: rating_chart_png(title, ratings, loc=locale, seat=position - 1))

    @staticmethod
    def fingerprint(counted: Sequence[LeagueGameRow], members: dict[int, str], league: LeagueRow) -> str:
        """What a league picture is drawn from: a new game, member or name (a forget-me too) draws it anew."""
        text = repr(([(g.game_id, g.outcome) for g in counted], sorted(members.items()), league.name, league.rated))
        return hashlib.sha256(text.encode()).hexdigest()

    async def png(self, key: tuple[Any, ...], draw: Callable[[], bytes]) -> web.StreamResponse:
        data = self.ctx.pictures.get(key)
        if data is None:
            data = await asyncio.to_thread(draw)
            self.ctx.pictures.put(key, data)
        return web.Response(body=data, content_type="image/png", headers={"Cache-Control": PICTURE_CACHE})

    # -- a player ------------------------------------------------------------------------------------
    async def _player(self, request: web.Request) -> tuple[int, int, list[PlayerSeatRow]] | None:
        guild_xid, user_xid = int(request.match_info["guild_xid"]), int(request.match_info["user_xid"])
        if not links.verify(
            self.ctx.secret, links.PLAYER, links.player_ident(guild_xid, user_xid), request.match_info["token"]
        ):
            return None
        seats = await self.db.player_seats(guild_xid, user_xid, PLAYER_GAMES)
        return (guild_xid, user_xid, seats) if seats else None

    async def player_page(self, request: web.Request) -> web.StreamResponse:
        locale = self.ctx.locale(request)
        found = await self._player(request)
        if found is None:
            return self.ctx.not_found(locale)
        guild_xid, user_xid, seats = found
        name = seats[0].name  # the name they have in this server, in their newest game here
        base = links.path_player(self.ctx.secret, guild_xid, user_xid)
        # A heading is a paragraph of its own: a name's override ends with it.
        parts = [
            f"<header><h1>{e(name)}</h1>",
            self.ctx.language_links(locale, base),
            "</header><main>",
            await self.player_leagues(guild_xid, user_xid, base, locale),
            self.player_games(seats, locale),
            "</main>",
        ]
        return self.ctx.page(t("web.player.title", locale, player=isolated(name)), "".join(parts), locale)

    def player_games(self, seats: Sequence[PlayerSeatRow], locale: str) -> str:
        items = []
        for s in seats:
            title = game_name(s.kind, locale)
            href = with_lang(links.path_game(self.ctx.secret, s.game_id), locale)
            label = t("web.player.game", locale, id=s.game_id, game=title)
            rank = next((r.get("rank") for r in (s.result or {}).get("seats", []) if r.get("seat") == s.seat), None)
            if s.status == "finished" and rank is not None:
                outcome = t("web.player.place", locale, rank=rank, players=len((s.result or {}).get("seats", [])))
            else:
                outcome = t(f"web.player.status.{s.status}", locale)
            when = day(s.finished_at if s.finished_at is not None else s.updated_at, locale)
            items.append(f'<li><a href="{e(href)}">{e(label)}</a> · {e(outcome)} · {e(when)}</li>')
        return f'<section><h2>{e(t("web.player.games", locale))}</h2><ol class="games">{"".join(items)}</ol></section>'

    async def _league_rows(
        self, guild_xid: int, user_xid: int
    ) -> list[tuple[LeagueRow, SeasonRow, list[LeagueGameRow], dict[int, str]]]:
        """The server's leagues in which the player has a counted game in the current season."""
        out = []
        now = self.now()
        for league in await self.db.leagues(guild_xid):
            seasons = await self.db.seasons(league.id)
            if not seasons:
                continue
            season = next((s for s in seasons if s.starts_at <= now < s.ends_at), seasons[-1])
            counted = await self.db.league_games(league.id, season.id)
            if any(o.get("user") == user_xid for g in counted for o in g.outcome):
                out.append((league, season, counted, await self.db.members(league.id)))
        return out

    async def player_leagues(self, guild_xid: int, user_xid: int, base: str, locale: str) -> str:
        rows = await self._league_rows(guild_xid, user_xid)
        if not rows:
            return ""
        items = []
        for league, season, counted, members in rows:
            table = standings(counted, members, rated=league.rated)
            position = next((i for i, s in enumerate(table, start=1) if s.user_xid == user_xid), None)
            mine = table[position - 1] if position is not None else None
            played = sum(1 for g in counted for o in g.outcome if o.get("user") == user_xid)
            wins = sum(1 for g in counted for o in g.outcome if o.get("user") == user_xid and o.get("rank") == 1)
            href = with_lang(links.path_league(self.ctx.secret, league.id), locale)
            line = t("web.player.league", locale, number=season.number, games=played, wins=wins)
            if position is not None:
                line += " " + t("web.player.position", locale, place=position, count=len(table))
            if league.rated and mine is not None:
                line += " " + t("web.player.rating", locale, rating=f"{mine.ordinal:.1f}")
            chart = ""
            if league.rated and rating_history(counted, user_xid):
                src = f"{base}/l{league.id}.png?lang={locale}"
                alt = t("web.league.rating_of", locale, player=mark(league.name))
                chart = f'<figure><img src="{e(src)}" alt="{attr(alt)}" loading="lazy"></figure>'
            items.append(f'<li><a href="{e(href)}">{text(mark(league.name))}</a> · {e(line)}{chart}</li>')
        return (
            f'<section><h2>{e(t("web.player.leagues", locale))}</h2><ul class="leagues">{"".join(items)}</ul></section>'
        )

    async def player_rating_picture(self, request: web.Request) -> web.StreamResponse:
        locale = self.ctx.locale(request)
        found = await self._player(request)
        if found is None:
            raise web.HTTPNotFound()
        guild_xid, user_xid, seats = found
        league_id = int(request.match_info["league_id"])
        row = next((r for r in await self._league_rows(guild_xid, user_xid) if r[0].id == league_id), None)
        if row is None or not row[0].rated:
            raise web.HTTPNotFound()
        league, season, counted, members = row
        ratings = rating_history(counted, user_xid)
        title = t("web.player.rating_title", locale, player=seats[0].name, name=league.name, number=season.number)
        key = (
            "player-rating",
            guild_xid,
            user_xid,
            league.id,
            season.number,
            locale,
            seats[0].name,
            self.fingerprint(counted, members, league),
        )
        return await self.png(key, lambda: rating_chart_png(title, ratings, loc=locale))
