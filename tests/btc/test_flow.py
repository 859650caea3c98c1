"""The 3-7 player draft (section 5), secrecy and pipelining (D-1 … D-4), you-first (D-3), and the
2-player variant (section 9)."""

from __future__ import annotations

import pytest

from bot.i18n import resolve, t
from bot.rules import core
from bot.rules.btc import engine as E
from bot.rules.btc import scoring
from bot.rules.btc import tiles as T
from bot.rules.btc.rules import RULES
from bot.rules.btc.state import FREE, BtcState
from tests.btc.helpers import ai_policy, check_finished, first_legal, new, play


def commit_all(state: BtcState, skip: tuple[int, ...] = ()) -> BtcState:
    for seat in range(state.seats):
        if seat not in skip:
            state = RULES.apply(state, seat, RULES.legal_moves(state, seat)[0])
    return state


def place_all(state: BtcState, seat: int) -> BtcState:
    while state.players[seat].pending:
        move = next(m for m in RULES.legal_moves(state, seat) if m["kind"] in ("place", "turned"))
        state = RULES.apply(state, seat, move)
    return state


def finish_turn(state: BtcState) -> BtcState:
    for seat in range(state.seats):
        state = place_all(state, seat)
    return state


@pytest.mark.parametrize("n", [3, 4, 5, 6, 7])
def test_setup_seats_and_cities(n: int) -> None:
    """Section 3-5: N cities between neighbours; each seat builds its left city C[pos] with its
    left neighbour and its right city C[pos-1]; everyone holds 7 singles; all seats are awaited."""
    state = new("standard", n, seed=n)
    assert sorted(state.order) == list(range(n))
    assert len(state.cities) == n
    for seat in range(n):
        left, right = E.cities_of(state, seat)
        pos = state.order.index(seat)
        assert seat in state.cities[left].builders and seat in state.cities[right].builders
        assert state.order[(pos + 1) % n] in state.cities[left].builders
        assert state.order[(pos - 1) % n] in state.cities[right].builders
        assert len(state.players[seat].hand) == 7
        assert all(T.KINDS[state.tiles[t]].shape == T.SINGLE for t in state.players[seat].hand)
    assert RULES.awaiting(state) == frozenset(range(n))
    assert RULES.to_json(new("standard", n, seed=n)) == RULES.to_json(state)
    assert RULES.to_json(new("standard", n, seed=n + 100)) != RULES.to_json(state)


def test_commit_is_private() -> None:
    """D-1: a commit is final and secret — others see only that the seat has chosen; the seat
    sees its choice, and the tiles it handed on vanish from its view."""
    state = new("standard", 4, seed=3)
    hand = list(state.players[0].hand)
    move = {"kind": "choose", "tiles": hand[:2]}
    after = RULES.apply(state, 0, move)
    own = RULES.view(after, 0)["you"]
    assert [t["id"] for t in own["choice"]] == hand[:2] and own["hand"] == []
    for viewer in (1, 2, 3, None):
        view = RULES.view(after, viewer)
        assert view["players"][0]["committed"] is True
        assert view["players"][0]["to_place"] == []
        assert view["you"] is None or view["you"]["choice"] == []
    assert RULES.describe(state, 0, move, after) == ("btc.move.chose", {"seat": 0})
    assert RULES.undoable(state, 0, move, after) is False
    assert 0 not in RULES.awaiting(after)
    with pytest.raises(core.NotYourTurn) as err:
        RULES.apply(after, 0, {"kind": "choose", "tiles": hand[2:4]})
    assert err.value.key == "btc.wait.committed"


