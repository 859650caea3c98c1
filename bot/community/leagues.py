"""Leagues: members, seasons, the finished games that count, standings and ratings.

Ratings are not stored: they are recomputed from the counted games' finishing order, in finishing
order, by the rating library (openskill's Plackett-Luce model).
"""

from __future__ import annotations

import logging
import secrets
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from openskill.models import PlackettLuce

from bot import games
from bot.community.base import DAY_MS, CommunityError, Feature
from bot.community.clock import PRESETS
from bot.rules import core
from bot.service import GameInfo, Service
from bot.store.community import leagues as cstore
from bot.store.community.leagues import LeagueStore

log = logging.getLogger(__name__)

LEAGUE_CATCH_UP_LIMIT = 500
NAME_LIMIT = 40
FORFEIT_RULES = ("loss", "ignore")
ABANDON_RULES = ("ignore", "draw")


@dataclass(frozen=True)
class Standing:
    user_xid: int
    name: str
    games: int
    wins: int
    places: int
    """Sum of finishing places (for the average)."""
    mu: float
    sigma: float

    @property
    def ordinal(self) -> float:
        """The conservative rating shown (mu - 3 sigma), as openskill defines it."""
        return self.mu - 3 * self.sigma

    @property
    def average_place(self) -> float:
        return self.places / self.games if self.games else 0.0


@dataclass(frozen=True)
class Table:
    league: cstore.LeagueRow
    season: cstore.SeasonRow
    standings: list[Standing]
    games: int


@dataclass(frozen=True)
class Profile:
    league: cstore.LeagueRow
    season: cstore.SeasonRow
    standing: Standing | None
    position: int | None
    history: list[dict[str, Any]]
    ratings: list[float] = field(default_factory=list)
    """The player's conservative rating (mu - 3 sigma) after each of their counted games, oldest first."""


