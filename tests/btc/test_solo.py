"""Solo play (section 10): Full and Simple modes, difficulty, solo ranking and the campaign."""

from __future__ import annotations

import pytest

from bot.i18n import resolve
from bot.rules import core
from bot.rules.btc import engine as E
from bot.rules.btc import scoring
from bot.rules.btc import tiles as T
from bot.rules.btc.rules import RULES
from bot.rules.btc.state import BtcState
from tests.btc.helpers import ai_policy, check_finished, first_legal, new, play


def place_everything(state: BtcState) -> tuple[BtcState, core.Move, BtcState]:
    """Place all pending tiles; returns (state before the last placement, that move, after)."""
    before, move = state, None
    while state.phase == "place" and state.players[0].pending:
        move = next(m for m in RULES.legal_moves(state, 0) if m["kind"] in ("place", "turned"))
        before, state = state, RULES.apply(state, 0, move)
    assert move is not None
    return before, move, state


def test_full_turn_assign_then_place() -> None:
    """10.5 steps 4-5: you assign one tile to each of your cities, then place the four tiles bound
    for them (yours and the Automas'); placing before assigning is refused."""
    state = new("solo_full", 1, seed=1)
    assert state.phase == "assign" and RULES.awaiting(state) == frozenset({0})
    moves = RULES.legal_moves(state, 0)
    assert len(moves) == 42 and {m["kind"] for m in moves} == {"assign"}
    automa_tile = state.players[0].pending[0].tile
    with pytest.raises(core.IllegalMove) as err:
        RULES.apply(state, 0, {"kind": "place", "tile": automa_tile, "city": 0, "cell": "D4"})
    assert err.value.key == "btc.phase.assign_first"
    hand = state.players[0].hand
    move = {"kind": "assign", "left": hand[0], "right": hand[1]}
    after = RULES.apply(state, 0, move)
    key, params = RULES.describe(state, 0, move, after)
    assert key == "btc.move.assign" and resolve(params["left_city"]) == "Left City"
    assert after.phase == "place"
    cities = sorted(x.city for x in after.players[0].pending)
    assert cities == [E.LEFT_CITY, E.LEFT_CITY, E.RIGHT_CITY, E.RIGHT_CITY]
    assert {m["kind"] for m in RULES.legal_moves(after, 0)} == {"place"}
    with pytest.raises(core.IllegalMove) as err:
        RULES.apply(after, 0, {"kind": "assign", "left": hand[2], "right": hand[3]})
    assert err.value.key == "btc.phase.place_first"


def test_full_hands_pass_left_then_right() -> None:
    """10.5 step 6: round 1 passes left (Automarta's hand comes to you), round 3 right
    (Autommaso's); each turn the Automas draw two new cards."""
    state = new("solo_full", 1, seed=2)
    state = RULES.apply(state, 0, RULES.legal_moves(state, 0)[0])
    automarta_hand = list(state.players[2].hand)
    before, move, after = place_everything(state)
    assert after.players[0].hand == sorted(automarta_hand)
    assert len(after.automa_log) == 4 and after.step == 1
    key, params = RULES.describe(before, 0, move, after)
    assert key == "btc.move.place_automa" and "Autommaso" in resolve(params["automas"])
    assert RULES.undoable(before, 0, move, after) is False
    while E.stage_of(after).round < 3:
        after = RULES.apply(after, 0, RULES.legal_moves(after, 0)[0])
        if after.phase == "place":
            after = place_everything(after)[2]
    after = RULES.apply(after, 0, RULES.legal_moves(after, 0)[0])
    autommaso_hand = list(after.players[1].hand)
    after = place_everything(after)[2]
    assert after.players[0].hand == sorted(autommaso_hand)


def test_full_round_two_two_batches_of_duplexes() -> None:
    """10.5 round 2: draw 3 duplexes, assign one per city, discard one; again; then place all four.
    The Automas do nothing."""
    state = new("solo_full", 1, seed=3)
    while E.stage_of(state).round < 2:
        state = RULES.apply(state, 0, RULES.legal_moves(state, 0)[0])
        state = place_everything(state)[2]
    log = len(state.automa_log)
    assert state.phase == "assign" and len(state.players[0].hand) == 3
    discard = len(state.discard)
    state = RULES.apply(state, 0, RULES.legal_moves(state, 0)[0])
    assert state.phase == "assign" and len(state.players[0].hand) == 3 and len(state.discard) == discard + 1
    state = RULES.apply(state, 0, RULES.legal_moves(state, 0)[-1])
    assert state.phase == "place" and len(state.players[0].pending) == 4 and len(state.discard) == discard + 2
    assert all(T.KINDS[state.tiles[x.tile]].shape == T.DUPLEX for x in state.players[0].pending)
    state = place_everything(state)[2]
    # round 3 starts at once: the Automas' first turn adds one tile each to Automacity
    assert [c.size() for c in state.cities] == [10, 12, 10] and len(state.automa_log) == log + 2
    assert E.stage_of(state).round == 3


