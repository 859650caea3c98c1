"""The story of a finished game, computed from its move log: scores per turn, who led when, the biggest gain."""

from __future__ import annotations

from collections import Counter
from itertools import pairwise
from typing import Any

import pytest

from bot import games, i18n
from bot import story as st
from bot.rules.core import SYSTEM_SEAT, GameError

from .conftest import Played, played


def _result_totals(game: Played) -> list[int]:
    """Every place's final total as the rules' result says (solo: the Automas after the player)."""
    result = games.rules(game.kind).result(game.state).to_json()
    entries = [*result["seats"], *result["details"].get("automas", [])]
    return [e["total"] for e in sorted(entries, key=lambda e: e["seat"])]


def test_the_last_point_is_the_final_score_of_every_place(game: Played) -> None:
    """The score series ends on the result's totals, Automas included; the story knows the game ended."""
    told = game.story
    assert told.over
    assert list(told.final) == _result_totals(game)
    assert len(told.places) == len(_result_totals(game))
    assert told.points[-1].version == len(game.log)
    assert [p.turn for p in told.points] == list(range(len(told.points)))


def test_the_ranking_is_the_rules_ranking(game: Played) -> None:
    """Best first, with the rules' tie-breaks: the same ranks as the result."""
    result = games.rules(game.kind).result(game.state).to_json()
    entries = [*result["seats"], *result["details"].get("automas", [])]
    expected = sorted((e["rank"], e["seat"], e["total"]) for e in entries)
    assert [(s.rank, s.place, s.total) for s in game.story.ranking] == expected


def test_solo_automas_are_places_with_their_own_names() -> None:
    """In solo Between Two Cities the two Automas are opponents on the chart, named as the game names them."""
    for name in ("btc-solo-full", "btc-solo-simple"):
        told = played(name).story
        assert [p.seat for p in told.places] == [0, None, None]
        view = games.rules("btc").view(played(name).state, None)
        assert [p.automa for p in told.places[1:]] == [q["automa"] for q in view["players"][1:]]


def test_lead_changes_follow_the_series(game: Played) -> None:
    """A lead change is recorded exactly when one place alone has the best score and did not before."""
    told = game.story
    expected = []
    holder = None
    for point in told.points[1:]:
        best = max(point.scores)
        alone = [i for i, s in enumerate(point.scores) if s == best]
        if len(alone) == 1 and alone[0] != holder:
            expected.append((point.turn, alone[0], holder))
            holder = alone[0]
    assert [(c.turn, c.place, c.previous) for c in told.lead_changes] == expected
    for change in told.lead_changes:
        assert told.points[change.turn].scores[change.place] == change.score
    spells = told.spells()
    assert [s.start for s in spells] == [c.turn for c in told.lead_changes]
    assert all(s.start <= s.end for s in spells) and (not spells or spells[-1].end == told.turns)


def test_the_deciding_turn_is_when_the_winner_took_the_lead_for_good(game: Played) -> None:
    """The winner's last lead change, after which nobody was ever ahead of the winner again."""
    told = game.story
    winners = [s.place for s in told.ranking if s.rank == 1]
    decisive = told.decisive
    if decisive is None:
        assert (
            len(winners) > 1
            or not told.lead_changes
            or told.lead_changes[-1].place != winners[0]
            or any(p.scores[winners[0]] < max(p.scores) for p in told.points[told.lead_changes[-1].turn :])
        )
        return
    assert winners == [decisive.place] and decisive == told.lead_changes[-1]
    assert all(p.scores[decisive.place] == max(p.scores) for p in told.points[decisive.turn :])
    assert (
        told.points[decisive.turn - 1].scores[decisive.place] < max(told.points[decisive.turn - 1].scores)
        or told.points[decisive.turn - 1].scores.count(max(told.points[decisive.turn - 1].scores)) > 1
    )


