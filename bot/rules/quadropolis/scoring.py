"""Scoring a Quadropolis city for a given allocation of inhabitants and energy (spec sections 7, 8).

This is the reference scorer: plain, square by square, written to be read against the spec. The
optimiser in :mod:`allocation` compiles a city into bit masks for speed and is tested against it.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field

from bot.rules.core import Cell, IllegalMove, connected_groups, neighbours
from bot.rules.quadropolis.tiles import TYPE_OF_CODE, ModeRules

CATEGORIES = ("towers", "shops", "public_services", "parks", "factories", "harbours", "offices", "monuments", "penalty")
"""Breakdown keys, exactly as spec section 16 names them; they sum to the total."""

COST_INHABITANT = frozenset("UFHO")
"""Building letters whose activation needs one inhabitant."""
COST_ENERGY = frozenset("TSO")
"""Building letters whose activation needs one energy."""
COST_BEARING = COST_INHABITANT | COST_ENERGY
ALWAYS_ACTIVE = frozenset("PGM")
"""Parks, playgrounds and monuments need nothing and always count as activated (spec 7)."""


@dataclass(frozen=True)
class Building:
    """What stands on one city square: a letter of spec 15, the number of floors, printed VP."""

    code: str
    height: int = 1
    vp: int = 0

    @property
    def type(self) -> str:
        return TYPE_OF_CODE[self.code]

    @property
    def cost(self) -> tuple[int, int]:
        """(inhabitants, energy) needed to activate it, whatever its height (spec 7)."""
        return (int(self.code in COST_INHABITANT), int(self.code in COST_ENERGY))


Grid = tuple[tuple[Building | None, ...], ...]
"""A city: one tuple per row, ``None`` for an empty square."""


@dataclass(frozen=True)
class Allocation:
    """Where a player's resources go: activated buildings, shop customers, absorbing parks."""

    active: frozenset[Cell]
    customers: tuple[tuple[Cell, int], ...] = ()
    absorbing: frozenset[Cell] = frozenset()

    def customers_at(self, cell: Cell) -> int:
        return dict(self.customers).get(cell, 0)


@dataclass(frozen=True)
class ScoreSheet:
    """A scored city: points per category, their total and the tie-break figures (spec 8.11)."""

    categories: dict[str, int]
    total: int
    inhabitants_on_buildings: int
    empty_squares: int
    allocation: Allocation
    unused_inhabitants: int = 0
    unused_energy: int = 0
    details: dict[str, int] = field(default_factory=dict)

    def key(self) -> tuple[int, int, int]:
        """The order in which allocations (and players) compare: total, inhabitants placed, fewer
        empty squares (spec 8.11, 8.12)."""
        return (self.total, self.inhabitants_on_buildings, -self.empty_squares)


def grid_cells(grid: Grid) -> Iterable[tuple[Cell, Building]]:
    """Every occupied square with its building, in reading order."""
    for r, row in enumerate(grid):
        for c, building in enumerate(row):
            if building is not None:
                yield (r, c), building


def cost_bearing(grid: Grid) -> list[Cell]:
    """Squares whose building needs resources to be activated, in reading order."""
    return [cell for cell, b in grid_cells(grid) if b.code in COST_BEARING]


def plain_parks(grid: Grid) -> list[Cell]:
    """Squares holding a plain park (the only buildings that absorb energy, D-13)."""
    return [cell for cell, b in grid_cells(grid) if b.code == "P"]


def longest_run(cells_: set[Cell], horizontal: bool) -> int:
    """Longest run of consecutive squares of ``cells_`` in one row (or one column)."""
    best = 0
    for r, c in cells_:
        prev = (r, c - 1) if horizontal else (r - 1, c)
        if prev in cells_:
            continue
        length = 1
        nxt = (r, c + 1) if horizontal else (r + 1, c)
        while nxt in cells_:
            length += 1
            nxt = (nxt[0], nxt[1] + 1) if horizontal else (nxt[0] + 1, nxt[1])
        best = max(best, length)
    return best


def check_allocation(
    mode: ModeRules, grid: Grid, inhabitants: int, energy: int, allocation: Allocation
) -> tuple[int, int]:
    """Validate an allocation; returns (inhabitants used, energy used) or raises IllegalMove."""
    used_inh = 0
    used_nrg = 0
    for cell in allocation.active:
        b = grid[cell[0]][cell[1]] if 0 <= cell[0] < len(grid) and 0 <= cell[1] < len(grid[0]) else None
        if b is None or b.code not in COST_BEARING:
            raise IllegalMove("quadropolis.alloc.not_a_building", square=cell_label(cell))
        inh, nrg = b.cost
        used_inh += inh
        used_nrg += nrg
    for cell, count in allocation.customers:
        b = grid[cell[0]][cell[1]]
        if b is None or b.code != "S" or cell not in allocation.active:
            raise IllegalMove("quadropolis.alloc.customers_on_inactive", square=cell_label(cell))
        if not 0 <= count <= mode.shop_cap:
            raise IllegalMove("quadropolis.alloc.too_many_customers", square=cell_label(cell), cap=mode.shop_cap)
        used_inh += count
    for cell in allocation.absorbing:
        b = grid[cell[0]][cell[1]]
        if b is None or b.code != "P":
            raise IllegalMove("quadropolis.alloc.not_a_park", square=cell_label(cell))
        used_nrg += 1
    if used_inh > inhabitants:
        raise IllegalMove("quadropolis.alloc.short_of_inhabitants", needed=used_inh, have=inhabitants)
    if used_nrg > energy:
        raise IllegalMove("quadropolis.alloc.short_of_energy", needed=used_nrg, have=energy)
    return used_inh, used_nrg