class Leagues(Feature):
    """Leagues over the service; a finished game is counted as it ends (and caught up later)."""

    personal_columns = cstore.PERSONAL_COLUMNS

    def __init__(self, service: Service, db: LeagueStore) -> None:
        super().__init__(service)
        self.db = db

    async def on_end(self, info: GameInfo) -> None:
        """A game ended (any path): every league of its server and game counts it."""
        for league in await self.db.leagues(info.game.guild_xid or 0, info.game.kind):
            try:
                await self._count(league, info)
            except Exception:
                log.exception("league %s could not count game %s", league.id, info.id)

    async def clock_of(self, info: GameInfo) -> str | None:
        """The time control of a league the game's players all belong to (two at least), if one has one: that
        of its season running now (else its latest)."""
        for league in await self._leagues_of(info):
            clock = (await self.season(league)).clock
            if clock is not None:
                return clock
        return None

    async def _leagues_of(self, info: GameInfo) -> list[cstore.LeagueRow]:
        """The leagues of the game's server and kind (and mode) that every human seat of it belongs to."""
        g = info.game
        humans = [s.user_xid for s in info.seats if s.user_xid is not None]
        if len(humans) < 2:
            return []
        found = []
        for league in await self.db.leagues(g.guild_xid or 0, g.kind):
            if league.mode is not None:
                specs = games.rules(g.kind).option_specs
                if not specs or g.options.get(specs[0].name) != league.mode:
                    continue
            members = await self.db.members(league.id)
            if all(u in members for u in humans):
                found.append(league)
        return found

    async def rated(self, info: GameInfo) -> bool:
        """Whether the game would count in a rated league of its server (every human seat a member, two
        at least): a clock that runs out there may forfeit the seat (timeout policy ``forfeit``)."""
        return any(league.rated for league in await self._leagues_of(info))

    async def create_league(
        self,
        guild_xid: int,
        name: str,
        kind: str,
        *,
        mode: str | None = None,
        rated: bool = False,
        forfeits: str = "loss",
        abandoned: str = "ignore",
        season_days: int = 90,
        created_by: int | None = None,
    ) -> cstore.LeagueRow:
        name = name.strip()
        if not 1 <= len(name) <= NAME_LIMIT:
            raise CommunityError("community.error.league_name", limit=NAME_LIMIT)
        rules = games.rules(kind)
        if mode:
            spec = rules.option_specs[0] if rules.option_specs else None
            if spec is None or mode not in spec.choices:
                raise CommunityError(
                    "community.error.bad_mode", mode=mode, choices=", ".join(spec.choices) if spec else "-"
                )
        if forfeits not in FORFEIT_RULES or abandoned not in ABANDON_RULES:
            raise CommunityError("community.error.generic")
        if not 1 <= season_days <= 3660:
            raise CommunityError("community.error.season_days")
        now = self.now
        league = await self.db.create_league(
            guild_xid=guild_xid,
            name=name,
            kind=kind,
            mode=mode or None,
            rated=rated,
            forfeits=forfeits,
            abandoned=abandoned,
            created_by=created_by,
            at=now,
            season_ends=now + season_days * DAY_MS,
        )
        if league is None:
            raise CommunityError("community.error.league_exists", name=name)
        return league

    async def leagues(self, guild_xid: int) -> list[tuple[cstore.LeagueRow, int]]:
        """The server's leagues with their number of members."""
        return [(lg, len(await self.db.members(lg.id))) for lg in await self.db.leagues(guild_xid)]

    async def edit_league(
        self,
        guild_xid: int,
        name: str,
        *,
        rated: bool | None = None,
        forfeits: str | None = None,
        abandoned: str | None = None,
        clock: str | None = None,
    ) -> cstore.LeagueRow:
        """Change a league's rules; the standings follow at once (they are computed on demand). ``clock``: the
        time control its games start with (``off``: none, the server's): that of its season running now (else
        its latest), and of its next seasons; the seasons before keep theirs."""
        league = await self.league(guild_xid, name)
        if (
            (forfeits is not None and forfeits not in FORFEIT_RULES)
            or (abandoned is not None and abandoned not in ABANDON_RULES)
            or (clock is not None and clock not in PRESETS)
        ):
            raise CommunityError("community.error.generic")
        changes: dict[str, Any] = {
            k: v for k, v in {"rated": rated, "forfeits": forfeits, "abandoned": abandoned}.items() if v is not None
        }
        if clock is not None:
            changes["clock"] = None if clock == "off" else clock
        await self.db.update_league(league.id, **changes)
        if clock is not None:
            await self.db.set_season_clock((await self.season(league)).id, changes["clock"])
        return await self.league(guild_xid, name)

    async def league(self, guild_xid: int, name: str) -> cstore.LeagueRow:
        league = await self.db.league_by_name(guild_xid, name.strip())
        if league is None:
            raise CommunityError("community.error.no_league", name=name)
        return league

    async def join_league(self, guild_xid: int, name: str, user_xid: int, display: str) -> cstore.LeagueRow:
        league = await self.league(guild_xid, name)
        if not await self.db.add_member(league.id, user_xid, display[:64], self.now):
            raise CommunityError("community.error.already_member", name=league.name)
        return league

    async def leave_league(self, guild_xid: int, name: str, user_xid: int) -> cstore.LeagueRow:
        league = await self.league(guild_xid, name)
        if not await self.db.remove_member(league.id, user_xid):
            raise CommunityError("community.error.not_member", name=league.name)
        return league

    async def new_season(self, guild_xid: int, name: str, days: int) -> cstore.SeasonRow:
        """Start the next season now (the running one ends now), with the league's time control."""
        if not 1 <= days <= 3660:
            raise CommunityError("community.error.season_days")
        league = await self.league(guild_xid, name)
        now = self.now
        return await self.db.add_season(league.id, starts_at=now, ends_at=now + days * DAY_MS, close_running_at=now)

    async def season(self, league: cstore.LeagueRow, number: int | None = None) -> cstore.SeasonRow:
        """A season by number, else the one running now, else the latest."""
        seasons = await self.db.seasons(league.id)
        if number is not None:
            for s in seasons:
                if s.number == number:
                    return s
            raise CommunityError("community.error.no_season", number=number, name=league.name)
        now = self.now
        for s in seasons:
            if s.starts_at <= now < s.ends_at:
                return s
        return seasons[-1]

    async def _count(self, league: cstore.LeagueRow, info: GameInfo) -> bool:
        g = info.game
        if g.guild_xid != league.guild_xid or g.kind != league.kind or g.finished_at is None:
            return False
        if g.paused_at is not None:
            return False  # its channel was deleted before it ended: never counted
        if league.mode is not None:
            rules = games.rules(g.kind)
            spec = rules.option_specs[0] if rules.option_specs else None
            if spec is None or g.options.get(spec.name) != league.mode:
                return False
        season = next((s for s in await self.db.seasons(league.id) if s.starts_at <= g.finished_at < s.ends_at), None)
        if season is None:
            return False
        outcome = league_outcome(league, info, await self.db.members(league.id))
        if outcome is None:
            return False
        return await self.db.record_league_game(
            cstore.LeagueGameRow(league.id, season.id, g.id, g.finished_at, outcome)
        )

    async def catch_up(self, league: cstore.LeagueRow, season: cstore.SeasonRow) -> int:
        """Count finished games a listener missed (the bot stopped at the wrong moment)."""
        counted = await self.db.counted_game_ids(league.id)
        found = 0
        ids = await self.db.finished_games(league.guild_xid, league.kind, season.starts_at, season.ends_at)
        for game_id in [i for i in ids if i not in counted][:LEAGUE_CATCH_UP_LIMIT]:
            if await self._count(league, await self.service.info(game_id)):
                found += 1
        return found

    async def table(self, guild_xid: int, name: str, season_number: int | None = None) -> Table:
        league = await self.league(guild_xid, name)
        season = await self.season(league, season_number)
        await self.catch_up(league, season)
        games = await self.db.league_games(league.id, season.id)
        members = await self.db.members(league.id)
        return Table(league, season, standings(games, members, rated=league.rated), len(games))

    async def profile(self, guild_xid: int, name: str, user_xid: int, season_number: int | None = None) -> Profile:
        table = await self.table(guild_xid, name, season_number)
        position = next((i + 1 for i, s in enumerate(table.standings) if s.user_xid == user_xid), None)
        standing = table.standings[position - 1] if position is not None else None
        history = []
        for g in reversed(await self.db.league_games(table.league.id, table.season.id)):
            mine = next((o for o in g.outcome if o["user"] == user_xid), None)
            if mine is not None:
                history.append(
                    {
                        "game": g.game_id,
                        "finished_at": g.finished_at,
                        "rank": mine["rank"],
                        "players": len(g.outcome),
                        "forfeit": mine.get("forfeit", False),
                    }
                )
        games = await self.db.league_games(table.league.id, table.season.id)
        return Profile(table.league, table.season, standing, position, history, rating_history(games, user_xid))

    async def forget_user(self, user_xid: int) -> int:
        """Forget a player in leagues: memberships and names go; in counted games their id becomes
        one anonymous number (negative, so never a Discord id), so nobody else's rating changes."""
        return await self.db.forget_user(user_xid, anonymous=-1 - secrets.randbits(48))


