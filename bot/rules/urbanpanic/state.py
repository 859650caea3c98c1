"""The Urban Panic game state: plain data, JSON round-trip, cheap copies.

Tiles are stored by code (``"FAC-NE"``); identical tiles are interchangeable. Every one of the 120
tiles is always in exactly one place: a board square, a reserve (turn games) or hand (party), a
main-board slot, the face-down stack (the party's pool), the discard pile, or the party's open
table. :func:`census` counts them all so tests and benches can check conservation.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from bot.rules.urbanpanic import tiles

VARIANTS = ("basic", "advanced", "party")
PARTY_TIMER_MS = 60_000
"""The hourglass (spec 12.3)."""
PARTY_CAP_MS = 15 * 60_000
"""Safety cap of the party game, counted from its first timed move (spec 12.4, D-24)."""

END_REASONS = ("", "full_city", "stack", "stalemate", "all_finished", "timer", "cap")
"""Why the game ended: trigger A, trigger B, the stalemate guard (turn games); every city full,
the hourglass, the safety cap (party)."""


@dataclass
class Player:
    """One seat: its city, its tracks, its reserve (turn games) or hand (party)."""

    board: list[str | None] = field(default_factory=tiles.empty_board)
    """25 squares in reading order (A1, B1, … E5); index 12 is the centre and always None."""
    tracks: list[int] = field(default_factory=lambda: list(tiles.ZERO))
    """(residents, jobs, ecology, income, satisfaction); in the party game the tracks are not kept
    during play (they are computed at scoring) and stay 0."""
    reserve: list[str] = field(default_factory=list)
    """Up to 3 face-up tiles in the order they were taken (turn games)."""
    hand: str | None = None
    """The party game's one-tile hand."""

    def copy(self) -> Player:
        return Player(list(self.board), list(self.tracks), list(self.reserve), self.hand)

    def tiles_on_board(self) -> int:
        return sum(1 for c in self.board if c is not None)

    def empty_plots(self) -> list[int]:
        return [i for i in tiles.PLOTS if self.board[i] is None]

    def to_json(self) -> dict[str, Any]:
        return {
            "board": list(self.board),
            "tracks": list(self.tracks),
            "reserve": list(self.reserve),
            "hand": self.hand,
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Player:
        return cls(list(data["board"]), [int(v) for v in data["tracks"]], list(data["reserve"]), data.get("hand"))


@dataclass
class State:
    """A whole game. ``apply`` works on a :meth:`copy`, never on the original."""

    variant: str
    players: list[Player]
    stack: list[str]
    """Face-down stack (party: the pool); the top is the **last** element. Hidden order."""
    slots: list[str | None] = field(default_factory=list)
    """Main-board slots 1–4 (turn games); None for an empty slot."""
    discard: list[str] = field(default_factory=list)
    """Out of the game: Mayor discards; in the party game, tiles still in hands at the end."""
    goals: list[str] = field(default_factory=list)
    """Goal cards dealt face-up (advanced)."""
    current: int = 0
    points: int = tiles.TURN_POINTS
    architect_done: bool = False
    productive: bool = False
    """Whether this turn had an Architect, Planner or Spy (stalemate guard, D-11)."""
    idle_turns: int = 0
    """Consecutive completed turns without an Architect, Planner or Spy."""
    turn: int = 1
    """Turn counter (1 = the first turn of the game)."""
    first_finisher: int | None = None
    """Trigger A's player (turn games) or the party's finisher."""
    trigger_b: bool = False
    """Basic game: the stack could not refill a slot; the game ends with this turn."""
    over: bool = False
    end_reason: str = ""
    open_table: list[str] = field(default_factory=list)
    """Party: face-up dropped tiles anyone may take, in the order they were dropped."""
    first_at: int | None = None
    """Party: epoch ms of the first timed move (start of the safety cap)."""
    timer_at: int | None = None
    """Party: epoch ms of the move that filled the first city (start of the hourglass)."""
    cap_ms: int = PARTY_CAP_MS
    turn_log: list[dict[str, Any]] = field(default_factory=list)
    """Turn games: the public actions of the turn in progress, in order (what ``describe`` says of
    each: ``{"kind": "planner", "tile": "FAC-NE", "plot": "B3"}``), so a front-end can tell a
    whole turn in one line."""
    previous_turn: dict[str, Any] | None = None
    """Turn games: ``{"seat", "turn", "actions"}`` of the last completed turn (its ``turn_log``)."""

    @property
    def seats(self) -> int:
        return len(self.players)

    @property
    def party(self) -> bool:
        return self.variant == "party"

    def copy(self) -> State:
        return State(
            variant=self.variant,
            players=[p.copy() for p in self.players],
            stack=list(self.stack),
            slots=list(self.slots),
            discard=list(self.discard),
            goals=list(self.goals),
            current=self.current,
            points=self.points,
            architect_done=self.architect_done,
            productive=self.productive,
            idle_turns=self.idle_turns,
            turn=self.turn,
            first_finisher=self.first_finisher,
            trigger_b=self.trigger_b,
            over=self.over,
            end_reason=self.end_reason,
            open_table=list(self.open_table),
            first_at=self.first_at,
            timer_at=self.timer_at,
            cap_ms=self.cap_ms,
            turn_log=[dict(entry) for entry in self.turn_log],
            previous_turn=_copy_turn(self.previous_turn),
        )

    def deadline(self) -> int | None:
        """Party: epoch ms when the hourglass (or, before anyone finishes, the safety cap) runs out.

        None when the game is over, not a party game, or has no timing yet (moves without "at").
        """
        if not self.party or self.over:
            return None
        if self.first_finisher is not None:
            return None if self.timer_at is None else self.timer_at + PARTY_TIMER_MS
        return None if self.first_at is None else self.first_at + self.cap_ms

    def to_json(self) -> dict[str, Any]:
        return {
            "variant": self.variant,
            "players": [p.to_json() for p in self.players],
            "stack": list(self.stack),
            "slots": list(self.slots),
            "discard": list(self.discard),
            "goals": list(self.goals),
            "current": self.current,
            "points": self.points,
            "architect_done": self.architect_done,
            "productive": self.productive,
            "idle_turns": self.idle_turns,
            "turn": self.turn,
            "first_finisher": self.first_finisher,
            "trigger_b": self.trigger_b,
            "over": self.over,
            "end_reason": self.end_reason,
            "open_table": list(self.open_table),
            "first_at": self.first_at,
            "timer_at": self.timer_at,
            "cap_ms": self.cap_ms,
            "turn_log": [dict(entry) for entry in self.turn_log],
            "previous_turn": _copy_turn(self.previous_turn),
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> State:
        return cls(
            variant=str(data["variant"]),
            players=[Player.from_json(p) for p in data["players"]],
            stack=list(data["stack"]),
            slots=list(data["slots"]),
            discard=list(data["discard"]),
            goals=list(data["goals"]),
            current=int(data["current"]),
            points=int(data["points"]),
            architect_done=bool(data["architect_done"]),
            productive=bool(data["productive"]),
            idle_turns=int(data["idle_turns"]),
            turn=int(data["turn"]),
            first_finisher=data["first_finisher"],
            trigger_b=bool(data["trigger_b"]),
            over=bool(data["over"]),
            end_reason=str(data["end_reason"]),
            open_table=list(data["open_table"]),
            first_at=data["first_at"],
            timer_at=data["timer_at"],
            cap_ms=int(data["cap_ms"]),
            turn_log=[dict(entry) for entry in data.get("turn_log", [])],
            previous_turn=_copy_turn(data.get("previous_turn")),
        )


def _copy_turn(turn: Mapping[str, Any] | None) -> dict[str, Any] | None:
    """A deep enough copy of ``previous_turn`` (its action list and entries are fresh)."""
    if turn is None:
        return None
    return {**turn, "actions": [dict(entry) for entry in turn.get("actions", [])]}


def census(state: State) -> dict[str, int]:
    """How many tiles of each code exist anywhere in the game (must equal the manifest's counts)."""
    everything: list[str | None] = [*state.stack, *state.slots, *state.discard, *state.open_table]
    for p in state.players:
        everything.extend(p.board)
        everything.extend(p.reserve)
        everything.append(p.hand)
    return tiles.census(everything)


def manifest_census() -> dict[str, int]:
    """The counts every game must conserve."""
    return tiles.census(tiles.ALL_TILES)