def cell_label(cell: Cell) -> str:
    return f"C({cell[0] + 1},{cell[1] + 1})"


def categories(
    mode: ModeRules, present: Mapping[Cell, Building], rows: int, cols: int, customers: Mapping[Cell, int]
) -> dict[str, int]:
    """Points per category (penalty 0) for the buildings still standing after removal (8.1-8.9)."""
    cats = dict.fromkeys(CATEGORIES, 0)

    def around(cell: Cell) -> list[Building]:
        return [present[n] for n in neighbours(cell, rows, cols) if n in present]

    districts: set[int] = set()
    harbours: set[Cell] = set()
    offices: dict[Cell, int] = {}
    for cell, b in present.items():
        code = b.code
        if code == "T":
            cats["towers"] += mode.towers[b.height]
        elif code == "S":
            cats["shops"] += mode.shops[customers.get(cell, 0)]
        elif code == "U":
            districts.add(mode.district(cell))
            cats["public_services"] += b.vp
        elif code in "PG":
            count = sum(1 for n in around(cell) if n.type in mode.park_neighbours)
            cats["parks"] += mode.parks[count]
        elif code == "F":
            cats["factories"] += sum(mode.factory_neighbours.get(n.type, 0) for n in around(cell))
        elif code == "H":
            harbours.add(cell)
            cats["harbours"] += b.vp
        elif code == "O":
            offices[cell] = b.height
        elif code == "M":
            cats["monuments"] += sum(mode.monument_neighbours.get(n.type, 0) for n in around(cell))
    cats["public_services"] += mode.public_districts[len(districts)]
    cats["harbours"] += mode.harbour_lines[longest_run(harbours, True)]
    cats["harbours"] += mode.harbour_lines[longest_run(harbours, False)]
    for group in connected_groups(offices):
        row = mode.offices[min(len(group), len(mode.offices)) - 1]
        cats["offices"] += sum(row[offices[cell] - 1] for cell in group)
    return cats


def score(mode: ModeRules, grid: Grid, inhabitants: int, energy: int, allocation: Allocation) -> ScoreSheet:
    """Score a city under a given allocation (spec 8.1 to 8.10). Raises IllegalMove if it does not fit."""
    used_inh, used_nrg = check_allocation(mode, grid, inhabitants, energy, allocation)
    rows, cols = len(grid), len(grid[0])
    # 8.1 step 2: non-activated buildings are removed before anything is scored.
    present: dict[Cell, Building] = {
        cell: b for cell, b in grid_cells(grid) if b.code in ALWAYS_ACTIVE or cell in allocation.active
    }
    cats = categories(mode, present, rows, cols, dict(allocation.customers))
    unused_inh = inhabitants - used_inh
    unused_nrg = energy - used_nrg
    cats["penalty"] = -unused_inh - unused_nrg
    return ScoreSheet(
        categories=cats,
        total=sum(cats.values()),
        inhabitants_on_buildings=used_inh,
        empty_squares=rows * cols - len(present),
        allocation=allocation,
        unused_inhabitants=unused_inh,
        unused_energy=unused_nrg,
    )


def fill(
    mode: ModeRules,
    grid: Grid,
    inhabitants: int,
    energy: int,
    active: Iterable[Cell],
    customers: Mapping[Cell, int] | None = None,
) -> Allocation:
    """Complete a choice of activated buildings into the best allocation for it.

    Spare inhabitants become customers, filling one activated shop to the cap before the next
    (reading order; concentrating is optimal because the shop table's increments never decrease,
    spec 8.12); spare energy is absorbed by plain parks, one each, in reading order. With
    ``customers`` given, those counts are used as they are and only parks are filled.
    """
    active_set = frozenset(active)
    inh_left = inhabitants
    nrg_left = energy
    for cell in active_set:
        b = grid[cell[0]][cell[1]]
        assert b is not None
        inh, nrg = b.cost
        inh_left -= inh
        nrg_left -= nrg
    shops = sorted(
        cell
        for cell in active_set
        if grid[cell[0]][cell[1]] is not None and grid[cell[0]][cell[1]].code == "S"  # type: ignore[union-attr]
    )
    placed: list[tuple[Cell, int]] = []
    if customers is None:
        for cell in shops:
            take = max(0, min(mode.shop_cap, inh_left))
            placed.append((cell, take))
            inh_left -= take
    else:
        placed = sorted((cell, n) for cell, n in customers.items() if cell in active_set)
        placed += [(cell, 0) for cell in shops if cell not in customers]
        placed.sort()
    parks = plain_parks(grid)
    absorbing = frozenset(parks[: max(0, min(len(parks), nrg_left))])
    return Allocation(active=active_set, customers=tuple(placed), absorbing=absorbing)
