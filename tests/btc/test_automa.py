"""The Automas: TC-20 … TC-22 (section 13), the choice procedure (10.7) and the turn (10.5)."""

from __future__ import annotations

from bot.rules.btc import automa
from bot.rules.btc import engine as E
from bot.rules.btc import tiles as T
from bot.rules.btc.state import City
from tests.btc.helpers import new, spec_city

R01 = T.AUTOMA_CARD_BY_ID["R01"]
R11 = T.AUTOMA_CARD_BY_ID["R11"]


def loose(*faces: str) -> City:
    return City("Automacity", [1, 2], False, {}, [(f, 800 + i, 0) for i, f in enumerate(faces)])


def tc20_left_city() -> City:
    return spec_city({(0, 0): "O", (1, 0): "P", (1, 1): "O", (1, 2): "H"}, "Left City")


def test_tc20_gains_in_the_shared_city() -> None:
    """TC-20: tavern +4 (1 + two office bonuses + house K 2 -> 3), house +2, shop +3."""
    left = tc20_left_city()
    counts = [0, 0, 0]
    assert automa.gain(left, 0, counts, "TAVERN_FOOD") == 4
    assert automa.gain(left, 0, counts, "HOUSE") == 2
    assert automa.gain(left, 0, counts, "SHOP") == 3


def test_tc20_autommaso_assigns_the_tavern_and_builds_a_house() -> None:
    """TC-20: card R01 — no factory, so ">" gives the tavern to the Left City; in Automacity
    (a house and a shop) no remaining tile is a new type, so the HOUSE symbol picks the house."""
    tiles = ("TAVERN_FOOD", "HOUSE", "SHOP")
    hand = [0, 1, 2]
    counts = [0, 0, 0]
    tile, symbol = automa.choose(hand, tiles, R01.shared, tc20_left_city(), 0, counts)
    assert (tiles[tile], symbol) == ("TAVERN_FOOD", "MAX")
    hand.remove(tile)
    tile, symbol = automa.choose(hand, tiles, R01.automacity, loose("HOUSE", "SHOP"), 1, counts)
    assert (tiles[tile], symbol) == ("HOUSE", "HOUSE")


def test_tc21_automarta_assigns_the_factory_and_builds_an_office() -> None:
    """TC-21: same card, Automarta's hand Factory, Office, House: FACTORY assigns the factory to
    the Right City; Automacity has a house and no office, so NEW builds the office."""
    tiles = ("FACTORY", "OFFICE", "HOUSE")
    hand = [0, 1, 2]
    right = spec_city({(0, 0): "O", (1, 0): "P"}, "Right City")
    tile, symbol = automa.choose(hand, tiles, R01.shared, right, 2, [0, 0, 0])
    assert (tiles[tile], symbol) == ("FACTORY", "FACTORY")
    hand.remove(tile)
    tile, symbol = automa.choose(hand, tiles, R01.automacity, loose("HOUSE", "SHOP"), 1, [0, 0, 0])
    assert (tiles[tile], symbol) == ("OFFICE", "NEW")


def tc22_left_city() -> City:
    return spec_city({(0, 0): "F", (0, 1): "S", (0, 2): "H", (1, 0): "O"}, "Left City")


def test_tc22_max_counts_the_factory_majority_rise() -> None:
    """TC-22: Left scores 8; a factory lifts it to a shared second place: +4; park +3; shop +3;
    with R11 the factory is assigned."""
    left = tc22_left_city()
    counts = [1, 2, 3]  # Left, Automacity, Right
    assert automa.city_score(left, 0, counts) == 8
    assert automa.gain(left, 0, counts, "FACTORY") == 4
    assert automa.gain(left, 0, counts, "PARK") == 3
    assert automa.gain(left, 0, counts, "SHOP") == 3
    tiles = ("FACTORY", "PARK", "SHOP")
    tile, symbol = automa.choose([0, 1, 2], tiles, R11.shared, left, 0, counts)
    assert (tiles[tile], symbol) == ("FACTORY", "MAX")


