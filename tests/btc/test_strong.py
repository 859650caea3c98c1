"""The strong AI: legal, deterministic, and blind to what its seat cannot see (issue 16)."""

from __future__ import annotations

import random

import pytest

from bot.rules import core
from bot.rules.btc import engine as E
from bot.rules.btc import scoring, strong, views
from bot.rules.btc import tiles as T
from bot.rules.btc.rules import RULES
from bot.rules.btc.state import BtcState

from .helpers import ai_policy, new, play

CONFIGS = [("standard", 3), ("standard", 4), ("standard", 7), ("two_player", 2), ("solo_simple", 1), ("solo_full", 1)]


def hidden_tiles(state: BtcState, seat: int) -> list[int]:
    """Tile numbers whose kind ``seat`` may not know (spec D-1, D-12): other players' hands,
    choices and handed-on tiles (solo: the Automas' hands lie open), the bag, the duplex stack and
    the discards."""
    out = list(range(state.next_single, len(T.SINGLE_POOL)))
    out += range(state.next_duplex, len(state.tiles))
    out += state.discard
    for i, p in enumerate(state.players):
        if i != seat and not (E.is_solo(state) and i > 0):
            out += p.hand + p.choice + p.outgoing
    return sorted(set(out))


def reshuffled(state: BtcState, seat: int, seed: int) -> BtcState:
    """The same game as ``seat`` sees it, with every hidden tile's kind dealt again at random
    (singles among singles, duplexes among duplexes) and the Automa deck reshuffled."""
    alt = state.clone()
    kinds = list(alt.tiles)
    rnd = random.Random(seed)
    for pool in (range(len(T.SINGLE_POOL)), range(len(T.SINGLE_POOL), len(kinds))):
        numbers = [t for t in hidden_tiles(state, seat) if t in pool]
        dealt = [kinds[t] for t in numbers]
        rnd.shuffle(dealt)
        for t, kind in zip(numbers, dealt, strict=True):
            kinds[t] = kind
    alt.tiles = tuple(kinds)
    rnd.shuffle(alt.deck)
    return alt


def positions(mode: str, seats: int, seed: int, every: int):
    """(state, seat) pairs along a game played by greedy seats, one in ``every`` decisions."""
    state = new(mode, seats, seed)
    n = 0
    while not RULES.is_over(state):
        seat = sorted(RULES.awaiting(state))[n % len(RULES.awaiting(state))]
        if n % every == 0:
            yield state, seat
        state = RULES.apply(state, seat, RULES.ai_move(state, seat, "greedy", n))
        n += 1


def finished_game() -> BtcState:
    """A 4-seat game played to its end by greedy seats: every city full."""
    return play(new("standard", 4, 5), ai_policy("greedy"))


SINGLE_FACES = sorted({k.faces[0] for k in T.KINDS.values() if k.shape == T.SINGLE})


def random_layout(rnd: random.Random, size: int) -> dict[core.Cell, str]:
    """A legal city of ``size`` single buildings drawn at random."""
    from bot.rules.btc import geometry as G

    faces: dict[core.Cell, str] = {}
    for _ in range(size):
        faces[rnd.choice(G.anchors(faces.keys(), G.SINGLE_SHAPE))] = rnd.choice(SINGLE_FACES)
    return faces


@pytest.mark.parametrize("mode, seats", CONFIGS)
def test_strong_decides_the_same_whatever_the_hidden_tiles(mode, seats):
    """Replacing the hidden tiles by any other deal consistent with the seat's view (and, solo Full,
    another Automa deck order) never changes the strong AI's move: it plays from what it may see."""
    changed = 0
    for k, (state, seat) in enumerate(positions(mode, seats, seed=40 + seats, every=5)):
        alt = reshuffled(state, seat, seed=k)
        assert views.view(alt, seat) == views.view(state, seat)  # the seat cannot tell them apart
        changed += alt.tiles != state.tiles
        seed = core.derive_seed(7, k)
        assert RULES.ai_move(alt, seat, "strong", seed) == RULES.ai_move(state, seat, "strong", seed), (mode, k)
    assert changed >= 3  # the hidden state really was different


def test_strong_ignores_a_hand_it_has_not_seen():
    """A direct case: the next player's hand is swapped for tiles from the bag; the commit is the same."""
    state = new("standard", 4, 3)
    seat = 0
    move = RULES.ai_move(state, seat, "strong", 5)
    alt = state.clone()
    kinds = list(alt.tiles)
    other = alt.players[1].hand
    bag = list(range(alt.next_single, alt.next_single + len(other)))
    for a, b in zip(other, bag, strict=True):
        kinds[a], kinds[b] = kinds[b], kinds[a]
    alt.tiles = tuple(kinds)
    assert [alt.tiles[t] for t in other] != [state.tiles[t] for t in other]
    assert RULES.ai_move(alt, seat, "strong", 5) == move