def test_a_winner_caught_after_the_last_change_did_not_decide_it_then() -> None:
    """Ann leads alone, then Bob and Cyd pass her together (no one alone ahead), then Ann wins: no "for good"."""
    rows = [(0, 0, 0), (5, 0, 0), (5, 7, 7), (9, 7, 7)]
    points = [st.Point(i, 0, i, s) for i, s in enumerate(rows)]
    places = tuple(st.Place(i, i) for i in range(3))
    told = st.Story(
        "quadropolis",
        "turn",
        places,
        tuple(points),
        tuple(st.lead_changes(points)),
        st.biggest_gain(points),
        tuple(st.ranking(None, rows[-1], places)),
        True,
    )
    assert [(c.turn, c.place) for c in told.lead_changes] == [(1, 0)]
    assert told.decisive is None
    steady = [(0, 0, 0), (5, 0, 0), (5, 5, 1), (9, 7, 7)]
    points = [st.Point(i, 0, i, s) for i, s in enumerate(steady)]
    told = st.Story(
        "quadropolis",
        "turn",
        places,
        tuple(points),
        tuple(st.lead_changes(points)),
        st.biggest_gain(points),
        tuple(st.ranking(None, steady[-1], places)),
        True,
    )
    assert told.decisive == st.LeadChange(1, 0, None, 5)


def test_the_biggest_gain_is_the_largest_step_of_any_line(game: Played) -> None:
    told = game.story
    steps = [(b.scores[i] - a.scores[i], -b.turn) for a, b in pairwise(told.points) for i in range(len(told.places))]
    points, negative_turn = max(steps)
    gain = told.biggest_gain
    assert gain is not None and points > 0
    assert (gain.points, gain.turn) == (points, -negative_turn)
    assert told.points[gain.turn].scores[gain.place] - told.points[gain.turn - 1].scores[gain.place] == points


