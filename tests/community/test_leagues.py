"""Leagues: membership, which games count, seasons, and ratings from openskill's Plackett-Luce."""

from __future__ import annotations

import io
import itertools

import pytest
from openskill.models import PlackettLuce
from PIL import Image

from bot.community.base import CommunityError
from bot.community.leagues import Leagues
from bot.composition import App
from bot.service import Service
from bot.store.community.leagues import LeagueStore
from render.leagues import rating_chart_png
from tests.community.conftest import ANA, BEA, CEM, DAN, GUILD, NAMES, bid
from tests.conftest import FakeClock

MEMBERS = (ANA, BEA, CEM, DAN)
LEVELS = {ANA: "greedy", BEA: "greedy", CEM: "random", DAN: "random"}


async def league_with_members(leagues: Leagues, *, rated: bool = True, **kw: object) -> None:
    await leagues.create_league(GUILD, "Bids", "toy", rated=rated, created_by=ANA, **kw)  # type: ignore[arg-type]
    for user in MEMBERS:
        await leagues.join_league(GUILD, "Bids", user, NAMES[user])


async def ai_game(
    service: Service,
    clock: FakeClock,
    a: int,
    b: int,
    *,
    channel: int = 1,
    options: dict[str, str] | None = None,
    levels: dict[int, str] | None = None,
) -> int:
    """A toy game between two players, both seats played to the end by their AI level."""
    levels = levels or LEVELS
    info = await service.create_game(
        guild_xid=GUILD, channel_xid=channel, kind="toy", options=options or {}, host_xid=a, host_name=NAMES.get(a, "P")
    )
    await service.join(info.id, b, NAMES.get(b, "Q"))
    await service.start(info.id, a)
    for seat, user in ((0, a), (1, b)):
        await service.play_for(info.id, seat, take_over=True, level=levels.get(user, "greedy"))
    while await service.play_ai(info.id) is not None:
        pass
    clock.advance(600)
    assert (await service.info(info.id)).game.status == "finished"
    return info.id


async def test_season_of_ai_games_rated_by_the_library(service: Service, community: App, clock: FakeClock) -> None:
    """24 seeded AI games between four members: the table's ratings are exactly openskill's
    Plackett-Luce ratings of the games' finishing orders, and the table is sorted by them."""
    await league_with_members(community.leagues)
    pairs = list(itertools.combinations(MEMBERS, 2)) * 4
    game_ids = [await ai_game(service, clock, a, b) for a, b in pairs]
    assert len(game_ids) >= 20
    table = await community.leagues.table(GUILD, "Bids")
    assert table.games == len(game_ids)

    model = PlackettLuce()
    expected = {u: model.rating() for u in MEMBERS}
    wins = dict.fromkeys(MEMBERS, 0)
    for gid in game_ids:  # in finishing order
        info = await service.info(gid)
        result = info.game.result
        assert result is not None
        users = [info.seats[s["seat"]].user_xid for s in result["seats"]]
        ranks = [s["rank"] for s in result["seats"]]
        new = model.rate([[expected[u]] for u in users], ranks=ranks)
        for u, team, r in zip(users, new, ranks):
            expected[u] = team[0]
            wins[u] += r == 1
    for s in table.standings:
        assert s.mu == pytest.approx(expected[s.user_xid].mu, abs=1e-9)
        assert s.sigma == pytest.approx(expected[s.user_xid].sigma, abs=1e-9)
        assert s.games == 12 and s.wins == wins[s.user_xid]
    ordinals = [s.ordinal for s in table.standings]
    assert ordinals == sorted(ordinals, reverse=True)
    assert [s.user_xid for s in table.standings] == sorted(
        MEMBERS, key=lambda u: -(expected[u].mu - 3 * expected[u].sigma)
    )