def test_reveal_when_the_last_seat_commits() -> None:
    """5.1 step 2: when every seat has committed, all choices are revealed together and listed in
    the public summary; every seat then places."""
    state = new("standard", 3, seed=4)
    state = commit_all(state, skip=(2,))
    assert all(not p.pending for p in state.players)
    move = RULES.legal_moves(state, 2)[0]
    after = RULES.apply(state, 2, move)
    key, params = RULES.describe(state, 2, move, after)
    assert key == "btc.move.chose_reveal" and params["seat"] == 2
    for seat in range(3):
        assert len(after.players[seat].pending) == 2
        for tile in after.players[seat].pending:
            assert resolve(E.tile_name(after, tile.tile)) in resolve(params["choices"])  # in English
    assert RULES.awaiting(after) == frozenset({0, 1, 2})


@pytest.mark.parametrize("locale", ["en", "hu", "es", "ru", "pl"])
def test_the_reveal_names_every_player_in_every_language(locale: str) -> None:
    """The revealed choices are told by each player's name, as every front-end tells a move (the rules
    refer to the seats; the names are put in by bot.service.named), never by a seat number."""
    state = commit_all(new("standard", 3, seed=4), skip=(2,))
    move = RULES.legal_moves(state, 2)[0]
    after = RULES.apply(state, 2, move)
    key, params = RULES.describe(state, 2, move, after)
    names = ["Ágota", "Борис", "Zoë"]
    told = t(key, locale, player=names[2], **core.name_seats(params, names.__getitem__))
    assert all(f"{name}: " in told for name in names), told
    assert not any(word in told.lower() for word in ("seat", "hely", "puesto", "место", "miejsce")), told


def commit_recording(state: BtcState) -> tuple[BtcState, dict[int, list[int]]]:
    """Every seat commits its first legal choice; returns the state and what each handed on."""
    handed: dict[int, list[int]] = {}
    for seat in range(state.seats):
        move = RULES.legal_moves(state, seat)[0]
        handed[seat] = [t for t in state.players[seat].hand if t not in move["tiles"]]
        state = RULES.apply(state, seat, move)
    return state, handed


def test_round_one_passes_left_and_round_three_passes_right() -> None:
    """5.1 / 5.3: the rest of a hand goes to the left neighbour in round 1, to the right in round 3."""
    state, handed = commit_recording(new("standard", 5, seed=6))
    for seat in range(5):
        left_neighbour = state.order[(state.order.index(seat) + 1) % 5]
        assert state.players[left_neighbour].hand == sorted(handed[seat])
    while E.stage_of(state).round < 3:
        state = finish_turn(state)
        if E.stage_of(state).round < 3:
            state = commit_all(state)
    state, handed = commit_recording(state)
    for seat in range(5):
        right_neighbour = state.order[(state.order.index(seat) - 1) % 5]
        assert state.players[right_neighbour].hand == sorted(handed[seat])


def test_hand_sizes_discard_and_city_sizes() -> None:
    """5.1: hands go 7 -> 5 -> 3, the last tile is discarded, every city holds 6 tiles after round
    1 and 10 cells after round 2 (two duplexes)."""
    state = new("standard", 3, seed=9)
    for size in (7, 5, 3):
        assert [len(p.hand) for p in state.players] == [size] * 3
        state = finish_turn(commit_all(state))
    assert len(state.discard) == 3
    assert E.stage_of(state).round == 2 and [c.size() for c in state.cities] == [6, 6, 6]
    assert [len(p.hand) for p in state.players] == [3, 3, 3]
    assert all(T.KINDS[state.tiles[t]].shape == T.DUPLEX for p in state.players for t in p.hand)
    state = finish_turn(commit_all(state))
    assert len(state.discard) == 6
    assert [c.size() for c in state.cities] == [10, 10, 10]
    assert E.stage_of(state).round == 3


