"""Final scores, ranking and tie-breakers: TC-16, TC-17 (section 13), 8.8 and D-9, D-10."""

from __future__ import annotations

from bot.rules import core
from bot.rules.btc import engine as E
from bot.rules.btc import scoring
from bot.rules.btc.rules import RULES
from tests.btc.helpers import ai_policy, new, play


def ranking(
    totals: list[int], buildings: list[tuple[int, ...]], seats: list[tuple[int, int]], two_player: bool = False
) -> core.Result:
    finals, tiebreaks = [], []
    for left, right in seats:
        final, tb = E.standing(totals, buildings, left, right, two_player)
        finals.append(final)
        tiebreaks.append(tb)
    return core.build_result(finals, [{} for _ in seats], tiebreaks, names=E.tiebreak_names(two_player))


def test_tc16_six_player_ranking() -> None:
    """TC-16: finals 57, 52, 52, 62, 56, 56; Emily 1st, Anna Grace 2nd, Matthew 3rd (higher city
    62) ahead of Ben (57); Peter (5 shops) 5th ahead of Margaux (4 shops)."""
    totals = [62, 52, 62, 62, 56, 57]  # AG|P, P|M, M|E, E|Mt, Mt|B, B|AG
    shops = [3, 2, 2, 0, 0, 0]
    buildings = [(s, 0, 0, 0, 0, 0) for s in shops]
    seats = [(s, (s - 1) % 6) for s in range(6)]  # left city C[s], right city C[s-1]
    result = ranking(totals, buildings, seats)
    anna, peter, margaux, emily, matthew, ben = result.seats
    assert [s.total for s in result.seats] == [57, 52, 52, 62, 56, 56]
    assert [s.rank for s in result.seats] == [2, 5, 6, 1, 3, 4]
    assert (peter.tiebreak[0], margaux.tiebreak[0]) == (62, 62)
    assert (peter.tiebreak[1], margaux.tiebreak[1]) == (5, 4)
    assert (matthew.tiebreak[0], ben.tiebreak[0]) == (62, 57)
    assert (anna.rank, emily.rank) == (2, 1)
    assert result.decided_by == "score"


def test_tc17_two_player_tie_goes_to_shops() -> None:
    """TC-17: 50 + 45 = 95 against 60 + 35 = 95; the higher-city tie-breaker is not used in the
    2-player game; 5 shops beat 4, so A wins, decided by shops."""
    totals = [50, 45, 60, 35]
    buildings = [(3, 0, 0, 0, 0, 0), (2, 0, 0, 0, 0, 0), (2, 0, 0, 0, 0, 0), (2, 0, 0, 0, 0, 0)]
    result = ranking(totals, buildings, [(0, 1), (2, 3)], two_player=True)
    assert [s.total for s in result.seats] == [95, 95]
    assert [s.rank for s in result.seats] == [1, 2]
    assert result.decided_by == "btc.tiebreak.shops"


def test_tc17_equal_shops_compare_factories_next() -> None:
    """TC-17: with equal shops (4 and 4) the factories decide, and so on down the types."""
    totals = [50, 45, 60, 35]
    buildings = [(2, 1, 0, 0, 0, 0), (2, 0, 0, 0, 0, 0), (2, 3, 0, 0, 0, 0), (2, 0, 0, 0, 0, 0)]
    result = ranking(totals, buildings, [(0, 1), (2, 3)], two_player=True)
    assert [s.rank for s in result.seats] == [2, 1]
    assert result.decided_by == "btc.tiebreak.factories"


def test_higher_city_decides_before_buildings() -> None:
    """8.8: equal finals are separated by the higher city first."""
    totals = [50, 60, 55]  # three players, cities C0..C2
    buildings = [(0,) * 6, (9, 0, 0, 0, 0, 0), (0,) * 6]
    result = ranking(totals, buildings, [(0, 2), (1, 0), (2, 1)])
    assert [s.total for s in result.seats] == [50, 50, 55]
    assert result.decided_by == "score"
    assert result.seats[1].rank == 2 and result.seats[0].rank == 3  # higher city 60 beats 55


def test_d9_complete_tie_shares_the_place() -> None:
    """D-9: players still tied after houses share the rank; first place shared -> "shared"."""
    totals = [50, 50, 50]
    buildings = [(1, 1, 1, 1, 1, 1)] * 3
    result = ranking(totals, buildings, [(0, 2), (1, 0), (2, 1)])
    assert [s.rank for s in result.seats] == [1, 1, 1]
    assert result.decided_by == "shared"


def test_result_of_a_finished_game() -> None:
    """8.7-8.8 on a real game: each seat's total is its lower city, the breakdown is that city's
    categories, the first tie-break is the higher city, and a shared city's buildings count for
    both partners (D-10)."""
    state = play(new("standard", 5, seed=51), ai_policy("greedy"), seed=2)
    result = RULES.result(state)
    totals = E.city_totals(state)
    for seat_result in result.seats:
        left, right = E.cities_of(state, seat_result.seat)
        assert seat_result.total == min(totals[left], totals[right])
        assert sum(seat_result.breakdown.values()) == seat_result.total
        assert seat_result.tiebreak[0] == max(totals[left], totals[right])
        counts = scoring.type_counts([*state.cities[left].faces(), *state.cities[right].faces()])
        assert seat_result.tiebreak[1:] == tuple(counts.values())
        assert seat_result.details["cities"]["left"]["total"] == totals[left]
    names = set(E.TIEBREAK_NAMES) | {"shared"}
    assert result.decided_by in names
    assert [c["total"] for c in result.details["cities"]] == totals
    assert result.to_json()["seats"][0]["tiebreak"]


def test_provisional_result_before_the_end() -> None:
    """result() works before the end (running scores); an empty table scores 0."""
    state = new("standard", 3, seed=52)
    result = RULES.result(state)
    assert [s.total for s in result.seats] == [0, 0, 0]
    assert result.decided_by == "shared" and result.details["over"] is False
