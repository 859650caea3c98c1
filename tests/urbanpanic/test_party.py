"""Party variant: one hand, arrival order, the hourglass, the safety cap, scoring (spec 12; TC-24)."""

from __future__ import annotations

import pytest

from bot import i18n
from bot.rules import core
from bot.rules.core import IllegalMove
from bot.rules.urbanpanic import tiles
from bot.rules.urbanpanic.rules import RULES
from bot.rules.urbanpanic.state import PARTY_CAP_MS, PARTY_TIMER_MS, Player, State, census, manifest_census

from .helpers import board, full_board, ref_score, ref_tracks
from .test_advanced import TC16_P1, TC16_P2
from .test_data_scoring import TC14


def party(seats: int = 2, seed: int = 1) -> State:
    return RULES.setup({"variant": "party"}, seats, seed)


def refused(state, seat, move, key):
    with pytest.raises(IllegalMove) as info:
        RULES.apply(state, seat, move)
    assert info.value.key == key, info.value
    return info.value


def test_draw_place_drop_take():
    """DRAW fills the hand from the pool; PLACE builds it; DROP puts it on the table; TAKE picks it up."""
    s = party()
    top = s.stack[-1]
    s = RULES.apply(s, 0, {"kind": "draw"})
    assert s.players[0].hand == top and len(s.stack) == 119
    refused(s, 0, {"kind": "draw"}, "urbanpanic.party.hand_full")
    refused(s, 0, {"kind": "take", "tile": top}, "urbanpanic.party.hand_full")
    s = RULES.apply(s, 0, {"kind": "drop"})
    assert s.open_table == [top] and s.players[0].hand is None
    refused(s, 0, {"kind": "place", "plot": "A1"}, "urbanpanic.party.hand_empty")
    refused(s, 0, {"kind": "drop"}, "urbanpanic.party.hand_empty")
    s = RULES.apply(s, 1, {"kind": "take", "tile": top})
    assert s.players[1].hand == top and s.open_table == []
    s = RULES.apply(s, 1, {"kind": "place", "plot": "B2"})
    assert s.players[1].board[tiles.square_index("B2")] == top and s.players[1].hand is None
    assert census(s) == manifest_census()


def test_second_grab_of_the_same_open_tile_is_refused_and_changes_nothing():
    """Two players take the same open tile: the second apply is refused ("Someone took that tile first.")."""
    s = party(3)
    s = RULES.apply(s, 0, {"kind": "draw"})
    tile = s.players[0].hand
    s = RULES.apply(s, 0, {"kind": "drop"})
    first = RULES.apply(s, 1, {"kind": "take", "tile": tile})
    before = RULES.to_json(first)
    err = refused(first, 2, {"kind": "take", "tile": tile}, "urbanpanic.party.taken")
    assert i18n.error_text(err) == "Someone took that tile first."
    assert RULES.to_json(first) == before


def test_placed_tiles_are_permanent_and_have_no_floor():
    """A placed tile cannot be built over; the party game has no −5 check (D-24)."""
    s = party()
    s.players[0].hand = "POW-NS"
    s.players[0].board = full_board(empty=("A1", "B1"), code="POW-EW")
    s = RULES.apply(s, 0, {"kind": "place", "plot": "A1"})
    s.players[0].hand = "POW-NS"
    refused(s, 0, {"kind": "place", "plot": "A1"}, "urbanpanic.plot.occupied")
    refused(s, 0, {"kind": "place", "plot": "C3"}, "urbanpanic.centre")
    assert [m["kind"] for m in RULES.legal_moves(s, 0)] == ["place", "drop"]


def test_turn_actions_do_not_exist_in_party():
    """Spy, Engineer, Mayor and turns do not exist in the party game (12.6)."""
    s = party()
    for move in ({"kind": "mayor"}, {"kind": "end_turn"}, {"kind": "architect", "slot": 1}):
        refused(s, 0, move, "urbanpanic.party.not_here")


def _almost_full(s: State, seat: int, hand: str = "PRK-NESW") -> None:
    s.players[seat].board = full_board(empty=("E5",))
    s.players[seat].hand = hand