def test_one_tile_per_city_each_turn() -> None:
    """5.1 step 3: one revealed tile goes to each of the seat's two cities."""
    state = commit_all(new("standard", 3, seed=12))
    left, right = E.cities_of(state, 0)
    a, b = (x.tile for x in state.players[0].pending)
    state = RULES.apply(state, 0, {"kind": "place", "tile": a, "city": left, "cell": "D4"})
    assert {m["city"] for m in RULES.legal_moves(state, 0) if m["kind"] == "place"} == {right}
    with pytest.raises(core.IllegalMove) as err:
        RULES.apply(state, 0, {"kind": "place", "tile": b, "city": left, "cell": "D5"})
    assert err.value.key == "btc.place.city_done"
    stranger = next(c for c in range(3) if c not in (left, right))
    with pytest.raises(core.IllegalMove) as err:
        RULES.apply(state, 0, {"kind": "place", "tile": b, "city": stranger, "cell": "D4"})
    assert err.value.key == "btc.place.not_your_city"


def test_nothing_is_undoable_d27() -> None:
    """Undo: a submitted placement is final (D-27), even one that reveals nothing; the placement
    that completes a reveal is not undoable either, and a commit never is (D-1)."""
    state = commit_all(new("standard", 3, seed=13))
    for seat in (0, 1):
        state = place_all(state, seat)
        state = RULES.apply(state, seat, RULES.legal_moves(state, seat)[0])
    state = place_all(state, 2)  # not yet: seat 2 has not committed its next choice
    move = RULES.legal_moves(state, 2)[0]
    after = RULES.apply(state, 2, move)
    assert after.reveals == state.reveals + 1
    assert RULES.undoable(state, 2, move, after) is False
    fresh = commit_all(new("standard", 3, seed=13))
    move = next(m for m in RULES.legal_moves(fresh, 0) if m["kind"] == "place")
    assert RULES.undoable(fresh, 0, move, RULES.apply(fresh, 0, move)) is False


def test_pipelining_commit_before_others_place() -> None:
    """D-4: a seat that has placed both tiles may commit its next choice at once; the next reveal
    waits for every placement and every commit."""
    state = commit_all(new("standard", 3, seed=14))
    with pytest.raises(core.NotYourTurn) as err:
        RULES.apply(state, 0, {"kind": "choose", "tiles": state.players[0].hand[:2]})
    assert err.value.key == "btc.wait.place_first"
    state = place_all(state, 0)
    assert E.can_choose(state, 0) and state.players[1].pending
    state = RULES.apply(state, 0, RULES.legal_moves(state, 0)[0])
    state = place_all(state, 1)
    state = RULES.apply(state, 1, RULES.legal_moves(state, 1)[0])
    assert state.reveals == 1 and state.players[2].pending
    assert RULES.awaiting(state) == frozenset({2})
    state = place_all(state, 2)
    assert state.reveals == 1
    state = RULES.apply(state, 2, RULES.legal_moves(state, 2)[0])
    assert state.reveals == 2


def test_round_two_assigns_duplexes_and_discards_the_third() -> None:
    """5.2 / D-5 a: each seat keeps two of three duplexes, one declared for each city, and the
    third is discarded at the reveal."""
    state = new("standard", 3, seed=15)
    for _ in range(3):
        state = finish_turn(commit_all(state))
    hand = list(state.players[0].hand)
    left, right = E.cities_of(state, 0)
    moves = RULES.legal_moves(state, 0)
    assert len(moves) == 6 and all(set(m) == {"kind", "left", "right"} for m in moves)
    with pytest.raises(core.IllegalMove) as err:
        RULES.apply(state, 0, {"kind": "choose", "left": hand[0], "right": hand[0]})
    assert err.value.key == "btc.choose.same"
    state = RULES.apply(state, 0, {"kind": "choose", "left": hand[0], "right": hand[1]})
    discarded = len(state.discard)
    state = commit_all(state, skip=(0,))
    assert len(state.discard) == discarded + 3 and hand[2] in state.discard
    assert [(x.tile, x.city) for x in state.players[0].pending] == [(hand[0], left), (hand[1], right)]
    with pytest.raises(core.IllegalMove) as err:
        RULES.apply(state, 0, {"kind": "place", "tile": hand[0], "city": right, "cell": "D4"})
    assert err.value.key == "btc.place.assigned_elsewhere"


