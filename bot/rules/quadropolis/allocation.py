"""The end-game placement of inhabitants and energy that maximises a player's score (spec 8.12, D-24).

A city is compiled into bit masks over its cost-bearing buildings (one bit each), so the score of
any choice of activated buildings is a few integer operations. Two searches use it:

- :func:`optimise` — depth-first branch and bound. Each node fixes one building on or off; the
  bound is the smaller of (a) the structure score with every undecided building on (every
  structural term but the monuments' -5 only grows with more buildings) plus the best resource
  term any completion can reach, and (b) the structure score of the buildings already on plus a
  two-resource knapsack over per-building upper bounds of their marginal gain. A greedy start and
  the lexicographic order (total, inhabitants on buildings, fewer empty squares) make it exact.
- :func:`exhaustive` — the method the spec calls correct: every subset whose costs fit, each
  completed with concentrated customers and absorbing parks. The tests and the bench compare the
  two.

For one choice of activated buildings the rest of the allocation is fixed by two facts (8.12):
customers are worth more the more they are concentrated (the shop table's increments never
decrease) and each customer beats the -1 of an idle inhabitant; spare energy goes to plain parks.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from functools import lru_cache

from bot.rules.core import Cell, neighbours
from bot.rules.quadropolis.scoring import (
    ALWAYS_ACTIVE,
    COST_BEARING,
    COST_ENERGY,
    COST_INHABITANT,
    Grid,
    ScoreSheet,
    fill,
    grid_cells,
    score,
)
from bot.rules.quadropolis.tiles import MODE_RULES, ModeRules

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
        chunk = values[start:start + 8]
        table = [0] * (1 << len(chunk))
        for byte in range(1, len(table)):
            low = byte & -byte
            table[byte] = table[byte ^ low] + chunk[low.bit_length() - 1]
        tables.append(table)
    return tables


def _resource_tables(mode: ModeRules, inhabitants: int, energy: int, shops: int,
                     parks: int) -> tuple[list[list[int]], list[int]]:
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
    return [cell for cell, b in grid_cells(grid)
            if b.code in COST_BEARING and cell not in off
            and b.cost[0] <= inhabitants and b.cost[1] <= energy]


def _building_terms(mode: ModeRules, grid: Grid,
                    cells: list[Cell]) -> tuple[int, int, int, int, list[int], list[int]]:
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


def _factory_terms(mode: ModeRules, grid: Grid, cells: list[Cell], index: dict[Cell, int],
                   linear: list[int]) -> list[tuple[int, tuple[tuple[int, int], ...]]]:
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


def compile_city(mode: ModeRules, grid: Grid, inhabitants: int, energy: int,
                 forced_off: Iterable[Cell] = ()) -> Compiled:
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
        mode=mode, grid=grid, inhabitants=inhabitants, energy=energy, cells=cells, n=len(cells),
        inh_mask=inh_mask, nrg_mask=nrg_mask, shop_mask=shop_mask, fh_mask=fh_mask, linear=linear,
        monument_penalty=monument_penalty, constant=constant, always_present=always_present,
        park_masks=park_masks, factories=factories, district_masks=_district_masks(mode, grid, cells),
        harbour_segments=segments, offices=_office_terms(grid, cells, index), r_inh=r_inh, r_nrg=r_nrg,
        squares=len(grid) * len(grid[0]), row_segments=row_segments,
    )


# ---------------------------------------------------------------------------------------------
# Upper bounds on what one building can add (its marginal gain in any context)
# ---------------------------------------------------------------------------------------------


def _marginal_bounds(c: Compiled) -> list[int]:
    """For each building, an upper bound on how much switching it on can raise the structure score,
    whatever else is on (resources aside). Used by the knapsack bound."""
    mode = c.mode
    bound = list(c.linear)
    # Parks: the park table is convex, so one more tower/office neighbour adds at most the last
    # increment reachable with every candidate neighbour on.
    for pm in c.park_masks:
        k = pm.bit_count()
        if k:
            inc = max(mode.parks[j] - mode.parks[j - 1] for j in range(1, k + 1))
            for i in range(c.n):
                if pm >> i & 1:
                    bound[i] += inc
    # Factories: each factory-neighbour pair is counted once, on the neighbour's side. This is
    # valid when the buildings are added factories first: a factory then only meets neighbours
    # that were already on, and _knapsack_bound adds those to the factory's bound node by node.
    for _, groups in c.factories:
        for weight, m in groups:
            for j in range(c.n):
                if m >> j & 1:
                    bound[j] += max(0, weight)
    # Public services: the district table is convex; at most its last reachable increment.
    k = len(c.district_masks)
    if k:
        inc = max(mode.public_districts[j] - mode.public_districts[j - 1] for j in range(1, k + 1))
        for dm in c.district_masks:
            for i in range(c.n):
                if dm >> i & 1:
                    bound[i] += inc
    # Harbour lines and office groups are bounded as a whole by _knapsack_bound; here an office
    # counts at most its value in a group as large as its whole component.
    for bit, top in office_tops(c).items():
        bound[bit.bit_length() - 1] += top
    return bound


def office_tops(c: Compiled) -> dict[int, int]:
    """For each office, its value in a group the size of its connected component of offices (with
    every office on): no allocation gives it more."""
    mode = c.mode
    heights = {bit: h for bit, h, _ in c.offices}
    adjacency = {bit: adj for bit, _, adj in c.offices}
    tops: dict[int, int] = {}
    seen = 0
    for bit, _, _ in c.offices:
        if seen & bit:
            continue
        group = [bit]
        seen |= bit
        stack = [bit]
        while stack:
            nb = adjacency[stack.pop()] & ~seen
            while nb:
                low = nb & -nb
                nb ^= low
                seen |= low
                group.append(low)
                stack.append(low)
        row = mode.offices[min(len(group), len(mode.offices)) - 1]
        for b in group:
            tops[b] = row[heights[b] - 1]
    return tops


def harbour_caps(lines: tuple[int, ...], count: int) -> list[list[list[int]]]:
    """``caps[n][lr][lc]``: the most harbour-line points n harbours can make when the longest
    possible row run is lr and column run lc (a row run and a column run share at most one
    harbour)."""
    caps = []
    for n in range(count + 1):
        per_n = []
        for lr in range(len(lines)):
            row = []
            for lc in range(len(lines)):
                best = 0
                for r in range(min(n, lr) + 1):
                    for c in range(min(n, lc) + 1):
                        if r + c - (1 if r and c else 0) <= n:
                            best = max(best, lines[r] + lines[c])
                row.append(best)
            per_n.append(row)
        caps.append(per_n)
    return caps


# ---------------------------------------------------------------------------------------------
# Searches
# ---------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Best:
    """The outcome of a search: the buildings switched on and the key they reach."""

    mask: int
    key: Key
    nodes: int = 0


def exhaustive(c: Compiled) -> Best:
    """Every subset of buildings whose costs fit, in a depth-first walk that stops adding a
    building as soon as a resource runs out (spec 8.12, "a correct method")."""
    best_key: Key | None = None
    best_mask = 0
    count = 0
    bits = [1 << i for i in range(c.n)]
    inh_cost = [1 if c.inh_mask >> i & 1 else 0 for i in range(c.n)]
    nrg_cost = [1 if c.nrg_mask >> i & 1 else 0 for i in range(c.n)]

    def walk(i: int, mask: int, inh: int, nrg: int) -> None:
        nonlocal best_key, best_mask, count
        if i == c.n:
            count += 1
            k = c.key(mask)
            if k is not None and (best_key is None or k > best_key):
                best_key, best_mask = k, mask
            return
        walk(i + 1, mask, inh, nrg)
        ni, ne = inh + inh_cost[i], nrg + nrg_cost[i]
        if ni <= c.inhabitants and ne <= c.energy:
            walk(i + 1, mask | bits[i], ni, ne)

    walk(0, 0, 0, 0)
    assert best_key is not None
    return Best(best_mask, best_key, count)


def _greedy(c: Compiled) -> tuple[int, Key]:
    """A good first solution: add the building with the best key while it helps, then try
    single switches until none improves."""
    mask = 0
    key = c.key(0)
    assert key is not None
    improved = True
    while improved:
        improved = False
        best_mask, best_key = mask, key
        for i in range(c.n):
            cand = mask ^ (1 << i)
            k = c.key(cand)
            if k is not None and k > best_key:
                best_mask, best_key = cand, k
        if best_key > key:
            mask, key = best_mask, best_key
            improved = True
    return mask, key


def _prefix_sums(values: list[int]) -> list[int]:
    """``out[k]``: the sum of the ``k`` largest of ``values`` (``out[0] == 0``)."""
    out = [0]
    for v in sorted(values, reverse=True):
        out.append(out[-1] + v)
    return out


def _cost_classes(c: Compiled) -> tuple[list[int], list[int], list[int]]:
    """The switchable buildings by what they cost: inhabitants only, energy only, and both."""
    n = c.n
    inh_only = [i for i in range(n) if c.inh_mask >> i & 1 and not c.nrg_mask >> i & 1]
    nrg_only = [i for i in range(n) if c.nrg_mask >> i & 1 and not c.inh_mask >> i & 1]
    both = [i for i in range(n) if c.inh_mask >> i & 1 and c.nrg_mask >> i & 1]
    return inh_only, nrg_only, both


def _all_on_bound(c: Compiled) -> Callable[[int, int, int, int, int], int]:
    """Bound (a) of a node as a function ``(on, undecided, spare_i, spare_e, s_cap) -> total``:
    the structure score with every undecided building on (the monument penalties of undecided
    factories and harbours waived) plus the best resource term any completion can reach, with at
    most ``s_cap`` shops."""
    r_inh, r_nrg = c.r_inh, c.r_nrg
    inh_mask, nrg_mask, fh_mask = c.inh_mask, c.nrg_mask, c.fh_mask
    pen = c.monument_penalty

    def all_on(on: int, undecided: int, spare_i: int, spare_e: int, s_cap: int) -> int:
        lo_i = max(0, spare_i - (undecided & inh_mask).bit_count())
        lo_e = max(0, spare_e - (undecided & nrg_mask).bit_count())
        best_r = max(r_inh[r][s_cap] for r in range(lo_i, spare_i + 1)) + max(
            r_nrg[r] for r in range(lo_e, spare_e + 1))
        top = c.structure(on | undecided, with_monument_penalty=False)
        m = on & fh_mask
        i = 0
        while m:
            if m & 1:
                top -= pen[i]
            m >>= 1
            i += 1
        return top + best_r

    return all_on


def _knapsack_bound(c: Compiled, marg: list[int], inh_only: list[int], nrg_only: list[int],
                    both: list[int]) -> Callable[[int, int, int, int, int, int], int]:
    """Bound (b) of a node as a function ``(on, undecided, spare_i, spare_e, s_on, u_shops) ->
    total``: what is on, plus the best affordable set of undecided buildings, each counted at its
    marginal upper bound; with b energy-only buildings on, at most b more shops. Offices count at
    most their top-row value; the harbour lines at most what a run of the number of harbours on
    (within the longest segments) scores."""
    r_inh, r_nrg = c.r_inh, c.r_nrg
    office_top = office_tops(c)
    factory_groups = {bit.bit_length() - 1: groups for bit, groups in c.factories}
    harbour_mask = sum(1 << i for i, cell in enumerate(c.cells)
                       if (b := c.grid[cell[0]][cell[1]]) is not None and b.code == "H")
    caps = harbour_caps(c.mode.harbour_lines, harbour_mask.bit_count()) if harbour_mask else []
    prefix = _prefix_sums

    def knapsack(on: int, undecided: int, spare_i: int, spare_e: int, s_on: int, u_shops: int) -> int:
        base = c.structure(on) - c.harbour_value(on) - c.office_value(on)
        m = on & c.office_mask
        while m:
            low = m & -m
            m ^= low
            base += office_top[low]
        h_on = (on & harbour_mask).bit_count()
        u_harb = (undecided & harbour_mask).bit_count()
        if u_harb or h_on:
            seg_row, seg_col = c.harbour_runs(on | undecided)
            h_cap = [caps[h_on + min(a, u_harb)][seg_row][seg_col] for a in range(len(inh_only) + 1)]
        else:
            h_cap = [0] * (len(inh_only) + 1)
        node_marg = marg
        if factory_groups:
            node_marg = list(marg)
            for i, groups in factory_groups.items():
                if undecided >> i & 1:
                    node_marg[i] += sum(max(0, w) * (m & on).bit_count() for w, m in groups)
        pa = prefix([node_marg[i] for i in inh_only if undecided >> i & 1])
        pb = prefix([node_marg[i] for i in nrg_only if undecided >> i & 1])
        pc = prefix([node_marg[i] for i in both if undecided >> i & 1])
        ub_b = None
        for k in range(min(len(pc) - 1, spare_i, spare_e) + 1):
            a_top = min(len(pa) - 1, spare_i - k)
            best_a: dict[int, int] = {}
            for b in range(min(len(pb) - 1, spare_e - k) + 1):
                shops = s_on + min(u_shops, b)
                if shops not in best_a:
                    best_a[shops] = max(pa[a] + h_cap[a] + r_inh[spare_i - k - a][shops]
                                        for a in range(a_top + 1))
                value = pc[k] + pb[b] + r_nrg[spare_e - k - b] + best_a[shops]
                if ub_b is None or value > ub_b:
                    ub_b = value
        assert ub_b is not None
        return base + ub_b

    return knapsack


def _node_bound(c: Compiled, marg: list[int]) -> Callable[[int, int], Key]:
    """The bound of a search node as a function ``(on, undecided) -> key``: no completion of the
    node (buildings ``on`` on, ``undecided`` still open, the rest off) can beat it. Its total is
    the smaller of bounds (a) and (b); its inhabitants and squares count at most as many more
    buildings as the pool can pay for."""
    inh_only, nrg_only, both = _cost_classes(c)
    all_on = _all_on_bound(c)
    knapsack = _knapsack_bound(c, marg, inh_only, nrg_only, both)
    cap = c.mode.shop_cap
    inhabitants, energy = c.inhabitants, c.energy
    shop_mask, inh_mask, nrg_mask = c.shop_mask, c.inh_mask, c.nrg_mask
    inh_only_mask = sum(1 << i for i in inh_only)
    nrg_only_mask = sum(1 << i for i in nrg_only)
    both_mask = sum(1 << i for i in both)

    def bound(on: int, undecided: int) -> Key:
        n_inh = (on & inh_mask).bit_count()
        n_nrg = (on & nrg_mask).bit_count()
        spare_i = inhabitants - n_inh
        spare_e = energy - n_nrg
        # Every activated shop needs an energy unit: no more shops than the spare energy allows.
        s_on = (on & shop_mask).bit_count()
        u_shops = (undecided & shop_mask).bit_count()
        s_cap = s_on + min(u_shops, spare_e)
        ub_total = min(all_on(on, undecided, spare_i, spare_e, s_cap),
                       knapsack(on, undecided, spare_i, spare_e, s_on, u_shops))
        # Each building switched on needs a resource: at most as many more as the pool allows.
        u_i = (undecided & inh_only_mask).bit_count()
        u_e = (undecided & nrg_only_mask).bit_count()
        u_b = (undecided & both_mask).bit_count()
        ks = range(min(u_b, spare_i, spare_e) + 1)
        more = max(k + min(u_i, spare_i - k) + min(u_e, spare_e - k) for k in ks)
        more_inh = max(k + min(u_i, spare_i - k) for k in ks)
        ub_placed = min(inhabitants, n_inh + more_inh + cap * s_cap)
        ub_occupied = c.always_present + on.bit_count() + more
        return (ub_total, ub_placed, ub_occupied)

    return bound


def _branch_and_bound(c: Compiled, order: list[int], bound: Callable[[int, int], Key],
                      start_mask: int, start_key: Key) -> Best:
    """Depth-first search fixing building ``order[depth]`` on, then off, at each depth; a node
    whose bound does not beat the best key so far (first ``start_key``) is cut."""
    n = c.n
    inhabitants, energy = c.inhabitants, c.energy
    inh_mask, nrg_mask = c.inh_mask, c.nrg_mask
    nodes = 0
    best_mask, best_key = start_mask, start_key

    def search(depth: int, on: int, undecided: int) -> None:
        nonlocal best_mask, best_key, nodes
        nodes += 1
        if depth == n:
            k = c.key(on)
            if k is not None and k > best_key:
                best_mask, best_key = on, k
            return
        if bound(on, undecided) <= best_key:
            return
        i = order[depth]
        bit = 1 << i
        rest = undecided & ~bit
        cand = on | bit
        if (cand & inh_mask).bit_count() <= inhabitants and (cand & nrg_mask).bit_count() <= energy:
            search(depth + 1, cand, rest)
        search(depth + 1, on, rest)

    search(0, 0, (1 << n) - 1)
    return Best(best_mask, best_key, nodes)


def optimise(c: Compiled) -> Best:
    """The allocation key maximum over all choices of activated buildings (branch and bound from
    the greedy solution, branching on the buildings with the largest possible effect first)."""
    if c.n == 0:
        k = c.key(0)
        assert k is not None
        return Best(0, k, 1)
    inc_mask, inc_key = _greedy(c)
    marg = _marginal_bounds(c)
    order = sorted(range(c.n), key=lambda i: -marg[i])
    return _branch_and_bound(c, order, _node_bound(c, marg), inc_mask, inc_key)


# ---------------------------------------------------------------------------------------------
# Public entry points
# ---------------------------------------------------------------------------------------------


def best_allocation(mode: ModeRules, grid: Grid, inhabitants: int, energy: int,
                    forced_off: Iterable[Cell] = ()) -> ScoreSheet:
    """The player's best allocation, scored by the reference scorer (spec 8.12, D-24).

    Among equal totals it has the most inhabitants on buildings, then the fewest empty squares.
    Buildings in ``forced_off`` are left off (the player asked for it).
    """
    return _best_cached(mode.name, grid, inhabitants, energy, frozenset(forced_off))


@lru_cache(maxsize=4096)
def _best_cached(mode_name: str, grid: Grid, inhabitants: int, energy: int,
                 forced_off: frozenset[Cell]) -> ScoreSheet:
    mode = MODE_RULES[mode_name]
    c = compile_city(mode, grid, inhabitants, energy, forced_off)
    best = optimise(c)
    sheet = score(mode, grid, inhabitants, energy, fill(mode, grid, inhabitants, energy,
                                                        c.active_cells(best.mask)))
    assert sheet.key() == (best.key[0], best.key[1], best.key[2] - c.squares), (sheet.key(), best.key)
    return sheet


@lru_cache(maxsize=16384)
def quick_key(mode_name: str, grid: Grid, inhabitants: int, energy: int) -> Key:
    """A near-optimal allocation key by local search only (no proof of optimality): what the AI
    uses to compare candidate moves on its last turn. Final scores always use the exact optimum."""
    return _greedy(compile_city(MODE_RULES[mode_name], grid, inhabitants, energy))[1]


def exhaustive_allocation(mode: ModeRules, grid: Grid, inhabitants: int, energy: int) -> ScoreSheet:
    """The same optimum found by enumerating every affordable subset (the baseline)."""
    c = compile_city(mode, grid, inhabitants, energy)
    best = exhaustive(c)
    return score(mode, grid, inhabitants, energy, fill(mode, grid, inhabitants, energy,
                                                       c.active_cells(best.mask)))