def test_full_game_uses_twelve_cards() -> None:
    """D-20: a Full game draws 12 Automa cards (2 Automas x 3 turns x rounds 1 and 3)."""
    state = play(new("solo_full", 1, seed=4), ai_policy("greedy"))
    assert len(state.used_cards) == 12 and len(state.deck) == 8 and len(state.automa_log) == 12
    check_finished(state)


def test_simple_repetition() -> None:
    """10.4: each repetition gives every city a random tile, you assign one of three tiles to each
    city; Automacity takes its two at once, you place two in each of your cities."""
    state = new("solo_simple", 1, seed=5)
    assert state.phase == "assign"
    assert sorted(x.city for x in state.players[0].pending) == [E.LEFT_CITY, E.RIGHT_CITY]
    assert state.cities[E.AUTOMACITY].size() == 1 and len(state.players[0].hand) == 3
    moves = RULES.legal_moves(state, 0)
    assert len(moves) == 6 and all(set(m) == {"kind", "left", "right", "auto"} for m in moves)
    with pytest.raises(core.IllegalMove) as err:
        h = state.players[0].hand
        RULES.apply(state, 0, {"kind": "assign", "left": h[0], "right": h[0], "auto": h[1]})
    assert err.value.key == "btc.assign.three"
    move = moves[0]
    after = RULES.apply(state, 0, move)
    assert RULES.describe(state, 0, move, after)[0] == "btc.move.assign_simple"
    assert after.cities[E.AUTOMACITY].size() == 2 and len(after.players[0].pending) == 4
    after = place_everything(after)[2]
    # the next repetition starts at once: its random tile is already in Automacity
    assert [c.size() for c in after.cities] == [2, 3, 2] and after.step == 1


def test_simple_game_completes_without_cards() -> None:
    """10.4: Simple mode uses no Automa cards; 3 + 1 + 3 repetitions fill every city."""
    state = play(new("solo_simple", 1, seed=6), ai_policy("greedy"))
    assert state.used_cards == [] and state.automa_log == []
    check_finished(state)


def test_difficulty_modifies_automacity_only() -> None:
    """10.9: the level adds -6 … +6 to Automacity's score (the Automas' finals), never to yours."""
    games = {lvl: play(new("solo_full", 1, seed=7, difficulty=lvl), first_legal) for lvl in ("1", "4", "7")}
    assert RULES.to_json(games["1"])["cities"] == RULES.to_json(games["7"])["cities"]
    totals = {lvl: E.city_totals(g) for lvl, g in games.items()}
    assert totals["1"][E.AUTOMACITY] == totals["4"][E.AUTOMACITY] - 6
    assert totals["7"][E.AUTOMACITY] == totals["4"][E.AUTOMACITY] + 6
    assert totals["1"][E.LEFT_CITY] == totals["7"][E.LEFT_CITY]
    for lvl, game in games.items():
        result = RULES.result(game)
        t = totals[lvl]
        assert result.seats[0].total == min(t[E.LEFT_CITY], t[E.RIGHT_CITY])
        automas = result.details["automas"]
        assert automas[0]["total"] == min(t[E.LEFT_CITY], t[E.AUTOMACITY])
        assert automas[1]["total"] == min(t[E.RIGHT_CITY], t[E.AUTOMACITY])
        assert [resolve(a["name"]) for a in automas] == ["Autommaso", "Automarta"]
        assert [resolve(a["name"], "ru") for a in automas] == ["Автоммазо", "Автомарта"]


def test_solo_result_ranks_you_against_the_automas() -> None:
    """10.9 / D-22: only your seat is a result seat; its rank counts the Automas, by score then
    the higher city (Automacity's modified score) then building counts."""
    for seed in range(4):
        state = play(new("solo_full", 1, seed=seed, difficulty="3"), ai_policy("greedy"))
        result = RULES.result(state)
        assert len(result.seats) == 1
        me = result.seats[0]
        keys = [(me.total, *me.tiebreak)] + [(a["total"], *a["tiebreak"]) for a in result.details["automas"]]
        assert me.rank == 1 + sum(1 for k in keys[1:] if k > keys[0])
        assert result.winners() == ([0] if me.rank == 1 else [])


@pytest.mark.parametrize(
    ("options", "key"),
    [
        ({"mode": "standard", "campaign": "3"}, "btc.option.campaign_solo"),
        (
            {"mode": "solo_full", "campaign": "3", "campaign_game": "4", "campaign_used": "SFT"},
            "btc.option.campaign_game",
        ),
        ({"mode": "solo_full", "campaign": "3", "campaign_game": "2"}, "btc.option.campaign_used"),
        ({"mode": "solo_full", "campaign_game": "2", "campaign_used": "S"}, "btc.option.campaign_off"),
        ({"mode": "solo_full", "difficulty": "9"}, "error.bad_option"),
        ({"mode": "solo_full", "speed": "fast"}, "error.unknown_option"),
    ],
)
def test_campaign_options_are_checked(options: dict[str, str], key: str) -> None:
    """10.10: campaigns are solo, 3 or 6 games, one bonus type used per game already played."""
    with pytest.raises(core.IllegalMove) as err:
        RULES.normalise_options(options)
    assert err.value.key == key