@pytest.mark.parametrize("mode, seats", CONFIGS)
def test_strong_plays_whole_games_legally_and_deterministically(mode, seats):
    """Strong seats finish a game of every mode with legal moves, the same game twice from one seed."""

    def game() -> list[core.Move]:
        state = new(mode, seats, 11)
        moves = []
        n = 0
        while not RULES.is_over(state):
            seat = sorted(RULES.awaiting(state))[0]
            move = RULES.ai_move(state, seat, "strong", core.derive_seed(11, n))
            assert move in RULES.legal_moves(state, seat)
            state = RULES.apply(state, seat, move)
            moves.append(move)
            n += 1
        return moves

    assert game() == game()


def test_strong_is_an_offered_level_and_the_last_one():
    """The levels are random, greedy and strong; the service gives new AI seats the last (strongest)."""
    assert RULES.ai_levels == ("random", "greedy", "strong")
    with pytest.raises(core.IllegalMove):
        RULES.ai_move(new(), 0, "grandmaster", 1)


def test_strong_beats_random_with_two_players():
    """A seeded two-player game: every placement of the strong seat grows a city, and it wins."""
    state = new("two_player", 2, 5)
    n = 0
    while not RULES.is_over(state):
        seat = sorted(RULES.awaiting(state))[0]
        move = RULES.ai_move(state, seat, "strong" if seat == 0 else "random", n)
        after = RULES.apply(state, seat, move)
        if seat == 0 and move["kind"] in ("place", "turned"):
            assert after.cities[move["city"]].size() > state.cities[move["city"]].size()
        state = after
        n += 1
    result = RULES.result(state)
    assert result.seats[0].total > result.seats[1].total


def test_gain_of_one_more_building_is_the_score_difference():
    """The strong AI's fast scoring of one more building equals the rules' scoring of the city with
    it, and its best cell per building is the best over every open cell (random layouts)."""
    rnd = random.Random(4)
    faces_pool = SINGLE_FACES
    for _ in range(300):
        faces = random_layout(rnd, rnd.randrange(15))
        model = strong.CityModel(faces)
        best = model.best_gains()
        for face in faces_pool:
            gains = []
            for cell in model.open:
                after = {**faces, cell: face}
                gains.append(scoring.total(scoring.score_grid(after, 0)) - model.base)
                assert model.gain(face, cell) == gains[-1]
            assert best[face] == max(gains)


def test_strong_lets_its_partner_place_first_in_a_shared_city():
    """Four players: whenever the strong seat and its partner both still have a tile for their shared
    city, the strong seat asks the partner to go first, so it sees where the partner's tile lands."""
    asked = 0
    for state, seat in positions("standard", 4, seed=9, every=1):
        moves = RULES.legal_moves(state, seat)
        if any(m["kind"] == "you_first" for m in moves):
            move = RULES.ai_move(state, seat, "strong", 3)
            assert move["kind"] == "you_first", move
            asked += 1
    assert asked >= 5


def test_partner_gain_is_the_average_gain_over_the_open_cells():
    """The strong AI's expected gain of a tile its partner lays at random is, for every building, the
    rules' score of the city with it on each open cell, averaged over the open cells (random layouts;
    it counts a factory beside lonely houses and a house beside a factory as losses)."""
    rnd = random.Random(8)
    faces_pool = SINGLE_FACES
    losses = 0
    for _ in range(300):
        faces = random_layout(rnd, 1 + rnd.randrange(14))
        model = strong.CityModel(faces)
        means = model.mean_gains()
        for face in faces_pool:
            gains = [scoring.total(scoring.score_grid({**faces, c: face}, 0)) - model.base for c in model.open]
            assert means[face] == pytest.approx(sum(gains) / len(gains)), (faces, face)
            losses += min(gains) < 0
    assert losses >= 20


def test_a_city_grown_in_a_rollout_is_the_same_as_one_built_from_scratch():
    """The rollouts copy a city and grow it one building at a time, keeping its open cells and its
    houses without a factory beside them up to date instead of recomputing them. After every
    building, the grown copy offers the same cells and the same best cell and gain for every building
    as the same layout built from scratch, and the city it was copied from is unchanged."""
    rnd = random.Random(12)
    faces_pool = SINGLE_FACES
    for _ in range(150):
        faces = random_layout(rnd, rnd.randrange(8))
        original = strong.CityModel(faces, scored=False)
        original.lonely()  # so the copy inherits a list to keep up to date
        grown = original.copy()
        layout = dict(faces)
        while grown.open:
            cell, face = rnd.choice(grown.open), rnd.choice(faces_pool)
            grown.add(cell, face)
            layout[cell] = face
            fresh = strong.CityModel(layout, scored=False)
            assert grown.open == fresh.open
            assert grown.lonely() == fresh.lonely()
            if fresh.open:
                assert {f: grown.best_for(f) for f in faces_pool} == {f: fresh.best_for(f) for f in faces_pool}
        again = strong.CityModel(faces, scored=False)
        assert original.faces == faces
        assert original.open == again.open
        if faces:
            assert {f: original.best_for(f) for f in faces_pool} == {f: again.best_for(f) for f in faces_pool}
        assert len(layout) == 16


