"""A city compiled for the allocation search (spec 8.12, D-24): its cost-bearing buildings as bits, and every
scoring term as masks and tables over them, so the score of any choice of activated buildings is a few integer
operations (:class:`Compiled`, :func:`compile_city`). See :mod:`bot.rules.quadropolis.allocation`."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

from bot.rules.core import Cell, neighbours
from bot.rules.quadropolis.scoring import ALWAYS_ACTIVE, COST_BEARING, COST_ENERGY, COST_INHABITANT, Grid, grid_cells
from bot.rules.quadropolis.tiles import ModeRules

Key = tuple[int, int, int]
"""(total, inhabitants on buildings, occupied squares): larger is better."""


@dataclass
class Compiled:
    """A city reduced to bit masks over its ``n`` switchable buildings (see module docstring)."""

    mode: ModeRules
    grid: Grid
    inhabitants: int
    energy: int
    cells: list[Cell]
    n: int
    inh_mask: int
    nrg_mask: int
    shop_mask: int
    fh_mask: int
    linear: list[int]
    monument_penalty: list[int]
    constant: int
    always_present: int
    park_masks: list[int]
    factories: list[tuple[int, tuple[tuple[int, int], ...]]]
    district_masks: list[int]
    harbour_segments: list[list[int]]
    offices: list[tuple[int, int, int]]
    r_inh: list[list[int]]
    r_nrg: list[int]
    squares: int
    row_segments: int

    linear_chunks: list[list[int]] = field(default_factory=list)
    penalty_chunks: list[list[int]] = field(default_factory=list)
    segment_tables: list[tuple[int, dict[int, int], bool]] = field(default_factory=list)
    office_mask: int = 0
    office_cache: dict[int, int] = field(default_factory=dict)

    def __post_init__(self) -> None:
        self.linear_chunks = _chunk_tables(self.linear, self.n)
        if self.fh_mask:
            self.penalty_chunks = _chunk_tables(self.monument_penalty, self.n)
        for index, seg in enumerate(self.harbour_segments):
            seg_mask = sum(seg)
            table = {}
            for sub in range(1 << len(seg)):
                run = best = 0
                for j in range(len(seg)):
                    if sub >> j & 1:
                        run += 1
                        best = max(best, run)
                    else:
                        run = 0
                table[sum(bit for j, bit in enumerate(seg) if sub >> j & 1)] = best
            self.segment_tables.append((seg_mask, table, index < self.row_segments))
        self.office_mask = sum(bit for bit, _, _ in self.offices)

    # -- evaluation --------------------------------------------------------------------------
    def structure(self, mask: int, with_monument_penalty: bool = True) -> int:
        """Every scoring term that does not depend on spare resources, for buildings ``mask`` on."""
        mode = self.mode
        total = self.constant
        shift = 0
        for table in self.linear_chunks:
            total += table[(mask >> shift) & (len(table) - 1)]
            shift += 8
        if not with_monument_penalty:
            shift = 0
            for table in self.penalty_chunks:
                total += table[(mask >> shift) & (len(table) - 1)]
                shift += 8
        parks = mode.parks
        for pm in self.park_masks:
            total += parks[(pm & mask).bit_count()]
        for bit, groups in self.factories:
            if mask & bit:
                for weight, group in groups:
                    total += weight * (group & mask).bit_count()
        if self.district_masks:
            total += mode.public_districts[sum(1 for dm in self.district_masks if dm & mask)]
        if self.segment_tables:
            total += self.harbour_value(mask)
        if self.office_mask:
            total += self.office_value(mask)
        return total

    def harbour_runs(self, mask: int) -> tuple[int, int]:
        """Longest row run and longest column run of the harbours in ``mask``."""
        best_row = best_col = 0
        for seg_mask, runs, is_row in self.segment_tables:
            run = runs[mask & seg_mask]
            if is_row:
                if run > best_row:
                    best_row = run
            elif run > best_col:
                best_col = run
        return best_row, best_col

    def harbour_value(self, mask: int) -> int:
        """The harbour-line points (without printed VP) of the harbours in ``mask``."""
        if not self.segment_tables:
            return 0
        best_row, best_col = self.harbour_runs(mask)
        return self.mode.harbour_lines[best_row] + self.mode.harbour_lines[best_col]

    def office_value(self, mask: int) -> int:
        """The office-group points of the offices in ``mask``."""
        sub = mask & self.office_mask
        if not sub:
            return 0
        value = self.office_cache.get(sub)
        if value is None:
            value = self.office_cache[sub] = self._offices(sub)
        return value

    def _offices(self, mask: int) -> int:
        table = self.mode.offices
        on = [(bit, h, adj) for bit, h, adj in self.offices if mask & bit]
        heights = {bit: h for bit, h, _ in on}
        adjacency = {bit: adj & mask for bit, _, adj in on}
        seen = 0
        total = 0
        for bit, _, _ in on:
            if seen & bit:
                continue
            group = [bit]
            seen |= bit
            stack = [bit]
            while stack:
                cur = stack.pop()
                nb = adjacency[cur] & ~seen
                while nb:
                    low = nb & -nb
                    nb ^= low
                    seen |= low
                    group.append(low)
                    stack.append(low)
            row = table[min(len(group), len(table)) - 1]
            total += sum(row[heights[b] - 1] for b in group)
        return total

    def key(self, mask: int) -> Key | None:
        """(total, inhabitants on buildings, occupied squares) for buildings ``mask`` on, or None
        when their costs do not fit the pool."""
        n_inh = (mask & self.inh_mask).bit_count()
        n_nrg = (mask & self.nrg_mask).bit_count()
        if n_inh > self.inhabitants or n_nrg > self.energy:
            return None
        spare = self.inhabitants - n_inh
        shops = (mask & self.shop_mask).bit_count()
        total = self.structure(mask) + self.r_inh[spare][shops] + self.r_nrg[self.energy - n_nrg]
        placed = n_inh + min(spare, self.mode.shop_cap * shops)
        return (total, placed, self.always_present + mask.bit_count())

    def active_cells(self, mask: int) -> list[Cell]:
        return [self.cells[i] for i in range(self.n) if mask >> i & 1]


def _chunk_tables(values: list[int], n: int) -> list[list[int]]:
    """Sums of ``values`` over the set bits of each byte of a mask, one table per byte."""
    tables = []
    for start in range(0, n, 8):
        chunk = values[start : start + 8]
        table = [0] * (1 << len(chunk))
        for byte in range(1, len(table)):
            low = byte & -byte
            table[byte] = table[byte ^ low] + chunk[low.bit_length() - 1]
        tables.append(table)
    return tables


def _resource_tables(
    mode: ModeRules, inhabitants: int, energy: int, shops: int, parks: int
) -> tuple[list[list[int]], list[int]]:
    """Value of spare inhabitants (as concentrated customers, else -1 each) and of spare energy."""
    cap = mode.shop_cap
    r_inh = []
    for spare in range(inhabitants + 1):
        row = []
        for s in range(shops + 1):
            placed = min(spare, cap * s)
            full, rest = divmod(placed, cap)
            row.append(full * mode.shops[cap] + mode.shops[rest] - (spare - placed))
        r_inh.append(row)
    r_nrg = [-max(0, spare - parks) for spare in range(energy + 1)]
    return r_inh, r_nrg


def _code_at(grid: Grid, cell: Cell) -> str:
    """The code of the building on ``cell`` ("" for an empty square)."""
    b = grid[cell[0]][cell[1]]
    return "" if b is None else b.code


def _switchable_cells(grid: Grid, inhabitants: int, energy: int, off: set[Cell]) -> list[Cell]:
    """The cost-bearing buildings a search may switch, in grid order: not forced off, and with a
    cost the pool can pay (a building whose cost never fits is off in every allocation)."""
    return [
        cell
        for cell, b in grid_cells(grid)
        if b.code in COST_BEARING and cell not in off and b.cost[0] <= inhabitants and b.cost[1] <= energy
    ]


def _building_terms(mode: ModeRules, grid: Grid, cells: list[Cell]) -> tuple[int, int, int, int, list[int], list[int]]:
    """Per switchable building: the cost and shop masks, its own points when on (towers, printed
    VP, monument neighbours) and the monument penalty it may be spared. Returns ``(inh_mask,
    nrg_mask, shop_mask, fh_mask, linear, monument_penalty)``."""
    rows, cols = len(grid), len(grid[0])
    n = len(cells)
    inh_mask = nrg_mask = shop_mask = fh_mask = 0
    linear = [0] * n
    monument_penalty = [0] * n
    for i, cell in enumerate(cells):
        b = grid[cell[0]][cell[1]]
        assert b is not None
        bit = 1 << i
        if b.code in COST_INHABITANT:
            inh_mask |= bit
        if b.code in COST_ENERGY:
            nrg_mask |= bit
        if b.code == "S":
            shop_mask |= bit
        if b.code == "T":
            linear[i] += mode.towers[b.height]
        if b.code in "UH":
            linear[i] += b.vp
        for nb in neighbours(cell, rows, cols):
            if _code_at(grid, nb) == "M":
                weight = mode.monument_neighbours.get(b.type, 0)
                linear[i] += weight
                if weight < 0:
                    monument_penalty[i] -= weight
        if monument_penalty[i]:
            fh_mask |= bit
    return inh_mask, nrg_mask, shop_mask, fh_mask, linear, monument_penalty


def _fixed_terms(mode: ModeRules, grid: Grid, index: dict[Cell, int]) -> tuple[int, int, list[int]]:
    """What the always-active buildings contribute: ``(constant, always_present, park_masks)`` —
    the monuments' points for always-active neighbours, the count of always-present buildings,
    and for each park or green the mask of its switchable neighbours that parks reward."""
    rows, cols = len(grid), len(grid[0])
    constant = 0
    always_present = 0
    park_masks = []
    for cell, b in grid_cells(grid):
        if b.code in ALWAYS_ACTIVE:
            always_present += 1
        if b.code in "PG":
            pm = 0
            for nb in neighbours(cell, rows, cols):
                nb_b = grid[nb[0]][nb[1]]
                if nb in index and nb_b is not None and nb_b.type in mode.park_neighbours:
                    pm |= 1 << index[nb]
            park_masks.append(pm)
        if b.code == "M":
            for nb in neighbours(cell, rows, cols):
                nb_b = grid[nb[0]][nb[1]]
                if nb_b is not None and nb_b.code in ALWAYS_ACTIVE:
                    constant += mode.monument_neighbours.get(nb_b.type, 0)
    return constant, always_present, park_masks


def _factory_terms(
    mode: ModeRules, grid: Grid, cells: list[Cell], index: dict[Cell, int], linear: list[int]
) -> list[tuple[int, tuple[tuple[int, int], ...]]]:
    """Each switchable factory as ``(bit, ((weight, neighbour mask), ...))`` over its switchable
    neighbours; its always-active neighbours' points are added to ``linear`` (changed in place)."""
    rows, cols = len(grid), len(grid[0])
    factories = []
    for i, cell in enumerate(cells):
        if _code_at(grid, cell) != "F":
            continue
        by_weight: dict[int, int] = {}
        for nb in neighbours(cell, rows, cols):
            nb_b = grid[nb[0]][nb[1]]
            if nb_b is None:
                continue
            weight = mode.factory_neighbours.get(nb_b.type, 0)
            if nb_b.code in ALWAYS_ACTIVE:
                linear[i] += weight
            elif weight and nb in index:
                by_weight[weight] = by_weight.get(weight, 0) | (1 << index[nb])
        factories.append((1 << i, tuple(sorted(by_weight.items()))))
    return factories