async def test_the_player_who_wins_every_game_tops_the_table(
    service: Service, community: App, clock: FakeClock
) -> None:
    """Ana bids 1, 3, 2 and so beats the greedy AI every time; the greedy members only draw among
    themselves. After 21 games Ana is first with the highest rating, and she has won every game."""
    await league_with_members(community.leagues)
    greedy = dict.fromkeys(MEMBERS, "greedy")
    played = 0
    for _ in range(3):
        for a, b in itertools.combinations(MEMBERS, 2):
            info = await service.create_game(
                guild_xid=GUILD, channel_xid=1, kind="toy", options={}, host_xid=a, host_name=NAMES[a]
            )
            await service.join(info.id, b, NAMES[b])
            await service.start(info.id, a)
            for seat, user in ((0, a), (1, b)):
                if user != ANA:
                    await service.play_for(info.id, seat, take_over=True, level="greedy")
            cards = iter((1, 3, 2))
            while (await service.info(info.id)).game.status == "active":
                if await service.play_ai(info.id) is None:
                    await bid(service, info.id, ANA, next(cards))
            clock.advance(600)
            played += 1
    for a, b in ((BEA, CEM), (CEM, DAN), (BEA, DAN)):
        await ai_game(service, clock, a, b, levels=greedy)
        played += 1
    assert played == 21
    table = await community.leagues.table(GUILD, "Bids")
    top = table.standings[0]
    assert top.user_xid == ANA and top.wins == top.games == 9
    assert all(top.ordinal > s.ordinal for s in table.standings[1:])
    profile = await community.leagues.profile(GUILD, "Bids", ANA)
    assert profile.position == 1 and len(profile.history) == 9 and {h["rank"] for h in profile.history} == {1}
    # The rating history ends where the table stands, and a player who wins every game only climbs.
    assert len(profile.ratings) == 9 and profile.ratings[-1] == pytest.approx(top.ordinal)
    assert all(b > a for a, b in zip(profile.ratings, profile.ratings[1:]))
    chart = rating_chart_png("Ana", profile.ratings, loc="en")
    with Image.open(io.BytesIO(chart)) as img:
        assert img.width >= 1000


async def beaten(service: Service, clock: FakeClock, winner: int, loser: int) -> int:
    """The winner bids 1, 3, 2 against the loser's seat played by the greedy AI: 2 rounds to 1."""
    info = await service.create_game(
        guild_xid=GUILD, channel_xid=1, kind="toy", options={}, host_xid=winner, host_name=NAMES[winner]
    )
    await service.join(info.id, loser, NAMES[loser])
    await service.start(info.id, winner)
    await service.play_for(info.id, 1, take_over=True, level="greedy")
    for card in (1, 3, 2):
        await bid(service, info.id, winner, card)
        await service.play_ai(info.id)
    clock.advance(600)
    result = (await service.info(info.id)).game.result
    assert result is not None and [s["rank"] for s in result["seats"]] == [1, 2]
    return info.id


async def test_unrated_league_ranks_by_wins(service: Service, community: App, clock: FakeClock) -> None:
    """Without ratings the table orders by wins, then average place, then games played."""
    await league_with_members(community.leagues, rated=False)
    await beaten(service, clock, CEM, DAN)
    await beaten(service, clock, CEM, DAN)
    await beaten(service, clock, BEA, ANA)
    table = await community.leagues.table(GUILD, "Bids")
    assert [(s.user_xid, s.wins, s.games) for s in table.standings] == [
        (CEM, 2, 2),
        (BEA, 1, 1),
        (DAN, 0, 2),
        (ANA, 0, 1),
    ]


async def test_what_counts(service: Service, community: App, clock: FakeClock) -> None:
    """Only finished games of the league's game between members count: not a guest's, not an AI's."""
    await league_with_members(community.leagues)
    await ai_game(service, clock, ANA, BEA)
    await ai_game(service, clock, ANA, 999)  # a guest who is not a member
    info = await service.create_game(
        guild_xid=GUILD, channel_xid=1, kind="toy", options={}, host_xid=ANA, host_name="Ana", ai_seats=1
    )
    await service.start(info.id, ANA)
    await service.resign(info.id, ANA)
    table = await community.leagues.table(GUILD, "Bids")
    assert table.games == 1