def test_choose_refusals() -> None:
    """Malformed or illegal choices are refused with a sentence's key."""
    state = new("standard", 3, seed=16)
    hand = state.players[0].hand
    outsider = state.players[1].hand[0]
    cases = [
        ({"kind": "choose", "tiles": [hand[1], hand[0]]}, "btc.choose.order"),
        ({"kind": "choose", "tiles": [hand[0], hand[0]]}, "btc.choose.two"),
        ({"kind": "choose", "tiles": [hand[0]]}, "btc.choose.two"),
        ({"kind": "choose", "tiles": [hand[0], outsider]}, "btc.choose.not_in_hand"),
        ({"kind": "choose", "left": hand[0], "right": hand[1]}, "btc.move.fields"),
        ({"kind": "choose", "tiles": ["a", "b"]}, "btc.choose.two"),
        ({"kind": "dance"}, "btc.move.unknown"),
        ({"tiles": [1, 2]}, "btc.move.bad"),
        ({"kind": "assign", "left": hand[0], "right": hand[1]}, "btc.move.not_in_mode"),
        ({"kind": "bonus", "type": "shops", "city": 0}, "btc.phase.no_bonus"),
    ]
    for move, key in cases:
        with pytest.raises(core.IllegalMove) as err:
            RULES.apply(state, 0, move)
        assert err.value.key == key, move
    with pytest.raises(core.IllegalMove) as err:
        RULES.apply(state, 7, {"kind": "choose", "tiles": hand[:2]})
    assert err.value.key == "btc.seat.unknown"


def _shared_city(state: BtcState) -> tuple[int, int, int]:
    """(city, lower-position builder, higher-position builder) of city 0."""
    a, b = state.order[0], state.order[1]
    return 0, a, b


def test_you_first_one_sided_waits_for_the_partner() -> None:
    """D-3: a seat that asks its partner to place first in a city waits there until the partner has."""
    state = commit_all(new("standard", 3, seed=17))
    city, low, high = _shared_city(state)
    move = {"kind": "you_first", "city": city}
    assert move in RULES.legal_moves(state, high)
    after = RULES.apply(state, high, move)
    name = after.cities[city].name
    key, params = RULES.describe(state, high, move, after)
    assert (key, params["seat"], resolve(params["city"])) == ("btc.move.you_first", high, name)
    assert all(m.get("city") != city for m in RULES.legal_moves(after, high))
    tile = after.players[high].pending[0].tile
    with pytest.raises(core.NotYourTurn) as err:
        RULES.apply(after, high, {"kind": "place", "tile": tile, "city": city, "cell": "D4"})
    assert err.value.key == "btc.place.wait_partner"
    with pytest.raises(core.IllegalMove) as err:
        RULES.apply(after, high, move)
    assert err.value.key == "btc.first.already"
    placed = RULES.apply(
        after, low, next(m for m in RULES.legal_moves(after, low) if m["kind"] == "place" and m["city"] == city)
    )
    assert any(m["kind"] == "place" and m["city"] == city for m in RULES.legal_moves(placed, high))


def test_you_first_both_ask_lower_seat_places_first() -> None:
    """D-3: when both partners ask each other to go first, the lower seat must place first."""
    state = commit_all(new("standard", 3, seed=17))
    city, low, high = _shared_city(state)
    state = RULES.apply(state, high, {"kind": "you_first", "city": city})
    state = RULES.apply(state, low, {"kind": "you_first", "city": city})
    assert any(m["kind"] == "place" and m["city"] == city for m in RULES.legal_moves(state, low))
    tile = state.players[high].pending[0].tile
    with pytest.raises(core.NotYourTurn) as err:
        RULES.apply(state, high, {"kind": "place", "tile": tile, "city": city, "cell": "D4"})
    assert err.value.key == "btc.place.partner_first"