@pytest.mark.parametrize(("name", "turns"), [("quadropolis-classic", 4 * 4 * 4), ("quadropolis-expert", 5 * 4 * 3)])
def test_quadropolis_has_a_point_after_each_players_turn(name: str, turns: int) -> None:
    """4 (Expert 5) rounds of 4 turns for each player; each turn ends with a build or a discard."""
    told = played(name).story
    assert told.turns == turns
    assert {p.round for p in told.points[1:]} == set(range(1, turns // (4 * played(name).seats) + 1))
    assert [p.round for p in told.points[1:]] == sorted(p.round for p in told.points[1:])


def test_urban_panic_has_a_point_after_each_end_of_turn() -> None:
    for name in ("urbanpanic-basic", "urbanpanic-advanced"):
        game = played(name)
        ends = Counter(move["kind"] for _, move in game.log)["end_turn"]
        assert game.story.turns == ends
        assert game.story.axis == "turn"


def test_the_party_game_has_a_point_per_round_of_placements() -> None:
    """No turns in the party game: a point each time the players have placed one tile each (on average)."""
    game = played("urbanpanic-party")
    told = game.story
    assert told.axis == "round"
    tiles = [sum(p["tiles"] for p in v["players"]) for v in told.views]
    assert all(b // game.seats > a // game.seats for a, b in pairwise(tiles[:-1]))
    assert told.turns >= max(tiles) // game.seats


def test_between_two_cities_has_a_point_per_turn_of_placements() -> None:
    """Standard: three turns in rounds 1 and 3, one for the duplexes in round 2; every city grows at each."""
    told = played("btc-standard").story
    assert [p.round for p in told.points[1:]] == [1, 1, 1, 2, 3, 3, 3]
    sizes = [sum(c["size"] for c in v["cities"]) for v in told.views]
    assert sizes == sorted(sizes) and len(set(sizes)) == len(sizes)


def test_the_score_is_the_lower_city_and_two_players_count_both() -> None:
    for name, both in (("btc-standard", False), ("btc-two-player", True)):
        told = played(name).story
        for view, point in zip(told.views, told.points):
            totals = {c["city"]: c["total"] for c in view["cities"]}
            for i, p in enumerate(view["players"]):
                pair = (totals[p["left_city"]], totals[p["right_city"]])
                assert point.scores[i] == (sum(pair) if both else min(pair))


def test_the_story_reads_only_the_spectators_view(game: Played, monkeypatch: pytest.MonkeyPatch) -> None:
    """No seat's own view (a hand, a committed choice) is ever asked for; the kept views show no hand."""
    rules = games.rules(game.kind)
    asked: list[Any] = []
    real = type(rules).view

    def spy(self: Any, state: Any, seat: int | None) -> dict[str, Any]:
        asked.append(seat)
        return real(self, state, seat)

    monkeypatch.setattr(type(rules), "view", spy)
    told = game.build(keep_views=True)
    assert asked and set(asked) == {None}
    for view in told.views:
        assert view.get("you") is None
        for player in view["players"] if isinstance(view.get("players"), list) else []:
            assert player.get("hand") in (None, "hidden") or player.get("automa") is not None


def test_a_log_cut_short_tells_the_story_so_far(game: Played) -> None:
    """An unfinished game (abandoned, or a player resigned) ends on the scores as they stood."""
    half = game.log[: len(game.log) // 2]
    told = game.build(half)
    assert not told.over
    assert told.points[-1].version == len(half)
    by_score = sorted(range(len(told.places)), key=lambda i: -told.final[i])
    assert told.ranking[0].place == by_score[0]
    assert [s.total for s in told.ranking] == sorted(told.final, reverse=True)


def test_an_empty_log_is_the_start_alone() -> None:
    told = played("quadropolis-classic").build([])
    assert len(told.points) == 1 and told.lead_changes == () and told.biggest_gain is None
    assert all(s.rank == 1 for s in told.ranking)


def _sentence(error: GameError) -> str:
    text = i18n.t(error.key, "en", **error.params)
    assert text != error.key and "{" not in text
    return text


def test_a_log_the_rules_refuse_gets_a_sentence_naming_the_move() -> None:
    game = played("quadropolis-classic")
    broken = [*game.log[:5], (game.log[5][0], {"kind": "take", "architect": 9, "slot": "Z9"}), *game.log[6:]]
    with pytest.raises(GameError) as caught:
        game.build(broken)
    assert caught.value.key == "story.error.replay" and caught.value.params["number"] == 6
    assert "6" in _sentence(caught.value)
    for bad in ([(0, "take")], [("zero", {"kind": "take"})], [42], [(SYSTEM_SEAT, {"kind": "nothing"})]):
        with pytest.raises(GameError) as caught:
            game.build(bad)
        assert caught.value.key == "story.error.replay" and caught.value.params["number"] == 1
    with pytest.raises(GameError) as caught:
        game.build([*game.log, game.log[-1]])  # a move after the end
    assert caught.value.params["number"] == len(game.log) + 1


def test_wrong_seats_options_or_game_get_a_sentence() -> None:
    with pytest.raises(GameError) as caught:
        st.build("quadropolis", {"mode": "classic"}, 9, 1, [])
    assert caught.value.key == "story.error.seats"
    assert "9" in _sentence(caught.value)
    with pytest.raises(GameError) as caught:
        st.build("quadropolis", {"mode": "chess"}, 2, 1, [])
    assert caught.value.key == "story.error.options"
    _sentence(caught.value)
    with pytest.raises(GameError) as caught:
        st.build("chess", {}, 2, 1, [])
    assert caught.value.key == "error.unknown_game"


def test_a_game_without_a_story_says_so() -> None:
    """The toy game (registered by the test suite) has rules but no story."""
    with pytest.raises(GameError) as caught:
        st.build("toy", {}, 2, 1, [])
    assert caught.value.key == "story.error.unavailable"
    _sentence(caught.value)


def test_every_declared_game_tells_a_story() -> None:
    assert {kind for kind, game in games.GAMES.items() if game.story is not None} == set(games.GAMES)


def test_stored_rows_are_read_as_well_as_pairs() -> None:
    """The store's move rows (with ``seat`` and ``move``) replay like (seat, move) pairs."""

    class Row:
        def __init__(self, seat: int, move: dict[str, Any]) -> None:
            self.seat, self.move = seat, move

    game = played("btc-two-player")
    rows = [Row(seat, move) for seat, move in game.log]
    assert game.build(rows).points == game.story.points
