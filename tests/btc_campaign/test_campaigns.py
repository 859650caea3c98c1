"""Campaigns without Discord: starting, the next game's options, counting finished games (spec
10.10, D-22, D-23, D-24), forfeits, reconciliation after a missed listener, and a restart."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from bot import errors, i18n, store
from bot.btc_campaigns import CampaignError, Campaigns, Recorded, game_options, used_option
from bot.composition import compose
from bot.rules.btc import engine as E
from bot.rules.btc.rules import RULES
from bot.service import Service
from tests.btc_campaign.helpers import ALICE, BOB, CHANNEL, GUILD, bonus_moves, open_and_start, play_game, play_to_bonus
from tests.conftest import FakeClock


async def game_result(service: Service, game_id: int) -> dict[str, Any]:
    info = await service.info(game_id)
    assert info.game.status == "finished"
    assert info.game.result is not None
    return info.game.result


# -- starting -------------------------------------------------------------------------------------


async def test_start_creates_a_running_campaign(campaigns: Campaigns) -> None:
    """A new campaign keeps length, difficulty and mode, with game 1 next and nothing used."""
    c = await campaigns.start(ALICE, length=3, difficulty=2, mode="simple", guild_xid=GUILD)
    assert (c.length, c.difficulty, c.mode, c.status) == (3, 2, "solo_simple", "running")
    assert (c.next_game, c.used, c.total, c.game_id) == (1, "", 0, None)


async def test_start_refuses_a_second_running_campaign(campaigns: Campaigns) -> None:
    """One running campaign per player (D-24); another player may start their own."""
    await campaigns.start(ALICE, length=3, difficulty=4, mode="full")
    with pytest.raises(CampaignError) as exc:
        await campaigns.start(ALICE, length=6, difficulty=4, mode="full")
    assert exc.value.key == "btc.campaign.error.running"
    assert exc.value.params == {"game": 1, "length": 3}
    assert (await campaigns.start(BOB, length=6, difficulty=4, mode="full")).length == 6


@pytest.mark.parametrize(
    ("kwargs", "key"),
    [
        ({"length": 4, "difficulty": 4, "mode": "full"}, "btc.campaign.error.length"),
        ({"length": 3, "difficulty": 0, "mode": "full"}, "btc.campaign.error.difficulty"),
        ({"length": 3, "difficulty": 8, "mode": "full"}, "btc.campaign.error.difficulty"),
        ({"length": 3, "difficulty": 4, "mode": "standard"}, "btc.campaign.error.mode"),
    ],
)
async def test_start_refuses_bad_settings(campaigns: Campaigns, kwargs: dict[str, Any], key: str) -> None:
    """10.10: 3 or 6 games (long campaign), difficulty 1-7 (10.9), Simple or Full mode only."""
    with pytest.raises(CampaignError) as exc:
        await campaigns.start(ALICE, **kwargs)
    assert exc.value.key == key
    assert await campaigns.db.running(ALICE) is None


# -- the next game --------------------------------------------------------------------------------


async def test_next_game_has_the_campaign_options(campaigns: Campaigns) -> None:
    """The next game is a solo lobby with the campaign's mode, difficulty, game number and used types."""
    await campaigns.start(ALICE, length=6, difficulty=3, mode="full", guild_xid=GUILD)
    campaign, info = await campaigns.open_next(ALICE, "alice", guild_xid=GUILD, channel_xid=CHANNEL)
    assert info.game.options == {
        "mode": "solo_full",
        "difficulty": "3",
        "campaign": "6",
        "campaign_game": "1",
        "campaign_used": "-",
    }
    assert info.game.status == "lobby" and info.game.channel_xid == CHANNEL
    assert [(s.user_xid, s.is_ai) for s in info.seats] == [(ALICE, False)]
    assert (campaign.game_id, campaign.game_channel_xid) == (info.id, CHANNEL)
    assert await campaigns.campaign_of_game(info.id) == campaign


