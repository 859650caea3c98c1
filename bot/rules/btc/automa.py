"""The two Automas of the solo Full mode (spec 10.5-10.8, decisions D-14 … D-20).

Each turn of rounds 1 and 3, Autommaso then Automarta, step by step (D-14):
1. draw an Automa card; 2. pick a tile from the hand with the card's "shared" column and assign it
to the city shared with the player (the player places it later); 3. pick a tile from the rest of
the hand with the "automacity" column and put it into Automacity at once.

Only placed tiles count as in a city (D-15). Everything here is deterministic; the card order comes
from the seeded deck in the state.
"""

from __future__ import annotations

from collections.abc import Sequence

from bot.rules.btc import geometry as G
from bot.rules.btc import scoring
from bot.rules.btc import tiles as T
from bot.rules.btc.state import City

AUTOMACITY = 1
"""Automacity is city 1 (between Autommaso, seat 1, and Automarta, seat 2)."""


def city_score(city: City, index: int, counts: Sequence[int]) -> int:
    """A city's score now (Automacity: maximal scoring, without the difficulty modifier)."""
    value = scoring.per_factory(counts[index], counts)
    if city.grid:
        faces = {cell: spot[0] for cell, spot in city.cells.items()}
        return scoring.total(scoring.score_grid(faces, value))
    return scoring.total(scoring.score_automacity(city.faces(), value))


def gain(city: City, index: int, counts: Sequence[int], face: str) -> int:
    """Points the city gains now if a single tile with ``face`` enters it (10.7 step 4).

    A grid city takes the tile at its best legal cell; the factory majority is recomputed with the
    tile counted in this city.
    """
    before = city_score(city, index, counts)
    after_counts = list(counts)
    if T.face_type(face) == "factory":
        after_counts[index] += 1
    value = scoring.per_factory(after_counts[index], after_counts)
    if not city.grid:
        return scoring.total(scoring.score_automacity([*city.faces(), face], value)) - before
    faces = {cell: spot[0] for cell, spot in city.cells.items()}
    best: int | None = None
    for anchor in G.anchors(faces.keys(), G.SINGLE_SHAPE):
        faces[anchor] = face
        score = scoring.total(scoring.score_grid(faces, value))
        del faces[anchor]
        best = score if best is None else max(best, score)
    assert best is not None, "a single tile always fits a city with fewer than 16 cells"
    return best - before


def choose(
    hand: Sequence[int], tiles: Sequence[str], column: Sequence[str], city: City, index: int, counts: Sequence[int]
) -> tuple[int, str]:
    """The tile an Automa picks from ``hand`` for city ``index`` with a card column (10.7).

    Returns (tile number, symbol that decided). ``counts`` are the factory counts of all cities.
    """
    assert hand, "an Automa only chooses from a non-empty hand"
    faces_in_hand: dict[str, int] = {}
    for t in sorted(hand):
        faces_in_hand.setdefault(T.KINDS[tiles[t]].faces[0], t)
    city_types = {T.face_type(f) for f in city.faces()}

    def best(candidates: list[str]) -> int:
        rank = {face: i for i, face in enumerate(T.AUTOMA_TIEBREAK)}
        scored = [(-gain(city, index, counts, f), rank[f], f) for f in candidates]
        return faces_in_hand[min(scored)[2]]

    for symbol in column:
        if symbol in ("HOUSE", "FACTORY"):
            wanted = symbol.lower()
            for face in T.AUTOMA_TIEBREAK:
                if face in faces_in_hand and T.face_type(face) == wanted:
                    return faces_in_hand[face], symbol
        elif symbol == "NEW":
            if "house" in city_types:
                fresh = [f for f in faces_in_hand if T.face_type(f) not in city_types]
                if fresh:
                    return best(fresh), symbol
        else:  # MAX
            return best(list(faces_in_hand)), symbol
    return best(list(faces_in_hand)), "MAX"  # D-16: the column is exhausted