def test_you_first_never_deadlocks() -> None:
    """D-3: whatever you-first requests are made, some seat can always place (random games where
    every seat asks first everywhere it can)."""
    for seed in range(3):
        state = new("standard", 4, seed=seed)
        n = 0
        while not RULES.is_over(state):
            awaiting = sorted(RULES.awaiting(state))
            assert awaiting
            seat = awaiting[n % len(awaiting)]
            moves = RULES.legal_moves(state, seat)
            asks = [m for m in moves if m["kind"] == "you_first"]
            state = RULES.apply(state, seat, asks[0] if asks else moves[-1])
            n += 1
        check_finished(state)


def test_you_first_is_only_for_shared_cities() -> None:
    """D-3 applies to partners: there is no you-first move in the 2-player or solo game."""
    for mode, seats in (("two_player", 2), ("solo_simple", 1)):
        state = new(mode, seats, seed=1)
        with pytest.raises(core.IllegalMove) as err:
            RULES.apply(state, 0, {"kind": "you_first", "city": 0})
        assert err.value.key == "btc.move.not_in_mode"


def test_two_player_variant_structure() -> None:
    """Section 9: four cities, each built by one player alone; every round played twice (1a … 3b);
    hands pass to the opponent; the final score is the sum of both cities."""
    state = new("two_player", 2, seed=21)
    assert [c.builders for c in state.cities] == [[0], [0], [1], [1]]
    assert [E.cities_of(state, s) for s in (0, 1)] == [(0, 1), (2, 3)]
    hand0 = list(state.players[0].hand)
    state = commit_all(state)
    assert [t for t in hand0 if t not in [x.tile for x in state.players[0].pending]] == state.players[1].hand
    parts = []
    s = finish_turn(state)
    while not RULES.is_over(s):
        part = (E.stage_of(s).round, E.stage_of(s).part)
        if not parts or parts[-1] != part:
            parts.append(part)
        s = finish_turn(commit_all(s))
    assert parts == [(1, "a"), (1, "b"), (2, "a"), (2, "b"), (3, "a"), (3, "b")]
    check_finished(s)
    result = RULES.result(s)
    totals = E.city_totals(s)
    assert [r.total for r in result.seats] == [totals[0] + totals[1], totals[2] + totals[3]]
    assert all(len(r.tiebreak) == 6 for r in result.seats)  # no higher-city tie-breaker
    counts = E.factory_counts(s)
    assert len(counts) == 4  # D-11: the majority compares all four cities
    view = RULES.view(s, None)
    assert [c["per_factory"] for c in view["cities"]] == scoring.factory_values(counts)


@pytest.mark.parametrize(
    ("mode", "seats", "singles", "duplexes"),
    [
        ("standard", 3, 42, 9),
        ("standard", 7, 98, 21),
        ("two_player", 2, 56, 12),
        ("solo_full", 1, 42, 8),
        ("solo_simple", 1, 36, 6),
    ],
)
def test_draws_per_mode(mode: str, seats: int, singles: int, duplexes: int) -> None:
    """2.5: each mode draws exactly its number of singles and duplexes, all within the supply."""
    state = play(new(mode, seats, seed=31), first_legal)
    assert state.next_single == singles
    assert state.next_duplex - len(T.SINGLE_POOL) == duplexes
    check_finished(state)


def test_pending_tiles_of_rounds_one_and_three_are_free() -> None:
    """5.1 step 3: the chooser decides which revealed tile goes to which city."""
    state = commit_all(new("standard", 3, seed=40))
    assert all(x.city == FREE for p in state.players for x in p.pending)


def test_greedy_game_is_deterministic() -> None:
    """Replaying the same seeds reproduces the game exactly (the move log is the truth)."""
    a = play(new("standard", 4, seed=41), ai_policy("greedy"), seed=5)
    b = play(new("standard", 4, seed=41), ai_policy("greedy"), seed=5)
    assert RULES.to_json(a) == RULES.to_json(b)
