"""Shared helpers for the Quadropolis tests."""

from __future__ import annotations

from bot.rules.quadropolis.allocation import best_allocation
from bot.rules.quadropolis.calculator import score_given
from bot.rules.quadropolis.notation import parse_city
from bot.rules.quadropolis.scoring import ScoreSheet
from bot.rules.quadropolis.tiles import MODE_RULES

CLASSIC = MODE_RULES["classic"]
EXPERT = MODE_RULES["expert"]


def city(text: str) -> list[str]:
    """Spec notation with rows separated by ' / '."""
    return [row.strip() for row in text.split("/")]


def fixed(mode: str, text: str, inhabitants: int, energy: int) -> ScoreSheet:
    """Score a spec city with the allocation its tokens give."""
    rules = MODE_RULES[mode]
    return score_given(rules, parse_city(rules, city(text)), inhabitants, energy)


def optimal(mode: str, text: str, inhabitants: int, energy: int) -> ScoreSheet:
    """Score a spec city with the engine's best allocation."""
    rules = MODE_RULES[mode]
    return best_allocation(rules, parse_city(rules, city(text)).grid, inhabitants, energy)


def nonzero(sheet: ScoreSheet) -> dict[str, int]:
    return {k: v for k, v in sheet.categories.items() if v}