def _district_masks(mode: ModeRules, grid: Grid, cells: list[Cell]) -> list[int]:
    """The masks of the switchable public services in each district, in order of first meeting."""
    districts: dict[int, int] = {}
    for i, cell in enumerate(cells):
        if _code_at(grid, cell) == "U":
            d = mode.district(cell)
            districts[d] = districts.get(d, 0) | (1 << i)
    return list(districts.values())


def _harbour_segments(grid: Grid, index: dict[Cell, int]) -> tuple[list[list[int]], int]:
    """The maximal runs of switchable harbours, rows first then columns, each as its list of
    bits, and how many of them are row runs."""
    rows, cols = len(grid), len(grid[0])
    segments: list[list[int]] = []
    row_segments = 0
    for horizontal in (True, False):
        outer = range(rows) if horizontal else range(cols)
        for a in outer:
            run: list[int] = []
            length = cols if horizontal else rows
            for pos in range(length + 1):
                cell = (a, pos) if horizontal else (pos, a)
                if pos < length and cell in index and _code_at(grid, cell) == "H":
                    run.append(1 << index[cell])
                else:
                    if run:
                        segments.append(run)
                    run = []
        if horizontal:
            row_segments = len(segments)
    return segments, row_segments


def _office_terms(grid: Grid, cells: list[Cell], index: dict[Cell, int]) -> list[tuple[int, int, int]]:
    """Each switchable office as ``(bit, height, mask of its switchable office neighbours)``."""
    rows, cols = len(grid), len(grid[0])
    offices = []
    for i, cell in enumerate(cells):
        b = grid[cell[0]][cell[1]]
        if b is not None and b.code == "O":
            adj = 0
            for nb in neighbours(cell, rows, cols):
                if nb in index and _code_at(grid, nb) == "O":
                    adj |= 1 << index[nb]
            offices.append((1 << i, b.height, adj))
    return offices