async def test_next_refused_while_the_game_is_open(campaigns: Campaigns) -> None:
    """A campaign has one game open at a time; the refusal says where it is."""
    await campaigns.start(ALICE, length=3, difficulty=4, mode="full")
    _, info = await campaigns.open_next(ALICE, "alice", guild_xid=GUILD, channel_xid=CHANNEL)
    with pytest.raises(CampaignError) as exc:
        await campaigns.open_next(ALICE, "alice", guild_xid=GUILD, channel_xid=CHANNEL + 1)
    assert exc.value.key == "btc.campaign.error.game_open"
    assert exc.value.params == {"game": info.id, "channel": f"<#{CHANNEL}>"}


async def test_next_refused_without_a_campaign(campaigns: Campaigns) -> None:
    """No campaign: a sentence pointing at /btc campaign start."""
    with pytest.raises(CampaignError) as exc:
        await campaigns.open_next(ALICE, "alice", guild_xid=GUILD, channel_xid=CHANNEL)
    assert exc.value.key == "btc.campaign.error.none"
    with pytest.raises(CampaignError):
        await campaigns.status(ALICE)


async def test_next_in_a_busy_channel_is_refused_and_nothing_attached(campaigns: Campaigns) -> None:
    """The channel's own live game stays; the campaign keeps no game."""
    service = campaigns.service
    await service.create_game(
        guild_xid=GUILD, channel_xid=CHANNEL, kind="btc", options={}, host_xid=BOB, host_name="bob"
    )
    await campaigns.start(ALICE, length=3, difficulty=4, mode="full")
    with pytest.raises(errors.ChannelBusy):
        await campaigns.open_next(ALICE, "alice", guild_xid=GUILD, channel_xid=CHANNEL)
    running = await campaigns.running(ALICE)
    assert running is not None and running.game_id is None


def test_used_types_become_the_rules_option_in_reference_order() -> None:
    """Types used in game order (parks, then shops) are the rules' option "SP"; none is "-"."""
    assert used_option("PS") == "SP"
    assert used_option("") == E.NO_TYPES
    assert used_option("HOFPST") == "SFTOPH"
    options = RULES.normalise_options(
        {"mode": "solo_full", "campaign": "3", "campaign_game": "3", "campaign_used": used_option("PS")}
    )
    assert options["campaign_used"] == "SP"


# -- counting a finished game (10.10) -----------------------------------------------------------


async def test_10_10_finished_game_advances_the_record(campaigns: Campaigns) -> None:
    """CP = the lower city's score; the bonus is the chosen category of that city, doubled if won
    (D-22: ranked first); game 2 is next with that type used."""
    announced: list[Recorded] = []

    async def listen(rec: Recorded) -> None:
        announced.append(rec)

    campaigns.recorded_listeners.append(listen)
    await campaigns.start(ALICE, length=3, difficulty=4, mode="full")
    game_id = await play_game(campaigns, "parks")
    result = await game_result(campaigns.service, game_id)
    seat = result["seats"][0]
    cities = {c["city"]: c for c in result["details"]["cities"]}
    left, right = cities[E.LEFT_CITY]["total"], cities[E.RIGHT_CITY]["total"]
    won = seat["rank"] == 1
    state = await campaigns.status(ALICE)
    assert len(state.games) == 1
    g = state.games[0]
    assert (g.number, g.game_id, g.outcome, g.bonus_type) == (1, game_id, "played", "parks")
    assert g.score == g.points == min(left, right) == seat["total"]
    assert cities[g.bonus_city]["total"] == min(left, right)
    assert g.bonus == cities[g.bonus_city]["categories"]["parks"] * (2 if won else 1)
    assert g.won is won and g.rank == seat["rank"]
    assert g.total == g.points + g.bonus
    assert sorted(i18n.resolve(a["name"]) for a in g.automas) == ["Automarta", "Autommaso"]
    c = state.campaign
    assert (c.next_game, c.used, c.total, c.game_id, c.status) == (2, "P", g.total, None, "running")
    assert state.used_types == ["parks"] and "parks" not in state.types_left
    assert [r.game for r in announced] == [g] and not announced[0].complete


