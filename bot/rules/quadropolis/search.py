"""The searches over a compiled city (:mod:`bot.rules.quadropolis.compiled`): upper bounds on what one building
can add, the exhaustive search the spec calls correct, and the exact branch and bound (:func:`optimise`) that
:mod:`bot.rules.quadropolis.allocation` describes."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from bot.rules.quadropolis.compiled import Compiled, Key

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
            r_nrg[r] for r in range(lo_e, spare_e + 1)
        )
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


def _knapsack_bound(
    c: Compiled, marg: list[int], inh_only: list[int], nrg_only: list[int], both: list[int]
) -> Callable[[int, int, int, int, int, int], int]:
    """Bound (b) of a node as a function ``(on, undecided, spare_i, spare_e, s_on, u_shops) ->
    total``: what is on, plus the best affordable set of undecided buildings, each counted at its
    marginal upper bound; with b energy-only buildings on, at most b more shops. Offices count at
    most their top-row value; the harbour lines at most what a run of the number of harbours on
    (within the longest segments) scores."""
    r_inh, r_nrg = c.r_inh, c.r_nrg
    office_top = office_tops(c)
    factory_groups = {bit.bit_length() - 1: groups for bit, groups in c.factories}
    harbour_mask = sum(
        1 << i for i, cell in enumerate(c.cells) if (b := c.grid[cell[0]][cell[1]]) is not None and b.code == "H"
    )
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
                    best_a[shops] = max(pa[a] + h_cap[a] + r_inh[spare_i - k - a][shops] for a in range(a_top + 1))
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
        ub_total = min(
            all_on(on, undecided, spare_i, spare_e, s_cap), knapsack(on, undecided, spare_i, spare_e, s_on, u_shops)
        )
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


def _branch_and_bound(
    c: Compiled, order: list[int], bound: Callable[[int, int], Key], start_mask: int, start_key: Key
) -> Best:
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
