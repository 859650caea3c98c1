"""Between Two Cities' scores and results: each city's score and its modifier, the standing with its tie-breaks,
the game's :class:`~bot.rules.core.Result` and a solo campaign game's summary."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from typing import Any

from bot.rules import core
from bot.rules.btc import scoring
from bot.rules.btc import tiles as T
from bot.rules.btc.state import BtcState
from bot.rules.btc.table import (
    AUTOMACITY,
    LEFT_CITY,
    LETTER_CATEGORY,
    NO_TYPES,
    RIGHT_CITY,
    TIEBREAK_NAMES,
    TWO_PLAYER,
    automa_term,
    cities_of,
    city_term,
    factory_counts,
    is_solo,
)
from bot.rules.core import Result

# ---------------------------------------------------------------------------------------------
# Scores and results
# ---------------------------------------------------------------------------------------------


def modifier(state: BtcState, city: int) -> int:
    """Automacity's difficulty modifier (10.9); 0 for every other city."""
    if is_solo(state) and city == AUTOMACITY:
        return T.DIFFICULTY_MODIFIER[state.options.get("difficulty", "4")]
    return 0


def city_scores(state: BtcState) -> list[dict[str, int]]:
    """The six category scores of every city now (Automacity: maximal, without the modifier)."""
    counts = factory_counts(state)
    out = []
    for i, city in enumerate(state.cities):
        value = scoring.per_factory(counts[i], counts)
        if city.grid:
            faces = {cell: spot[0] for cell, spot in city.cells.items()}
            out.append(scoring.score_grid(faces, value))
        else:
            out.append(scoring.score_automacity(city.faces(), value))
    return out


def city_totals(state: BtcState, scores: list[dict[str, int]] | None = None) -> list[int]:
    """Every city's total, Automacity's with its difficulty modifier."""
    scores = scores if scores is not None else city_scores(state)
    return [scoring.total(s) + modifier(state, i) for i, s in enumerate(scores)]


def standing(
    totals: Sequence[int], buildings: Sequence[Sequence[int]], left: int, right: int, two_player: bool
) -> tuple[int, tuple[int, ...]]:
    """(final score, tie-break key) of a player from the totals and building counts of every city.

    3-7 players and solo (8.8): the lower city, then the higher city, then buildings over both
    cities type by type (a shared city counts for both partners, D-10). 2-player (section 9): the
    sum of both cities, then the building counts only.
    """
    counts = tuple(a + b for a, b in zip(buildings[left], buildings[right], strict=True))
    if two_player:
        return totals[left] + totals[right], counts
    return min(totals[left], totals[right]), (max(totals[left], totals[right]), *counts)


def tiebreak_names(two_player: bool) -> tuple[str, ...]:
    """``names`` for core.build_result: what each component of (final, *tie-break) means."""
    return (TIEBREAK_NAMES[0], *TIEBREAK_NAMES[2:]) if two_player else TIEBREAK_NAMES


def _table_result(state: BtcState) -> tuple[Result, list[dict[str, Any]]]:
    """Ranking of every place at the table (solo: you and both Automas)."""
    scores = city_scores(state)
    totals = city_totals(state, scores)
    buildings = [tuple(scoring.type_counts(c.faces()).values()) for c in state.cities]
    finals: list[int] = []
    breakdowns: list[dict[str, int]] = []
    tiebreaks: list[tuple[int, ...]] = []
    details: list[dict[str, Any]] = []
    two = state.mode == TWO_PLAYER
    for player in range(len(state.players)):
        left, right = cities_of(state, player)
        final, tiebreak = standing(totals, buildings, left, right, two)
        lower_city = right if totals[right] < totals[left] else left
        if two:
            breakdown = {c: scores[left][c] + scores[right][c] for c in scoring.CATEGORIES}
        else:
            breakdown = dict(scores[lower_city])
            if modifier(state, lower_city):
                breakdown["difficulty"] = modifier(state, lower_city)
        finals.append(final)
        breakdowns.append(breakdown)
        tiebreaks.append(tiebreak)
        details.append(
            {
                "left_city": left,
                "right_city": right,
                "lower_city": lower_city,
                "cities": {
                    "left": {**scores[left], "modifier": modifier(state, left), "total": totals[left]},
                    "right": {**scores[right], "modifier": modifier(state, right), "total": totals[right]},
                },
                "higher": max(totals[left], totals[right]),
                "buildings": dict(zip(scoring.CATEGORIES, tiebreak[-len(T.TYPES) :], strict=True)),
            }
        )
    result = core.build_result(finals, breakdowns, tiebreaks, names=tiebreak_names(two), details=details)
    cities = [
        {
            "city": i,
            "name": city_term(c.name),
            "categories": scores[i],
            "modifier": modifier(state, i),
            "total": totals[i],
        }
        for i, c in enumerate(state.cities)
    ]
    return result, cities


def game_result(state: BtcState) -> Result:
    """The result (provisional before the end). Solo: only seat 0, ranked against the Automas."""
    table, cities = _table_result(state)
    details: dict[str, Any] = {"cities": cities, "over": state.phase == "over"}
    if not is_solo(state):
        return replace(table, details=details)
    human = table.seats[0]
    details["automas"] = [{**s.to_json(), "name": automa_term(s.seat)} for s in table.seats[1:]]
    details["difficulty"] = int(state.options.get("difficulty", "4"))
    seat_details = dict(human.details)
    if state.options.get("campaign", "off") != "off":
        seat_details["campaign"] = campaign_summary(state, human.rank == 1)
    automas = tuple(s.total for s in table.seats[1:])
    return Result((replace(human, details=seat_details),), table.decided_by, details, rivals=automas)


def campaign_summary(state: BtcState, won: bool) -> dict[str, Any]:
    """What the campaign record needs from this game (10.10, D-23, D-24)."""
    totals = city_totals(state)
    cp = min(totals[LEFT_CITY], totals[RIGHT_CITY])
    used = [LETTER_CATEGORY[x] for x in state.options.get("campaign_used", NO_TYPES) if x in LETTER_CATEGORY]
    out: dict[str, Any] = {
        "length": int(state.options["campaign"]),
        "game": int(state.options.get("campaign_game", "1")),
        "won": won,
        "campaign_points": cp,
        "used_before": used,
        "bonus_type": None,
        "bonus_city": None,
        "bonus": 0,
        "total": cp,
    }
    if state.bonus is not None:
        scores = city_scores(state)
        category, city = state.bonus["type"], state.bonus["city"]
        points = scores[city][category] * (2 if won else 1)
        out.update(
            bonus_type=category,
            bonus_city=city,
            bonus=points,
            total=cp + points,
            used_after=[c for c in scoring.CATEGORIES if c in used or c == category],
        )
    return out