async def test_forfeits_and_abandons_follow_the_league_rules(
    service: Service, community: App, clock: FakeClock
) -> None:
    """A resignation is a loss (rule "loss") or not counted ("ignore"); an abandoned game is not
    counted ("ignore") or a shared place ("draw")."""
    await community.leagues.create_league(GUILD, "Strict", "toy", rated=True)
    await community.leagues.create_league(GUILD, "Lenient", "toy", rated=True, forfeits="ignore", abandoned="draw")
    for name in ("Strict", "Lenient"):
        for user in (ANA, BEA):
            await community.leagues.join_league(GUILD, name, user, NAMES[user])
    g1 = await service.create_game(
        guild_xid=GUILD, channel_xid=1, kind="toy", options={}, host_xid=ANA, host_name="Ana"
    )
    await service.join(g1.id, BEA, "Bea")
    await service.start(g1.id, ANA)
    await service.resign(g1.id, ANA)
    clock.advance(60)
    g2 = await service.create_game(
        guild_xid=GUILD, channel_xid=1, kind="toy", options={}, host_xid=ANA, host_name="Ana"
    )
    await service.join(g2.id, BEA, "Bea")
    await service.start(g2.id, ANA)
    await service.abandon(g2.id, ANA, is_admin=False)
    strict = await community.leagues.table(GUILD, "Strict")
    lenient = await community.leagues.table(GUILD, "Lenient")
    assert strict.games == 1 and [s.user_xid for s in strict.standings[:1]] == [BEA]
    assert next(s for s in strict.standings if s.user_xid == BEA).wins == 1
    assert lenient.games == 1
    assert {s.user_xid: s.wins for s in lenient.standings} == {ANA: 1, BEA: 1}


async def test_mode_and_seasons(service: Service, community: App, clock: FakeClock) -> None:
    """A league for the "fast" mode ignores normal games; a new season starts from zero."""
    await league_with_members(community.leagues, mode="fast")
    await ai_game(service, clock, ANA, BEA)
    await ai_game(service, clock, ANA, BEA, options={"speed": "fast"})
    assert (await community.leagues.table(GUILD, "Bids")).games == 1
    season = await community.leagues.new_season(GUILD, "Bids", 30)
    assert season.number == 2
    await ai_game(service, clock, CEM, DAN, options={"speed": "fast"})
    now = await community.leagues.table(GUILD, "Bids")
    assert now.season.number == 2 and now.games == 1
    assert (await community.leagues.table(GUILD, "Bids", 1)).games == 1


async def test_missed_games_are_caught_up(service: Service, clock: FakeClock) -> None:
    """A game that ended while no league listener ran is counted when the table is shown."""
    quiet = Leagues(service, LeagueStore(service._store))  # built outside the root: never subscribed
    await league_with_members(quiet)
    await ai_game(service, clock, ANA, BEA)
    assert (await quiet.table(GUILD, "Bids")).games == 1


async def test_league_commands_refuse_with_sentences(community: App) -> None:
    """Unknown game mode, duplicate name, joining twice, unknown league: each a sentence."""
    with pytest.raises(CommunityError) as err:
        await community.leagues.create_league(GUILD, "X", "toy", mode="warp")
    assert err.value.key == "community.error.bad_mode"
    await community.leagues.create_league(GUILD, "X", "toy")
    with pytest.raises(CommunityError) as err:
        await community.leagues.create_league(GUILD, "x", "toy")
    assert err.value.key == "community.error.league_exists"
    await community.leagues.join_league(GUILD, "X", ANA, "Ana")
    with pytest.raises(CommunityError):
        await community.leagues.join_league(GUILD, "X", ANA, "Ana")
    with pytest.raises(CommunityError) as err:
        await community.leagues.table(GUILD, "Nope")
    assert err.value.key == "community.error.no_league"


async def test_leaving_does_not_change_the_others_ratings(service: Service, community: App, clock: FakeClock) -> None:
    """Bea leaves after losing to Cem: she is no longer listed, Cem keeps the rating he earned."""
    await league_with_members(community.leagues)
    await beaten(service, clock, CEM, BEA)
    before = {s.user_xid: s.mu for s in (await community.leagues.table(GUILD, "Bids")).standings}
    await community.leagues.leave_league(GUILD, "Bids", BEA)
    after = {s.user_xid: s.mu for s in (await community.leagues.table(GUILD, "Bids")).standings}
    assert BEA not in after and after[CEM] == before[CEM] > 25