async def test_10_10_each_type_once_per_campaign(campaigns: Campaigns) -> None:
    """Game 2 is dealt with the used type in its options and no longer offers it as a bonus."""
    await campaigns.start(ALICE, length=3, difficulty=4, mode="simple")
    await play_game(campaigns, "houses")
    campaign = await campaigns.running(ALICE)
    assert campaign is not None
    assert game_options(campaign)["campaign_used"] == "H"
    game_id = await open_and_start(campaigns)
    info = await campaigns.service.info(game_id)
    assert info.game.options["campaign_game"] == "2" and info.game.options["campaign_used"] == "H"
    await play_to_bonus(campaigns.service, game_id)
    offered = {m["type"] for m in await bonus_moves(campaigns.service, game_id)}
    assert offered == {"shops", "factories", "taverns", "offices", "parks"}


async def test_10_10_three_games_complete_the_campaign(campaigns: Campaigns) -> None:
    """After the third game the campaign is complete; its outcome is the total CP of the games."""
    await campaigns.start(ALICE, length=3, difficulty=4, mode="simple")
    for bonus in ("shops", "taverns", "offices"):
        await play_game(campaigns, bonus)
    state = await campaigns.status(ALICE)
    c = state.campaign
    assert c.status == "complete" and c.ended_at is not None
    assert c.next_game == 4 and c.used == "STO"
    assert c.total == sum(g.total for g in state.games)
    assert [g.number for g in state.games] == [1, 2, 3]
    assert state.best_before is None and state.open_game is None
    with pytest.raises(CampaignError) as exc:
        await campaigns.open_next(ALICE, "alice", guild_xid=GUILD, channel_xid=CHANNEL)
    assert exc.value.key == "btc.campaign.error.complete"
    assert exc.value.params == {"total": c.total, "length": 3}


async def test_10_10_compare_with_earlier_campaigns(campaigns: Campaigns) -> None:
    """A second complete campaign of the same kind is compared with the first (best earlier total)."""
    announced: list[Recorded] = []

    async def listen(rec: Recorded) -> None:
        announced.append(rec)

    campaigns.recorded_listeners.append(listen)
    first_total = 0
    for _ in range(2):
        await campaigns.start(ALICE, length=3, difficulty=4, mode="simple")
        for _game in range(3):
            await play_game(campaigns, level="random")
        state = await campaigns.status(ALICE)
        first_total = first_total or state.campaign.total
    assert announced[2].complete and announced[2].best_before is None
    assert announced[5].complete and announced[5].best_before == first_total
    assert (await campaigns.status(ALICE)).best_before == first_total
    other = await campaigns.db.best_total(ALICE, length=3, mode="solo_simple", difficulty=5)
    assert other is None, "only campaigns of the same difficulty are compared"


async def test_10_10_long_campaign_uses_each_type_exactly_once(campaigns: Campaigns) -> None:
    """Six games, each of the six types used exactly once; the last game offers only the last type."""
    await campaigns.start(ALICE, length=6, difficulty=4, mode="simple")
    for number in range(1, 7):
        if number < 6:
            await play_game(campaigns, level="random")
            continue
        game_id = await open_and_start(campaigns)
        await play_to_bonus(campaigns.service, game_id, level="random")
        offered = {m["type"] for m in await bonus_moves(campaigns.service, game_id)}
        assert len(offered) == 1
        await campaigns.service.move(game_id, ALICE, (await bonus_moves(campaigns.service, game_id))[0])
    state = await campaigns.status(ALICE)
    assert state.campaign.status == "complete"
    assert sorted(state.campaign.used) == sorted(E.TYPE_LETTERS)
    assert sorted(g.bonus_type for g in state.games) == sorted(E.LETTER_CATEGORY.values())