def test_seat_counts_per_mode() -> None:
    """seat_range by mode; a wrong seat count is refused at setup."""
    assert RULES.seat_range({"mode": "standard"}) == (3, 7)
    assert RULES.seat_range({"mode": "two_player"}) == (2, 2)
    assert RULES.seat_range({"mode": "solo_full"}) == (1, 1)
    with pytest.raises(core.IllegalMove) as err:
        RULES.setup({"mode": "solo_simple"}, 2, 1)
    assert err.value.key == "btc.option.seats"


def campaign_end(seed: int, used: str = "S", game: str = "2") -> BtcState:
    state = new("solo_simple", 1, seed=seed, campaign="3", campaign_game=game, campaign_used=used)
    while state.phase != "bonus":
        state = RULES.apply(state, 0, RULES.ai_move(state, 0, "greedy", 1))
    return state


def test_campaign_bonus_from_the_lower_city() -> None:
    """10.10 / D-23: after a campaign game you pick an unused type; the bonus is that category of
    your lower city, doubled if you won; CP = your lower city + bonus."""
    state = campaign_end(seed=8)
    assert not RULES.is_over(state) and RULES.awaiting(state) == frozenset({0})
    moves = RULES.legal_moves(state, 0)
    assert {m["type"] for m in moves} == set(scoring.CATEGORIES) - {"shops"}
    totals = E.city_totals(state)
    lower = min((E.LEFT_CITY, E.RIGHT_CITY), key=lambda c: totals[c])
    assert {m["city"] for m in moves} == {lower} or totals[E.LEFT_CITY] == totals[E.RIGHT_CITY]
    with pytest.raises(core.IllegalMove) as err:
        RULES.apply(state, 0, {"kind": "bonus", "type": "shops", "city": lower})
    assert err.value.key == "btc.bonus.used"
    with pytest.raises(core.IllegalMove) as err:
        RULES.apply(state, 0, {"kind": "bonus", "type": "castles", "city": lower})
    assert err.value.key == "btc.bonus.type"
    move = next(m for m in moves if m["type"] == "parks")
    after = RULES.apply(state, 0, move)
    assert RULES.is_over(after)
    result = RULES.result(after)
    summary = result.seats[0].details["campaign"]
    won = result.seats[0].rank == 1
    category = E.city_scores(after)[move["city"]]["parks"]
    assert summary["campaign_points"] == min(totals[E.LEFT_CITY], totals[E.RIGHT_CITY])
    assert summary["bonus"] == category * (2 if won else 1) and summary["won"] is won
    assert summary["total"] == summary["campaign_points"] + summary["bonus"]
    assert summary["used_after"] == ["shops", "parks"] and summary["game"] == 2 and summary["length"] == 3
    key, params = RULES.describe(state, 0, move, after)
    assert key == "btc.move.bonus" and params["points"] == summary["bonus"]


def test_campaign_bonus_doubles_when_won() -> None:
    """10.10: the bonus is doubled when you won; a win is rank 1 (shared counts, D-22)."""
    for seed in range(40):
        state = campaign_end(seed=seed, used="-", game="1")
        if RULES.result(state).seats[0].rank == 1:
            break
    else:
        pytest.fail("no won game found")
    after = RULES.apply(state, 0, RULES.legal_moves(state, 0)[0])
    summary = RULES.result(after).seats[0].details["campaign"]
    category = E.city_scores(after)[summary["bonus_city"]][summary["bonus_type"]]
    assert summary["won"] is True and summary["bonus"] == 2 * category


def test_campaign_tied_cities_offer_both() -> None:
    """D-23: when both of your cities scored the same, you pick which city gives the bonus."""
    state = campaign_end(seed=9).clone()
    state.cities[E.RIGHT_CITY].cells = dict(state.cities[E.LEFT_CITY].cells)
    cities = {m["city"] for m in RULES.legal_moves(state, 0)}
    assert cities == {E.LEFT_CITY, E.RIGHT_CITY}


def test_campaign_view() -> None:
    """The view carries what the campaign needs: options, bonus choices, and the summary."""
    state = campaign_end(seed=10)
    view = RULES.view(state, 0)["campaign"]
    assert view["length"] == 3 and view["game"] == 2 and view["used_before"] == ["shops"]
    assert view["bonus_choices"] and view["summary"]["bonus_type"] is None


def test_small_replaced_deck_is_reshuffled(monkeypatch: pytest.MonkeyPatch) -> None:
    """D-20: a deck (replaced by an admin) smaller than the 12 draws of a game is reshuffled from
    its discards, the same way on every replay."""
    monkeypatch.setattr(T, "AUTOMA_CARDS", T.AUTOMA_CARDS[:5])
    a = play(new("solo_full", 1, seed=12), first_legal)
    b = play(new("solo_full", 1, seed=12), first_legal)
    assert len(a.automa_log) == 12 and {e["card"] for e in a.automa_log} <= {f"R0{i}" for i in range(1, 6)}
    assert RULES.to_json(a) == RULES.to_json(b)
    check_finished(a)
