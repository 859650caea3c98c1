"""The state of a Between Two Cities game: plain dataclasses with an exact JSON round trip.

Tiles are numbered by draw order: tile ``t`` is the t-th tile drawn (singles 0..107 from the
shuffled bag, duplexes 108..131 from the shuffled stack), and ``BtcState.tiles[t]`` is its kind.
The number says nothing about the kind without the state, which only the server holds; views show
the kind of a tile only to those who may see it (spec D-12).

"Players" are the places at the table: in 3-7 player and 2-player games one per seat; in solo
games three (0 you, 1 Autommaso, 2 Automarta), of which only seat 0 is a protocol seat.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from bot.rules import core

Cell = core.Cell

Spot = tuple[str, int, int]
"""What fills a cell: (face code, tile number, half), half 0 = single, 1/2 = first/second face."""

FREE = -1
"""``Pending.city`` of a tile whose chooser still decides which of their two cities gets it."""


@dataclass
class Pending:
    """A revealed (or solo: assigned) tile waiting to be placed."""

    tile: int
    city: int = FREE


@dataclass
class Player:
    """One place at the table.

    ``hand``: tiles held now (private; solo: face up). ``choice``: committed, not yet revealed.
    ``outgoing``: the rest of the hand, handed on face down at the commit, received at the reveal.
    ``pending``: revealed tiles this player must still place. ``placed``: cities this player has
    placed into since the last reveal. ``waits``: cities where this player asked the partner to
    place first this turn (decision D-3).
    """

    hand: list[int] = field(default_factory=list)
    choice: list[int] = field(default_factory=list)
    outgoing: list[int] = field(default_factory=list)
    pending: list[Pending] = field(default_factory=list)
    placed: list[int] = field(default_factory=list)
    waits: list[int] = field(default_factory=list)


@dataclass
class City:
    """A city. Grid cities keep frame cells (first tile at the frame centre); Automacity
    (``grid`` False) keeps its faces in ``loose``, with no geometry (10.2)."""

    name: str
    builders: list[int]
    grid: bool = True
    cells: dict[Cell, Spot] = field(default_factory=dict)
    loose: list[Spot] = field(default_factory=list)

    def faces(self) -> list[str]:
        """Every face in the city (grid or loose)."""
        if self.grid:
            return [spot[0] for spot in self.cells.values()]
        return [spot[0] for spot in self.loose]

    def size(self) -> int:
        return len(self.cells) if self.grid else len(self.loose)


@dataclass
class BtcState:
    """A whole game. ``stage`` indexes the mode's stages (rules.STAGES), ``step`` counts the
    reveals (solo: turns, batches or repetitions) done in the stage. ``phase``: ``"play"``
    (3-7 / 2 players: each seat's own status says what it does), solo ``"assign"`` / ``"place"``,
    then ``"bonus"`` (solo campaign) and ``"over"``."""

    mode: str
    options: dict[str, str]
    seed: int
    seats: int
    order: list[int]
    tiles: tuple[str, ...]
    next_single: int
    next_duplex: int
    cities: list[City]
    players: list[Player]
    stage: int = 0
    step: int = 0
    phase: str = "play"
    reveals: int = 0
    discard: list[int] = field(default_factory=list)
    under: list[Pending] = field(default_factory=list)
    deck: list[str] = field(default_factory=list)
    used_cards: list[str] = field(default_factory=list)
    automa_log: list[dict[str, Any]] = field(default_factory=list)
    bonus: dict[str, Any] | None = None

    def clone(self) -> BtcState:
        """A deep copy (faster than copy.deepcopy; every nested value is copied or immutable)."""
        return BtcState(
            mode=self.mode,
            options=dict(self.options),
            seed=self.seed,
            seats=self.seats,
            order=list(self.order),
            tiles=self.tiles,
            next_single=self.next_single,
            next_duplex=self.next_duplex,
            cities=[City(c.name, list(c.builders), c.grid, dict(c.cells), list(c.loose)) for c in self.cities],
            players=[
                Player(
                    list(p.hand),
                    list(p.choice),
                    list(p.outgoing),
                    [Pending(x.tile, x.city) for x in p.pending],
                    list(p.placed),
                    list(p.waits),
                )
                for p in self.players
            ],
            stage=self.stage,
            step=self.step,
            phase=self.phase,
            reveals=self.reveals,
            discard=list(self.discard),
            under=[Pending(x.tile, x.city) for x in self.under],
            deck=list(self.deck),
            used_cards=list(self.used_cards),
            automa_log=[dict(e) for e in self.automa_log],
            bonus=dict(self.bonus) if self.bonus is not None else None,
        )


# ---------------------------------------------------------------------------------------------
# JSON
# ---------------------------------------------------------------------------------------------


def _pending_json(items: list[Pending]) -> list[list[int]]:
    return [[p.tile, p.city] for p in items]


def _pending_from(data: Any) -> list[Pending]:
    return [Pending(int(t), int(c)) for t, c in data]


def to_json(state: BtcState) -> dict[str, Any]:
    """The state as JSON-able data (cells as ``[row, col, face, tile, half]`` rows)."""
    return {
        "mode": state.mode,
        "options": dict(state.options),
        "seed": state.seed,
        "seats": state.seats,
        "order": list(state.order),
        "tiles": list(state.tiles),
        "next_single": state.next_single,
        "next_duplex": state.next_duplex,
        "cities": [
            {
                "name": c.name,
                "builders": list(c.builders),
                "grid": c.grid,
                "cells": [[r, col, *spot] for (r, col), spot in sorted(c.cells.items())],
                "loose": [list(spot) for spot in c.loose],
            }
            for c in state.cities
        ],
        "players": [
            {
                "hand": list(p.hand),
                "choice": list(p.choice),
                "outgoing": list(p.outgoing),
                "pending": _pending_json(p.pending),
                "placed": list(p.placed),
                "waits": list(p.waits),
            }
            for p in state.players
        ],
        "stage": state.stage,
        "step": state.step,
        "phase": state.phase,
        "reveals": state.reveals,
        "discard": list(state.discard),
        "under": _pending_json(state.under),
        "deck": list(state.deck),
        "used_cards": list(state.used_cards),
        "automa_log": [dict(e) for e in state.automa_log],
        "bonus": dict(state.bonus) if state.bonus is not None else None,
    }


def from_json(data: Mapping[str, Any]) -> BtcState:
    """The inverse of :func:`to_json`."""
    cities = [
        City(
            name=str(c["name"]),
            builders=[int(b) for b in c["builders"]],
            grid=bool(c["grid"]),
            cells={(int(r), int(col)): (str(face), int(tile), int(half)) for r, col, face, tile, half in c["cells"]},
            loose=[(str(face), int(tile), int(half)) for face, tile, half in c["loose"]],
        )
        for c in data["cities"]
    ]
    players = [
        Player(
            hand=[int(t) for t in p["hand"]],
            choice=[int(t) for t in p["choice"]],
            outgoing=[int(t) for t in p["outgoing"]],
            pending=_pending_from(p["pending"]),
            placed=[int(c) for c in p["placed"]],
            waits=[int(c) for c in p["waits"]],
        )
        for p in data["players"]
    ]
    bonus = data.get("bonus")
    return BtcState(
        mode=str(data["mode"]),
        options={str(k): str(v) for k, v in data["options"].items()},
        seed=int(data["seed"]),
        seats=int(data["seats"]),
        order=[int(s) for s in data["order"]],
        tiles=tuple(str(t) for t in data["tiles"]),
        next_single=int(data["next_single"]),
        next_duplex=int(data["next_duplex"]),
        cities=cities,
        players=players,
        stage=int(data["stage"]),
        step=int(data["step"]),
        phase=str(data["phase"]),
        reveals=int(data["reveals"]),
        discard=[int(t) for t in data["discard"]],
        under=_pending_from(data["under"]),
        deck=[str(c) for c in data["deck"]],
        used_cards=[str(c) for c in data["used_cards"]],
        automa_log=[dict(e) for e in data["automa_log"]],
        bonus=dict(bonus) if bonus is not None else None,
    )