def test_first_full_city_starts_the_hourglass():
    """The 24th tile makes its player the finisher and starts a 60-second timer from that move's "at"."""
    s = party(3)
    s = RULES.apply(s, 1, {"kind": "draw", "at": 1_000})
    assert RULES.timer_deadline(s) == 1_000 + PARTY_CAP_MS  # safety cap before anyone finishes
    _almost_full(s, 0)
    s = RULES.apply(s, 0, {"kind": "place", "plot": "E5", "at": 5_000})
    assert s.first_finisher == 0 and RULES.awaiting(s) == frozenset({1, 2})
    assert RULES.timer_deadline(s) == 5_000 + PARTY_TIMER_MS
    assert RULES.view(s, None)["party"]["deadline"] == 65_000
    assert RULES.system_move(s, 64_999) is None
    s = RULES.apply(s, 1, {"kind": "place", "plot": "A1", "at": 64_999})
    assert s.players[1].board[0] is not None
    refused(s, 2, {"kind": "draw", "at": 65_000}, "urbanpanic.party.time_up")
    move = RULES.system_move(s, 65_000)
    assert move == {"kind": "timeout"}
    with pytest.raises(IllegalMove):
        RULES.apply(s, 2, move)
    end = RULES.apply(s, core.SYSTEM_SEAT, {**move, "at": 65_000})
    assert end.over and end.end_reason == "timer"


def test_a_second_full_city_does_not_restart_the_timer():
    """Only the first finisher (by server order) gets the +5 and starts the hourglass."""
    s = party(3)
    _almost_full(s, 0)
    _almost_full(s, 1)
    s = RULES.apply(s, 1, {"kind": "place", "plot": "E5", "at": 2_000})
    s = RULES.apply(s, 0, {"kind": "place", "plot": "E5", "at": 3_000})
    assert s.first_finisher == 1 and s.timer_at == 2_000 and not s.over
    refused(s, 0, {"kind": "draw"}, "urbanpanic.party.done")


def test_everyone_finished_ends_at_once():
    """If every city is full before the deadline the game ends at once."""
    s = party(2)
    _almost_full(s, 0)
    _almost_full(s, 1)
    s = RULES.apply(s, 0, {"kind": "place", "plot": "E5", "at": 10})
    last = {"kind": "place", "plot": "E5", "at": 20}
    end = RULES.apply(s, 1, last)
    assert RULES.describe(s, 1, last, end)[0] == "urbanpanic.move.place.over"
    s = end
    assert s.over and s.end_reason == "all_finished"
    assert RULES.timer_deadline(s) is None and RULES.system_move(s, 10**12) is None


def test_safety_cap_ends_the_game_without_bonus():
    """Nobody finishes within the cap: the game ends and nobody gets the +5 (12.4, D-24)."""
    s = party(2)
    s = RULES.apply(s, 0, {"kind": "draw", "at": 0})
    s = RULES.apply(s, 0, {"kind": "place", "plot": "B2", "at": 1_000})
    assert RULES.system_move(s, PARTY_CAP_MS - 1) is None
    refused(s, 1, {"kind": "draw", "at": PARTY_CAP_MS}, "urbanpanic.party.time_up")
    end = RULES.apply(s, core.SYSTEM_SEAT, {"kind": "timeout", "at": PARTY_CAP_MS})
    assert end.end_reason == "cap"
    assert all(seat.breakdown["bonus"] == 0 for seat in RULES.result(end).seats)


def test_timeout_checks():
    """Only the clock ends the game, and not before the deadline."""
    s = RULES.apply(party(), 0, {"kind": "draw", "at": 100})
    refused(s, 0, {"kind": "timeout"}, "urbanpanic.timeout.system")
    refused(s, core.SYSTEM_SEAT, {"kind": "timeout", "at": 200}, "urbanpanic.timeout.early")


def test_untimed_moves_work():
    """Moves without "at" are never late and start no timer; a timeout without "at" still ends the game."""
    s = party()
    _almost_full(s, 0)
    s = RULES.apply(s, 0, {"kind": "place", "plot": "E5"})
    assert s.first_finisher == 0 and RULES.timer_deadline(s) is None
    s = RULES.apply(s, 1, {"kind": "draw"})
    end = RULES.apply(s, core.SYSTEM_SEAT, {"kind": "timeout"})
    assert end.over


def test_TC24_party_scoring():
    """TC-24: counts × legend, steps 1–3, +5 to the finisher: P1 68, P2 9, P3 44; a held tile is lost."""
    boards = [board(*TC16_P1), board(*TC16_P2), board(*TC14)]
    s = State(
        variant="party",
        players=[Player(b, [0] * 5, []) for b in boards],
        stack=[],
        first_finisher=0,
        timer_at=1_000,
        first_at=0,
    )
    s.players[1].hand = "HOU-NESW"
    late = refused(s, 1, {"kind": "place", "plot": "D1", "at": 1_000 + PARTY_TIMER_MS}, "urbanpanic.party.time_up")
    assert late.key == "urbanpanic.party.time_up"
    end = RULES.apply(s, core.SYSTEM_SEAT, {"kind": "timeout", "at": 1_000 + PARTY_TIMER_MS})
    assert end.players[1].hand is None and end.discard == ["HOU-NESW"]
    assert end.players[1].board == boards[1]
    res = RULES.result(end)
    assert [x.total for x in res.seats] == [68, 9, 44]
    assert [x.rank for x in res.seats] == [1, 3, 2]
    assert res.seats[0].breakdown["bonus"] == 5
    for seat, b in enumerate(boards):
        assert res.seats[seat].details["tracks_played"] == list(ref_tracks(b))
        assert res.seats[seat].total == ref_score(b, ref_tracks(b))["score"] + (5 if seat == 0 else 0)