def test_against_a_neighbour_only_the_cities_they_do_not_share_decide():
    """The shared city is the lower one of both this seat and its neighbour, so the rules rank them
    by their higher cities (8.8): the strong AI's chance to finish first is high when its other city
    ends above the neighbour's other city and low when below, not a coin flip either way."""
    state = RULES.setup({"mode": "standard"}, 4, 5)
    pl = strong.Planner(state, 0)
    shared, mine = pl.cities
    neighbour = E.partner(state, 0, shared)
    assert neighbour is not None
    theirs = next(c for c in E.cities_of(state, neighbour) if c != shared)
    rest = [c for c in range(4) if c not in (shared, mine, theirs)]

    def chance(their_other: float) -> float:
        final = {theirs: their_other, **dict.fromkeys(rest, 0.0)}  # the other rivals lag far behind
        for c, value in final.items():  # projected as points now plus RATE per empty cell
            pl.others[c] = value - strong.RATE * (strong.FULL - state.cities[c].size())
        bonus = strong.SCORE_WEIGHT * (strong.LOWER_WEIGHT * 40.0 + 50.0)  # the small score term on top
        return pl.win_chance({shared: 40.0, mine: 50.0}, [0] * 4, final=True) - bonus

    above, below = chance(41.0), chance(59.0)
    assert above > 0.75 and below < 0.25


def test_a_rollout_scores_the_factories_it_adds_once():
    """A rollout fills a city to the end and reports the points its buildings brought, the factories'
    points aside (those are scored once, from the final majority): the rules' score of the filled city
    without factory points, minus the score it started from, however many factories went in."""
    state = RULES.setup({"mode": "standard"}, 4, 5)
    pl = strong.Planner(state, 0)
    city = pl.cities[0]
    rnd = random.Random(3)
    factories = 0
    for _ in range(60):
        faces = random_layout(rnd, 6 + rnd.randrange(8))
        grown = strong.CityModel(faces, scored=False)
        n = strong.FULL
        draws = (
            [[rnd.choice(SINGLE_FACES) for _ in range(strong.CHOICES)] for _ in range(n)],
            [rnd.choice(SINGLE_FACES) for _ in range(n)],
            [rnd.random() for _ in range(n)],
            [rnd.random() for _ in range(n)],
        )
        gained, added = strong._simulate(pl, city, grown, draws, 0)
        assert len(grown.faces) == strong.FULL
        assert gained == pytest.approx(
            scoring.total(scoring.score_grid(grown.faces, 0)) - scoring.total(scoring.score_grid(faces, 0))
        )
        assert added == sum(1 for f in grown.faces.values() if f == "FACTORY") - sum(
            1 for f in faces.values() if f == "FACTORY"
        )
        factories += added
    assert factories >= 20


def test_factories_are_worth_what_the_majority_will_pay_at_the_end():
    """With every city still to be filled, the strong AI values a city's factories by the majority
    expected at the end, not the one of the moment (the other cities will build factories too): the
    game's only factory is worth less than the 4 points the majority pays now, but more than second
    place's 3, and more the further ahead its city is; a factory in a city one behind three others is
    worth less than the 3 points second place pays now. When every city is full, it values factories
    exactly as the rules pay them (8.2)."""
    state = RULES.setup({"mode": "standard"}, 4, 5)
    pl = strong.Planner(state, 0)
    city = pl.cities[0]

    def counts(mine: int, others: int) -> list[int]:
        return [mine if c == city else others for c in range(4)]

    early = pl.per_factory(city, counts(1, 0))
    assert scoring.per_factory(1, counts(1, 0)) == 4
    assert 3.0 < early < 3.8
    assert early < pl.per_factory(city, counts(3, 0)) < pl.per_factory(city, counts(5, 0)) <= 4.0
    assert scoring.per_factory(1, counts(1, 2)) == 3
    assert pl.per_factory(city, counts(1, 2)) < 2.8
    full = strong.Planner(finished_game(), 0)
    rnd = random.Random(4)
    for _ in range(200):
        now = [rnd.randrange(6) for _ in range(4)]
        for c in range(4):
            assert full.per_factory(c, now) == scoring.per_factory(now[c], now)


def test_a_factory_that_takes_the_majority_is_worth_what_it_raises():
    """When every city is full, a factory that lifts its city from second place (3 points a factory)
    to a share of the majority (4 points a factory) brings 4 points for itself and 1 more for each of
    the city's other factories; one that changes no place brings what the place pays."""
    pl = strong.Planner(finished_game(), 0)
    city = pl.cities[0]
    pl.counts = [3 if c != city else 2 for c in range(4)]
    assert pl.factory_value(city) == 3 * 4 - 2 * 3
    pl.counts = [5 if c != city else 2 for c in range(4)]
    assert pl.factory_value(city) == 3 * 3 - 2 * 3
