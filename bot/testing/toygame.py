"""A tiny two-seat game with simultaneous secret choices, proving the rules protocol.

"Sealed bids": three rounds; each round both seats secretly bid a card 1-3 they still hold. When
both have bid, the bids are revealed together; the higher bid wins the round (a tie wins nothing).
Most rounds won wins; the tie-break is the higher sum of revealed winning bids.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any

from bot.rules import core

ROUNDS = 3


@dataclass(frozen=True)
class BidState:
    hands: tuple[tuple[int, ...], tuple[int, ...]]
    pending: tuple[int | None, int | None]
    revealed: tuple[tuple[int, int], ...]
    first_bidder_bonus: int


class SealedBids(core.GameRules[BidState]):
    kind = "toy"
    title_key = "toy.title"
    option_specs = (core.OptionSpec("speed", ("normal", "fast"), "normal"),)
    ai_levels = ("random", "greedy")

    def seat_range(self, options: Mapping[str, Any]) -> tuple[int, int]:
        return (2, 2)

    def setup(self, options: Mapping[str, Any], seat_count: int, seed: int) -> BidState:
        return BidState(((1, 2, 3), (1, 2, 3)), (None, None), (), core.rng(seed, "bonus").randint(0, 1))

    def awaiting(self, state: BidState) -> frozenset[int]:
        if self.is_over(state):
            return frozenset()
        return frozenset(i for i in (0, 1) if state.pending[i] is None)

    def legal_moves(self, state: BidState, seat: int) -> list[core.Move]:
        if seat not in self.awaiting(state):
            return []
        return [{"kind": "bid", "card": c} for c in state.hands[seat]]

    def apply(self, state: BidState, seat: int, move: core.Move) -> BidState:
        if self.is_over(state):
            raise core.GameOver()
        if seat not in self.awaiting(state):
            raise core.NotYourTurn()
        if move.get("kind") != "bid":
            raise core.IllegalMove("toy.unknown_move")
        card = move.get("card")
        if card not in state.hands[seat]:
            raise core.IllegalMove("toy.no_such_card", card=card)
        pending = list(state.pending)
        pending[seat] = card
        hands = list(state.hands)
        hands[seat] = tuple(c for c in state.hands[seat] if c != card)
        if None in pending:
            return replace(state, pending=(pending[0], pending[1]), hands=(hands[0], hands[1]))
        a, b = pending
        assert a is not None and b is not None
        return replace(state, pending=(None, None), hands=(hands[0], hands[1]), revealed=(*state.revealed, (a, b)))

    def is_over(self, state: BidState) -> bool:
        return len(state.revealed) == ROUNDS

    def result(self, state: BidState) -> core.Result:
        wins = [0, 0]
        sums = [0, 0]
        for a, b in state.revealed:
            if a != b:
                w = 0 if a > b else 1
                wins[w] += 1
                sums[w] += max(a, b)
        return core.build_result(
            wins, [{"rounds": w} for w in wins], [(s,) for s in sums], names=("score", "tiebreak.bids")
        )

    def view(self, state: BidState, seat: int | None) -> dict[str, Any]:
        return {
            "revealed": [list(r) for r in state.revealed],
            "committed": [p is not None for p in state.pending],
            "hand": list(state.hands[seat]) if seat is not None else None,
            "my_bid": state.pending[seat] if seat is not None else None,
        }

    def to_json(self, state: BidState) -> dict[str, Any]:
        return {
            "hands": [list(h) for h in state.hands],
            "pending": list(state.pending),
            "revealed": [list(r) for r in state.revealed],
            "bonus": state.first_bidder_bonus,
        }

    def from_json(self, data: Mapping[str, Any]) -> BidState:
        h = data["hands"]
        p = data["pending"]
        return BidState(
            (tuple(h[0]), tuple(h[1])), (p[0], p[1]), tuple((r[0], r[1]) for r in data["revealed"]), data["bonus"]
        )

    def describe(self, before: BidState, seat: int, move: core.Move, after: BidState) -> tuple[str, dict[str, Any]]:
        if len(after.revealed) > len(before.revealed):
            a, b = after.revealed[-1]
            return ("toy.revealed", {"seat": seat, "a": a, "b": b})
        return ("toy.committed", {"seat": seat})

    def undoable(self, before: BidState, seat: int, move: core.Move, after: BidState) -> bool:
        return len(after.revealed) == len(before.revealed)

    def ai_move(self, state: BidState, seat: int, level: str, seed: int) -> core.Move:
        moves = self.legal_moves(state, seat)
        if level == "greedy":
            return max(moves, key=lambda m: int(m["card"]))
        return core.rng(seed).choice(moves)


RULES = SealedBids()