async def test_bonus_doubled_only_when_won(campaigns: Campaigns) -> None:
    """10.10: doubled if you won; over easy and hard games both cases occur and each matches."""
    seen: set[bool] = set()
    for difficulty in (1, 7, 1, 7):
        await campaigns.start(ALICE, length=3, difficulty=difficulty, mode="full")
        for _ in range(3):
            game_id = await play_game(campaigns, level="greedy")
            result = await game_result(campaigns.service, game_id)
            summary = result["seats"][0]["details"]["campaign"]
            cities = {c["city"]: c for c in result["details"]["cities"]}
            g = (await campaigns.status(ALICE)).games[-1]
            base = cities[g.bonus_city]["categories"][g.bonus_type]
            assert g.bonus == base * (2 if g.won else 1) == summary["bonus"]
            seen.add(g.won)
            if len(seen) == 2:
                return
    pytest.fail(f"only {seen} happened in four campaigns at difficulty 1 and 7")


# -- games that end without their bonus -----------------------------------------------------------


async def test_resigned_game_is_a_lost_game_with_zero_points(campaigns: Campaigns) -> None:
    """Decision: a started game resigned counts as played and lost, 0 CP, using up the first unused
    type (reference order) for 0 points."""
    await campaigns.start(ALICE, length=3, difficulty=4, mode="full")
    await play_game(campaigns, "shops")
    game_id = await open_and_start(campaigns)
    snap = await campaigns.service.snapshot(game_id)
    await campaigns.service.move(game_id, ALICE, RULES.ai_move(snap.state, 0, "random", 1))
    await campaigns.service.resign(game_id, ALICE)
    state = await campaigns.status(ALICE)
    g = state.games[-1]
    assert (g.number, g.outcome, g.points, g.bonus, g.total, g.won) == (2, "forfeit", 0, 0, 0, False)
    assert g.bonus_type == "factories" and g.bonus_city is None
    assert state.campaign.used == "SF" and state.campaign.next_game == 3
    assert state.campaign.total == state.games[0].total


async def test_abandoned_started_game_is_forfeited(campaigns: Campaigns) -> None:
    """Decision: /game abandon after the start counts like a resignation (no free re-deal)."""
    await campaigns.start(ALICE, length=3, difficulty=4, mode="simple")
    game_id = await open_and_start(campaigns)
    await campaigns.service.abandon(game_id, ALICE, is_admin=False)
    state = await campaigns.status(ALICE)
    assert [(g.outcome, g.bonus_type, g.total) for g in state.games] == [("forfeit", "shops", 0)]
    assert state.campaign.next_game == 2 and state.campaign.used == "S"


async def test_lobby_closed_before_the_start_does_not_count(campaigns: Campaigns) -> None:
    """A lobby abandoned before the game started does not count; the same game can be opened again."""
    await campaigns.start(ALICE, length=3, difficulty=4, mode="full")
    _, info = await campaigns.open_next(ALICE, "alice", guild_xid=GUILD, channel_xid=CHANNEL)
    await campaigns.service.abandon(info.id, ALICE, is_admin=False)
    campaign = await campaigns.running(ALICE)
    assert campaign is not None and (campaign.next_game, campaign.game_id, campaign.used) == (1, None, "")
    _, again = await campaigns.open_next(ALICE, "alice", guild_xid=GUILD, channel_xid=CHANNEL)
    assert again.game.options["campaign_game"] == "1"


async def test_lobby_left_is_noticed_without_a_listener(campaigns: Campaigns) -> None:
    """Leaving the lobby closes it without an end notice; the next command sees it and reopens."""
    await campaigns.start(ALICE, length=3, difficulty=4, mode="full")
    _, info = await campaigns.open_next(ALICE, "alice", guild_xid=GUILD, channel_xid=CHANNEL)
    await campaigns.service.leave(info.id, ALICE)
    assert (await campaigns.service.info(info.id)).game.status == "abandoned"
    state = await campaigns.status(ALICE)
    assert state.open_game is None and state.games == []
    _, again = await campaigns.open_next(ALICE, "alice", guild_xid=GUILD, channel_xid=CHANNEL)
    assert again.id != info.id