def test_tc22_equal_gains_go_to_the_tie_break_row() -> None:
    """TC-22: park and shop both gain 3; the tie-break row (shop before park) picks the shop."""
    tiles = ("PARK", "SHOP")
    tile, _ = automa.choose([0, 1], tiles, R11.shared, tc22_left_city(), 0, [1, 2, 3])
    assert tiles[tile] == "SHOP"


def test_new_needs_a_house_in_the_city() -> None:
    """10.6: NEW applies only when the city already holds a house; otherwise the next symbol."""
    tiles = ("OFFICE", "HOUSE")
    tile, symbol = automa.choose([0, 1], tiles, ("NEW", "HOUSE", "MAX"), loose("SHOP"), 1, [0, 0, 0])
    assert (tiles[tile], symbol) == ("HOUSE", "HOUSE")


def test_new_picks_the_best_of_several_new_types() -> None:
    """10.7 step 3: several new types -> the largest gain (a second office set beats a park here)."""
    tiles = ("PARK", "TAVERN_BED", "SHOP")
    city = loose("HOUSE", "SHOP", "OFFICE", "OFFICE")
    # tavern: 1 + office bonus 2 + house K +1 = 4; park: 2 + 1 = 3
    tile, symbol = automa.choose([0, 1, 2], tiles, ("NEW", "MAX"), city, 1, [0, 0, 0])
    assert (tiles[tile], symbol) == ("TAVERN_BED", "NEW")


def test_automacity_gain_uses_maximal_scoring() -> None:
    """10.7: Automacity gains use its maximal scoring: a fourth shop completes a line (+6)."""
    assert automa.gain(loose("SHOP", "SHOP", "SHOP"), 1, [0, 0, 0], "SHOP") == 6


def test_full_mode_setup_puts_two_duplexes_in_automacity() -> None:
    """10.5 setup: Automacity starts with two duplexes (4 faces) before any other tile; then each
    Automa draws a card, assigns one tile and builds one in Automacity (2 more faces)."""
    state = new("solo_full", 1, seed=3)
    faces = state.cities[E.AUTOMACITY].loose
    duplex_faces = [f for f in faces if f[2]]
    assert len(duplex_faces) == 4 and len(faces) == 6
    assert [e["automa"] for e in state.automa_log] == [1, 2]
    assert state.used_cards == [e["card"] for e in state.automa_log]
    assert len(state.deck) == 18
    assert [len(p.hand) for p in state.players] == [7, 5, 5]
    cities = sorted(x.city for x in state.players[0].pending)
    assert cities == [E.LEFT_CITY, E.RIGHT_CITY]


def test_automarta_step_three_sees_autommaso_tile() -> None:
    """D-14: steps run 1, 1, 2, 2, 3, 3 — Automarta's Automacity choice comes after Autommaso's
    tile is in Automacity. Seed 2: Autommaso builds a factory, so for Automarta's NEW symbol a
    factory is no longer new and she builds a park; without his factory she would build it."""
    state = new("solo_full", 1, seed=2)
    first, second = state.automa_log
    assert (first["automacity_tile"], second["automacity_tile"], second["automacity_by"]) == ("FACTORY", "PARK", "NEW")
    city = state.cities[E.AUTOMACITY]
    hand = [*state.players[2].hand, second["automacity"]]
    card = T.AUTOMA_CARD_BY_ID[second["card"]]
    earlier = [s for s in city.loose if s[1] not in (first["automacity"], second["automacity"])]
    without_first = City(city.name, city.builders, False, {}, earlier)
    factories = sum(1 for f in without_first.faces() if T.face_type(f) == "factory")
    tile, _ = automa.choose(hand, state.tiles, card.automacity, without_first, E.AUTOMACITY, [0, factories, 0])
    assert state.tiles[tile] == "FACTORY"
