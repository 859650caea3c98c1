"""Seeded games played to the end by the rules' own AI, one per game and mode, shared by the story tests."""

from __future__ import annotations

from functools import cache
from typing import Any

import pytest

from bot import story as st
from bot.benches.story import play_logged

GAMES: dict[str, tuple[str, dict[str, str], int, int]] = {
    "quadropolis-classic": ("quadropolis", {"mode": "classic"}, 4, 3),
    "quadropolis-expert": ("quadropolis", {"mode": "expert"}, 3, 4),
    "btc-standard": ("btc", {"mode": "standard"}, 4, 5),
    "btc-two-player": ("btc", {"mode": "two_player"}, 2, 6),
    "btc-solo-full": ("btc", {"mode": "solo_full"}, 1, 7),
    "btc-solo-simple": ("btc", {"mode": "solo_simple"}, 1, 8),
    "urbanpanic-basic": ("urbanpanic", {"variant": "basic"}, 3, 9),
    "urbanpanic-advanced": ("urbanpanic", {"variant": "advanced"}, 4, 10),
    "urbanpanic-party": ("urbanpanic", {"variant": "party"}, 3, 12),
}
"""name -> (kind, options, seats, seed)."""
NAMES = ["Ödön", "Łukasz", "Жанна", "Bob", "Eve", "Fay", "Gus"]


class Played:
    """A finished game: its final state, its log, and its story (with the views for the animation)."""

    def __init__(self, name: str) -> None:
        self.kind, self.options, self.seats, self.seed = GAMES[name]
        self.state, self.log = play_logged(self.kind, self.options, self.seats, self.seed)
        self.story = st.build(self.kind, self.options, self.seats, self.seed, self.log, keep_views=True)
        self.names = NAMES[: self.seats]

    def build(self, moves: Any = None, **kwargs: Any) -> st.Story:
        return st.build(self.kind, self.options, self.seats, self.seed, self.log if moves is None else moves, **kwargs)


@cache
def played(name: str) -> Played:
    return Played(name)


@pytest.fixture(params=list(GAMES))
def game(request: pytest.FixtureRequest) -> Played:
    """Every game and mode, each played once per test session."""
    return played(request.param)