def test_party_view_hides_other_hands():
    """Each hand is seen only by its owner; spectators see that a tile is held, not which."""
    s = RULES.apply(party(), 0, {"kind": "draw"})
    tile = s.players[0].hand
    assert RULES.view(s, 0)["players"][0]["hand"] == tile
    assert RULES.view(s, 1)["players"][0]["hand"] == "hidden"
    assert RULES.view(s, None)["players"][0]["hand"] == "hidden"
    assert RULES.view(s, None)["players"][1]["hand"] is None
    key, params = RULES.describe(party(), 0, {"kind": "draw"}, s)
    assert key == "urbanpanic.move.draw" and tile not in params.values()


def test_host_sets_the_safety_cap():
    """12.4: the 15-minute cap is configurable; a 5-minute game ends at 5 minutes, not 15."""
    s = RULES.setup({"variant": "party", "party_minutes": "5"}, 2, 1)
    s = RULES.apply(s, 0, {"kind": "draw", "at": 0})
    assert RULES.timer_deadline(s) == 5 * 60_000
    assert RULES.system_move(s, 5 * 60_000 - 1) is None
    refused(s, 1, {"kind": "draw", "at": 5 * 60_000}, "urbanpanic.party.time_up")
    end = RULES.apply(s, core.SYSTEM_SEAT, {"kind": "timeout", "at": 5 * 60_000})
    assert end.over and end.end_reason == "cap"
    assert RULES.timer_deadline(RULES.setup({"variant": "party"}, 2, 1)) is None
    default = RULES.apply(RULES.setup({"variant": "party"}, 2, 1), 0, {"kind": "draw", "at": 0})
    assert RULES.timer_deadline(default) == PARTY_CAP_MS


def test_goal_cards_switched_on_in_the_party_game():
    """D-18: with goal cards on, a party game deals seats + 1 cards, shows them, and G18 goes to the finisher."""
    s = RULES.setup({"variant": "party", "party_goals": "on"}, 3, 4)
    assert len(s.goals) == 4 and len(set(s.goals)) == 4
    assert [g["id"] for g in RULES.view(s, 0)["goals"]] == s.goals
    assert RULES.setup({"variant": "party"}, 3, 4).goals == []
    s.goals = ["G18"]
    _almost_full(s, 1)
    s = RULES.apply(s, 1, {"kind": "place", "plot": "E5"})
    s = RULES.apply(s, core.SYSTEM_SEAT, {"kind": "timeout"})
    result = RULES.result(s)
    assert result.seats[1].breakdown["goals"] == 10 and result.seats[1].breakdown["bonus"] == 5
    assert result.seats[0].breakdown["goals"] == 0


@pytest.mark.parametrize(
    "options, key",
    [
        ({"variant": "party", "party_minutes": "7"}, "urbanpanic.option.party_minutes.bad"),
        ({"variant": "party", "party_minutes": "-1"}, "urbanpanic.option.party_minutes.bad"),
        ({"variant": "party", "party_goals": "yes"}, "urbanpanic.option.party_goals.bad"),
        ({"variant": "basic", "party_minutes": "30"}, "urbanpanic.option.party_minutes.party_only"),
        ({"variant": "advanced", "party_goals": "on"}, "urbanpanic.option.party_goals.party_only"),
    ],
)
def test_party_options_refused_with_a_sentence(options, key):
    """A bad party option is refused with its own catalogue sentence."""
    with pytest.raises(IllegalMove) as info:
        RULES.setup(options, 2, 1)
    assert info.value.key == key
    sentence = i18n.t(info.value.key, "en", **info.value.params)
    assert sentence != key and "{" not in sentence


def test_party_options_are_offered_as_option_specs():
    """The front-ends read option specs: both party options are there with their choices and defaults."""
    specs = {s.name: s for s in RULES.option_specs}
    assert specs["party_minutes"].default == "15" and "15" in specs["party_minutes"].choices
    assert specs["party_goals"].choices == ("off", "on") and specs["party_goals"].default == "off"