async def test_abandoning_the_campaign_stops_its_game_uncounted(campaigns: Campaigns) -> None:
    """/btc campaign abandon ends the campaign with the games so far; its live game is stopped."""
    await campaigns.start(ALICE, length=3, difficulty=4, mode="simple")
    await play_game(campaigns, "parks")
    game_id = await open_and_start(campaigns)
    campaign, stopped = await campaigns.abandon(ALICE)
    assert campaign.status == "abandoned" and campaign.ended_at is not None
    assert stopped is not None and stopped.id == game_id and stopped.game.status == "abandoned"
    state = await campaigns.status(ALICE)
    assert len(state.games) == 1 and state.campaign.next_game == 2
    with pytest.raises(CampaignError) as exc:
        await campaigns.abandon(ALICE)
    assert exc.value.key == "btc.campaign.error.none"
    assert (await campaigns.start(ALICE, length=3, difficulty=4, mode="full")).status == "running"


async def test_a_game_no_longer_the_owners_is_not_counted(campaigns: Campaigns) -> None:
    """If the seat no longer belongs to the campaign's player (data forgotten), nothing is credited."""
    await campaigns.start(ALICE, length=3, difficulty=4, mode="full")
    game_id = await open_and_start(campaigns)
    await campaigns.service._store.delete_user_data(ALICE, replacement_name="someone")
    await campaigns.service.abandon(game_id, BOB, is_admin=True)
    state = await campaigns.status(ALICE)
    assert state.games == [] and state.campaign.game_id is None and state.campaign.next_game == 1


# -- robustness -----------------------------------------------------------------------------------


async def test_a_missed_end_is_counted_once_on_resume(campaigns: Campaigns) -> None:
    """The process stopped before the listener ran: resume counts the game, and a late listener
    call does not count it twice."""
    service = campaigns.service
    await campaigns.start(ALICE, length=3, difficulty=4, mode="simple")
    service.end_listeners.remove(campaigns.on_end)
    game_id = await play_game(campaigns, "taverns")
    assert (await campaigns.db.running(ALICE)).game_id == game_id  # type: ignore[union-attr]
    assert await campaigns.resume() == 1
    await campaigns.on_end(await service.info(game_id))
    state = await campaigns.status(ALICE)
    assert [g.game_id for g in state.games] == [game_id]
    assert state.campaign.next_game == 2 and state.campaign.used == "T"


async def test_the_record_survives_a_restart(database: str | Path, clock: FakeClock) -> None:
    """D-24: the record is in the store: a new process sees the same campaign and carries it on."""
    db = await store.Store.open(database)
    seeds = iter(range(50, 500))
    campaigns = compose(Service(db, clock, seed_source=lambda: next(seeds))).campaigns
    await campaigns.start(ALICE, length=3, difficulty=5, mode="full")
    await play_game(campaigns, "offices")
    before = await campaigns.status(ALICE)
    await db.close()
    db = await store.Store.open(database)
    try:
        again = compose(Service(db, clock, seed_source=lambda: next(seeds))).campaigns
        after = await again.status(ALICE)
        assert after == before
        _, info = await again.open_next(ALICE, "alice", guild_xid=GUILD, channel_xid=CHANNEL)
        assert info.game.options["campaign_game"] == "2" and info.game.options["campaign_used"] == "O"
    finally:
        await db.close()


async def test_status_of_an_ended_campaign(campaigns: Campaigns) -> None:
    """With nothing running, status shows the campaign that ended last."""
    await campaigns.start(ALICE, length=3, difficulty=4, mode="full")
    await campaigns.abandon(ALICE)
    state = await campaigns.status(ALICE)
    assert state.campaign.status == "abandoned" and state.open_game is None


async def test_forget_user_forgets_campaigns(campaigns: Campaigns) -> None:
    """A privacy request removes the player's campaigns and their games' records (one campaign
    and its one counted game: two records)."""
    await campaigns.start(ALICE, length=3, difficulty=4, mode="simple")
    await play_game(campaigns)
    campaign = await campaigns.db.latest(ALICE)
    assert campaign is not None
    assert await campaigns.forget_user(ALICE) == 2
    assert await campaigns.db.latest(ALICE) is None
    assert await campaigns.db.games(campaign.id) == []
