"""The rules object of Between Two Cities: ``RULES`` (kind ``"btc"``).

Moves, tiles and cells are described in :mod:`bot.rules.btc.engine`; views and
summaries in :mod:`~bot.rules.btc.views`; the AI in :mod:`~.ai`.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from bot.rules import core
from bot.rules.btc import ai, hidden, views
from bot.rules.btc import engine as E
from bot.rules.btc import state as S
from bot.rules.btc.state import BtcState
from bot.rules.btc.viewtypes import BtcView
from bot.rules.core import GameOver, IllegalMove, Move, OptionSpec, Result


class BetweenTwoCities(core.GameRules[BtcState]):
    """Between Two Cities for 1-7 seats: 3-7 players, the 2-player variant, solo Simple and Full."""

    kind = "btc"
    title_key = "btc.title"
    option_specs = (
        OptionSpec("mode", E.MODES, E.STANDARD, "btc.help.mode"),
        OptionSpec("difficulty", tuple(str(i) for i in range(1, 8)), "4", "btc.help.difficulty"),
        OptionSpec("campaign", ("off", *E.CAMPAIGN_LENGTHS), "off", "btc.help.campaign"),
        OptionSpec("campaign_game", tuple(str(i) for i in range(1, 7)), "1", "btc.help.campaign_game"),
        OptionSpec("campaign_used", E.type_subsets(), E.NO_TYPES, "btc.help.campaign_used", shown=False),
    )
    ai_levels = ai.LEVELS

    # -- lobby -------------------------------------------------------------------------------
    def seat_range(self, options: Mapping[str, Any]) -> tuple[int, int]:
        return E.RANGES.get(str(options.get("mode", E.STANDARD)), E.RANGES[E.STANDARD])

    def normalise_options(self, options: Mapping[str, Any]) -> dict[str, Any]:
        """Defaults and choices (core), then the campaign options' consistency (10.10)."""
        out = super().normalise_options(options)
        game, used = int(out["campaign_game"]), out["campaign_used"]
        n_used = 0 if used == E.NO_TYPES else len(used)
        if out["campaign"] == "off":
            if game != 1 or n_used:
                raise IllegalMove("btc.option.campaign_off")
            return out
        if out["mode"] not in E.SOLO_MODES:
            raise IllegalMove("btc.option.campaign_solo")
        length = int(out["campaign"])
        if game > length:
            raise IllegalMove("btc.option.campaign_game", game=game, length=length)
        if n_used != game - 1:
            raise IllegalMove("btc.option.campaign_used", game=game, expected=game - 1, given=n_used)
        return out

    # -- play --------------------------------------------------------------------------------
    def setup(self, options: Mapping[str, Any], seat_count: int, seed: int) -> BtcState:
        return E.new_game(self.normalise_options(options), seat_count, seed)

    def awaiting(self, state: BtcState) -> frozenset[int]:
        return E.awaited(state)

    def legal_moves(self, state: BtcState, seat: int) -> list[Move]:
        return E.legal_moves(state, seat)

    def apply(self, state: BtcState, seat: int, move: Move) -> BtcState:
        if state.phase == "over":
            raise GameOver()
        if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < state.seats:
            raise IllegalMove("btc.seat.unknown", seat=seat)
        if not isinstance(move, Mapping) or not isinstance(move.get("kind"), str):
            raise IllegalMove("btc.move.bad")
        after = state.clone()
        E.apply_move(after, seat, move)
        return after

    def is_over(self, state: BtcState) -> bool:
        return state.phase == "over"

    def result(self, state: BtcState) -> Result:
        return E.game_result(state)

    def view(self, state: BtcState, seat: int | None) -> BtcView:
        return views.view(state, seat)

    # -- serialisation -----------------------------------------------------------------------
    def to_json(self, state: BtcState) -> dict[str, Any]:
        return S.to_json(state)

    def from_json(self, data: Mapping[str, Any]) -> BtcState:
        return S.from_json(data)

    # -- helpers for front-ends ------------------------------------------------------------
    def describe(self, before: BtcState, seat: int, move: Move, after: BtcState) -> tuple[str, dict[str, Any]]:
        return views.describe(before, seat, move, after)

    def undoable(self, before: BtcState, seat: int, move: Move, after: BtcState) -> bool:
        """Never: a submitted placement is final (D-27), and a commit or a reveal shows information."""
        return False

    def ai_move(self, state: BtcState, seat: int, level: str, seed: int) -> Move:
        return ai.choose_move(state, seat, level, seed)

    def observe(self, state: BtcState, seat: int, known: Any) -> list[int]:
        """The tile numbers ``seat`` has seen, hands passed on included (see :mod:`.hidden`)."""
        return hidden.observe(state, seat, known)

    def determinize(self, state: BtcState, seat: int, known: Any, seed: int) -> BtcState:
        """Unseen kinds dealt again, the others' unrevealed choices taken back (see :mod:`.hidden`)."""
        return hidden.determinize(state, seat, known, seed)


RULES = BetweenTwoCities()
