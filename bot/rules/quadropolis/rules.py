"""The rules object of Quadropolis (Classic and Expert): ``RULES`` (kind ``"quadropolis"``).

Moves, setup, apply and scoring are in :mod:`bot.rules.quadropolis.engine`; the view and the
summaries of moves in :mod:`~bot.rules.quadropolis.views`; the AI in :mod:`~.ai`.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from bot.rules import core
from bot.rules.core import GameRules, IllegalMove, Move, OptionSpec
from bot.rules.quadropolis import ai, hidden, views
from bot.rules.quadropolis import engine as E
from bot.rules.quadropolis.scoring import ScoreSheet
from bot.rules.quadropolis.state import QuadState
from bot.rules.quadropolis.viewtypes import QuadView


class QuadropolisRules(GameRules[QuadState]):
    """Quadropolis, Classic (4 rounds, 4x4 city) and Expert (5 rounds, 4x5 city, offices, monuments)."""

    kind = "quadropolis"
    title_key = "quadropolis.title"
    option_specs = (OptionSpec("mode", ("classic", "expert"), "classic", "quadropolis.option.mode"),)
    ai_levels = ai.LEVELS

    def seat_range(self, options: Mapping[str, Any]) -> tuple[int, int]:
        return (2, 4)

    # -- setup -------------------------------------------------------------------------------
    def setup(self, options: Mapping[str, Any], seat_count: int, seed: int) -> QuadState:
        opts = self.normalise_options(options)
        lo, hi = self.seat_range(opts)
        if not lo <= seat_count <= hi:
            raise IllegalMove("quadropolis.setup.players", players=seat_count, low=lo, high=hi)
        return E.new_game(opts, seat_count, seed)

    # -- queries -----------------------------------------------------------------------------
    def awaiting(self, state: QuadState) -> frozenset[int]:
        return frozenset() if state.over else frozenset({state.current})

    def is_over(self, state: QuadState) -> bool:
        return state.over

    def play_moves(self, state: QuadState, seat: int) -> list[Move]:
        """The legal moves: take, then build or discard. Never ``allocate`` (D-24)."""
        return E.legal_moves(state, seat)

    def legal_moves(self, state: QuadState, seat: int) -> list[Move]:
        return E.legal_moves(state, seat)

    # -- apply -------------------------------------------------------------------------------
    def apply(self, state: QuadState, seat: int, move: Move) -> QuadState:
        return E.apply(state, seat, move)

    # -- scoring -----------------------------------------------------------------------------
    def sheet(self, state: QuadState, seat: int) -> ScoreSheet:
        """A seat's score under its best allocation: the one every player gets at the end (8.12, D-24)."""
        return E.sheet(state, seat)

    def result(self, state: QuadState) -> core.Result:
        return E.game_result(state)

    # -- views -------------------------------------------------------------------------------
    def view(self, state: QuadState, seat: int | None) -> QuadView:
        """Everything a renderer and the Discord layer need; the same for every seat (see :func:`views.view`)."""
        return views.view(state, seat)

    # -- serialisation -----------------------------------------------------------------------
    def to_json(self, state: QuadState) -> dict[str, Any]:
        return state.to_json()

    def from_json(self, data: Mapping[str, Any]) -> QuadState:
        return QuadState.from_json(data)

    # -- front-end helpers -------------------------------------------------------------------
    def describe(self, before: QuadState, seat: int, move: Move, after: QuadState) -> tuple[str, dict[str, Any]]:
        return views.describe(before, seat, move)

    def undoable(self, before: QuadState, seat: int, move: Move, after: QuadState) -> bool:
        """Undoable unless the move ended a round (a new site was dealt) or the game."""
        return after.round == before.round and not after.over

    def ai_move(self, state: QuadState, seat: int, level: str, seed: int) -> Move:
        return ai.choose(state, seat, level, seed)

    def determinize(self, state: QuadState, seat: int, known: Any, seed: int) -> QuadState:
        """Later rounds' sites and this round's face-down tiles dealt again (see :mod:`.hidden`)."""
        return hidden.determinize(state, seed)


RULES = QuadropolisRules()
