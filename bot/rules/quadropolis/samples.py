"""Seeded random cities, used by the property tests and the bench (not by play)."""

from __future__ import annotations

import random

from bot.rules.quadropolis.scoring import Building, Grid
from bot.rules.quadropolis.tiles import ModeRules

CLASSIC_CODES = "TSUPGFH"
EXPERT_CODES = "TSUPGFHOM"
COSTLY_CODES = {"classic": "TSUFH", "expert": "TSUFHO"}


def random_building(mode: ModeRules, rnd: random.Random, codes: str) -> Building:
    code = rnd.choice(codes)
    height = rnd.randint(1, mode.max_height) if code in "TO" else 1
    if code == "U":
        vp = rnd.choice((0, 1, 2))
    elif code == "H":
        vp = rnd.choice((0, 0, 0, 1, 2, 3))
    else:
        vp = 0
    return Building(code, height, vp)


def random_city(
    mode: ModeRules,
    rnd: random.Random,
    density: float = 1.0,
    costly_only: bool = False,
    max_cost_bearing: int | None = None,
) -> Grid:
    """A city with each square built with probability ``density``.

    ``costly_only`` uses only buildings that need resources (the hardest case for the optimiser);
    ``max_cost_bearing`` stops adding such buildings after that many (keeps brute force cheap).
    """
    if costly_only:
        codes = COSTLY_CODES[mode.name]
    else:
        codes = EXPERT_CODES if mode.name == "expert" else CLASSIC_CODES
    costly = 0
    grid = []
    for _ in range(mode.rows):
        row: list[Building | None] = []
        for _ in range(mode.cols):
            if rnd.random() >= density:
                row.append(None)
                continue
            b = random_building(mode, rnd, codes)
            if b.code not in "PGM":
                if max_cost_bearing is not None and costly >= max_cost_bearing:
                    row.append(None)
                    continue
                costly += 1
            row.append(b)
        grid.append(tuple(row))
    return tuple(grid)
