"""The rules object of Urban Panic (basic, advanced and party variants): ``RULES`` (kind ``"urbanpanic"``).

Moves, setup, apply, timing and scoring are in :mod:`bot.rules.urbanpanic.engine` (its docstring
lists the moves); the view in :mod:`~bot.rules.urbanpanic.views`; the AI in :mod:`~.ai`.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from bot.rules import core
from bot.rules.core import IllegalMove, Move, OptionSpec
from bot.rules.urbanpanic import ai, hidden, scoring, tiles, views
from bot.rules.urbanpanic import engine as E
from bot.rules.urbanpanic.engine import PARTY_MINUTES, PARTY_MINUTES_DEFAULT
from bot.rules.urbanpanic.state import VARIANTS, State
from bot.rules.urbanpanic.viewtypes import UpView


class UrbanPanicRules(core.GameRules[State]):
    """Urban Panic for 2–4 players; option ``variant``: basic, advanced or party."""

    kind = "urbanpanic"
    title_key = "urbanpanic.title"
    option_specs = (
        OptionSpec("variant", VARIANTS, "basic", help_key="urbanpanic.option.variant"),
        OptionSpec("party_minutes", PARTY_MINUTES, PARTY_MINUTES_DEFAULT, help_key="urbanpanic.option.party_minutes"),
        OptionSpec("party_goals", ("off", "on"), "off", help_key="urbanpanic.option.party_goals"),
    )
    ai_levels = ai.LEVELS
    uses_time = True  # the service stamps every move with "at" (epoch ms): the party timer needs it

    # -- lobby -------------------------------------------------------------------------------
    def seat_range(self, options: Mapping[str, Any]) -> tuple[int, int]:
        """2–4 players in every variant (D-27)."""
        return (2, 4)

    def normalise_options(self, options: Mapping[str, Any]) -> dict[str, Any]:
        """Defaults and choices; the party options (12.4 cap in minutes, D-18 goal cards) say in a
        sentence what they accept, and are refused with another variant (its rules fix them)."""
        minutes = str(options.get("party_minutes", PARTY_MINUTES_DEFAULT))
        if minutes not in PARTY_MINUTES:
            raise IllegalMove("urbanpanic.option.party_minutes.bad", value=minutes, choices=", ".join(PARTY_MINUTES))
        switch = str(options.get("party_goals", "off"))
        if switch not in ("off", "on"):
            raise IllegalMove("urbanpanic.option.party_goals.bad", value=switch)
        out = super().normalise_options(options)
        if out["variant"] != "party":
            if minutes != PARTY_MINUTES_DEFAULT:
                raise IllegalMove(
                    "urbanpanic.option.party_minutes.party_only", variant=tiles.variant_term(str(out["variant"]))
                )
            if switch != "off":
                raise IllegalMove(
                    "urbanpanic.option.party_goals.party_only", variant=tiles.variant_term(str(out["variant"]))
                )
        return out

    # -- setup -------------------------------------------------------------------------------
    def setup(self, options: Mapping[str, Any], seat_count: int, seed: int) -> State:
        """Spec 7 (basic), 11.1 (goal cards), 12.1 (party, with the host's cap of 12.4 and goal
        cards if switched on, D-18). The start player is random (D-15)."""
        chosen = self.normalise_options(options)
        low, high = self.seat_range(options)
        if not low <= seat_count <= high:
            raise IllegalMove("urbanpanic.seats", count=seat_count, low=low, high=high)
        return E.new_game(chosen, seat_count, seed)

    # -- who acts ----------------------------------------------------------------------------
    def awaiting(self, state: State) -> frozenset[int]:
        """The current player; in the party game every seat whose city is not full."""
        return E.awaiting(state)

    def is_over(self, state: State) -> bool:
        return state.over

    def legal_moves(self, state: State, seat: int) -> list[Move]:
        """Every legal move of ``seat`` now, without ``"at"`` (see :func:`engine.legal_moves`)."""
        return E.legal_moves(state, seat)

    def apply(self, state: State, seat: int, move: Move) -> State:
        return E.apply(state, seat, move)

    # -- party timing ------------------------------------------------------------------------
    def timer_deadline(self, state: State) -> int | None:
        """Party: the hourglass deadline once a city is full, else the safety cap (epoch ms)."""
        return state.deadline()

    def system_move(self, state: State, now_ms: int) -> Move | None:
        """``{"kind": "timeout"}`` once ``now_ms`` reaches the party deadline, else None."""
        deadline = state.deadline()
        if deadline is not None and now_ms >= deadline:
            return {"kind": "timeout"}
        return None

    # -- results -----------------------------------------------------------------------------
    def score(self, state: State) -> scoring.TableScore:
        """Spec 10 (and 12.5 in the party game) on the boards as they stand."""
        return E.score(state)

    def result(self, state: State) -> core.Result:
        """Totals with breakdown keys ``scoring.CATEGORIES``; tie-break: fewer empty plots (see
        :func:`engine.game_result`)."""
        return E.game_result(state)

    # -- view --------------------------------------------------------------------------------
    def view(self, state: State, seat: int | None) -> UpView:
        """What ``seat`` (None: a spectator) may see (see :func:`views.view`)."""
        return views.view(state, seat)

    # -- serialisation -----------------------------------------------------------------------
    def to_json(self, state: State) -> dict[str, Any]:
        return state.to_json()

    def from_json(self, data: Mapping[str, Any]) -> State:
        return State.from_json(data)

    # -- front-end helpers -------------------------------------------------------------------
    def describe(self, before: State, seat: int, move: Move, after: State) -> tuple[str, dict[str, Any]]:
        """A public one-liner; never names the tile a party player drew (see :func:`engine.describe`)."""
        return E.describe(before, seat, move, after)

    def undoable(self, before: State, seat: int, move: Move, after: State) -> bool:
        """Planner, Engineer and Spy moves, and the advanced Architect (no refill), reveal nothing.

        A basic Architect reveals the refill, a Mayor four tiles, END_TURN hands the turn on; party
        moves happen in real time next to other players and are never taken back.
        """
        if after.over or before.party:
            return False
        kind = move.get("kind")
        if kind == "architect":
            return before.variant == "advanced"
        return kind in ("planner", "engineer_board", "engineer_reserve", "spy")

    def ai_move(self, state: State, seat: int, level: str, seed: int) -> Move:
        """A legal move for ``seat`` by the AI ``level`` ("random", "greedy" or "strong"), deterministic in seed."""
        return ai.choose(self, state, seat, level, seed)

    def determinize(self, state: State, seat: int, known: Any, seed: int) -> State:
        """The stack (party: the pool and the others' hands) dealt again from what ``seat`` has not seen
        (see :mod:`.hidden`)."""
        return hidden.determinize(state, seat, seed)


RULES = UrbanPanicRules()