# =============================================================================================
# League arithmetic (pure)
# =============================================================================================


def league_outcome(league: cstore.LeagueRow, info: GameInfo, members: Mapping[int, str]) -> list[dict[str, Any]] | None:
    """The members' finishing order in a game, or None when the game does not count.

    Counts when every human seat belongs to a member and at least two members played. Abandoned
    games: ignored, or (league rule ``draw``) a shared first place. A resigned member ranks below
    every member who did not resign (rule ``loss``), or the game is ignored (``ignore``). A seat the
    AI took over at a deadline still counts for its member.
    """
    g = info.game
    humans = [s for s in info.seats if s.user_xid is not None]
    if any(s.user_xid not in members for s in humans) or len(humans) < 2:
        return None
    if g.status == "abandoned":
        if league.abandoned != "draw":
            return None
        return [{"user": s.user_xid, "seat": s.seat, "rank": 1, "forfeit": False} for s in humans]
    if g.status != "finished" or not g.result:
        return None
    by_seat = {int(r["seat"]): r for r in g.result.get("seats", [])}
    resigned = {
        s.seat for s in humans if s.resigned or bool((by_seat.get(s.seat) or {}).get("details", {}).get("forfeit"))
    }
    if resigned and league.forfeits == "ignore":
        return None
    keys = []
    for s in humans:
        rank = int((by_seat.get(s.seat) or {}).get("rank", len(info.seats)))
        keys.append((1 if s.seat in resigned else 0, rank if s.seat not in resigned else 0))
    ranks = core.competition_ranks([(-a, -b) for a, b in keys])
    return [
        {"user": s.user_xid, "seat": s.seat, "rank": r, "forfeit": s.seat in resigned} for s, r in zip(humans, ranks)
    ]


def rating_history(games: Sequence[cstore.LeagueGameRow], user_xid: int) -> list[float]:
    """A player's conservative rating (mu - 3 sigma) after each counted game they played, oldest first,
    by the same model and order as :func:`standings`."""
    model = PlackettLuce()
    ratings: dict[int, Any] = {}
    out: list[float] = []
    for g in games:
        order = list(g.outcome)
        if len(order) < 2:
            continue
        teams = [[ratings.get(o["user"]) or model.rating(name=str(o["user"]))] for o in order]
        for o, team in zip(order, model.rate(teams, ranks=[o["rank"] for o in order])):
            ratings[o["user"]] = team[0]
            if o["user"] == user_xid:
                out.append(float(team[0].mu - 3 * team[0].sigma))
    return out


def standings(games: Sequence[cstore.LeagueGameRow], members: Mapping[int, str], *, rated: bool) -> list[Standing]:
    """Members' standings from counted games, ratings by openskill's Plackett-Luce model (made for
    free-for-all games) fed with each game's finishing order, in finishing order. Players who left
    the league still count in the games they played (so nobody's rating changes when they leave);
    only current members are listed.

    Rated leagues sort by the conservative rating (mu - 3 sigma), then wins; unrated leagues by
    wins, then average place, then games played.
    """
    model = PlackettLuce()
    ratings: dict[int, Any] = {}
    games_played: Counter[int] = Counter()
    wins: Counter[int] = Counter()
    places: Counter[int] = Counter()
    for g in games:
        order = list(g.outcome)  # everyone who played counts, even a member who left since
        if len(order) < 2:
            continue
        teams = [[ratings.get(o["user"]) or model.rating(name=str(o["user"]))] for o in order]
        rated_teams = model.rate(teams, ranks=[o["rank"] for o in order])
        for o, team in zip(order, rated_teams):
            ratings[o["user"]] = team[0]
            games_played[o["user"]] += 1
            places[o["user"]] += o["rank"]
            if o["rank"] == 1:
                wins[o["user"]] += 1
    out = []
    for user, name in members.items():
        r = ratings.get(user) or model.rating()
        out.append(Standing(user, name, games_played[user], wins[user], places[user], float(r.mu), float(r.sigma)))
    if rated:
        out.sort(key=lambda s: (-s.ordinal, -s.wins, s.name.lower()))
    else:
        out.sort(key=lambda s: (-s.wins, s.average_place if s.games else 99.0, -s.games, s.name.lower()))
    return out