def compile_city(
    mode: ModeRules, grid: Grid, inhabitants: int, energy: int, forced_off: Iterable[Cell] = ()
) -> Compiled:
    """Compile a city; buildings in ``forced_off`` stay off (a player's own choice)."""
    cells = _switchable_cells(grid, inhabitants, energy, set(forced_off))
    index = {cell: i for i, cell in enumerate(cells)}
    inh_mask, nrg_mask, shop_mask, fh_mask, linear, monument_penalty = _building_terms(mode, grid, cells)
    constant, always_present, park_masks = _fixed_terms(mode, grid, index)
    factories = _factory_terms(mode, grid, cells, index, linear)
    segments, row_segments = _harbour_segments(grid, index)
    n_parks = sum(1 for _, b in grid_cells(grid) if b.code == "P")
    r_inh, r_nrg = _resource_tables(mode, inhabitants, energy, shop_mask.bit_count(), n_parks)
    return Compiled(
        mode=mode,
        grid=grid,
        inhabitants=inhabitants,
        energy=energy,
        cells=cells,
        n=len(cells),
        inh_mask=inh_mask,
        nrg_mask=nrg_mask,
        shop_mask=shop_mask,
        fh_mask=fh_mask,
        linear=linear,
        monument_penalty=monument_penalty,
        constant=constant,
        always_present=always_present,
        park_masks=park_masks,
        factories=factories,
        district_masks=_district_masks(mode, grid, cells),
        harbour_segments=segments,
        offices=_office_terms(grid, cells, index),
        r_inh=r_inh,
        r_nrg=r_nrg,
        squares=len(grid) * len(grid[0]),
        row_segments=row_segments,
    )
