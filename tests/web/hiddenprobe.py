"""The hidden-information probe over sessions, in every game and mode (issue 38), its parts: what each game's
rules hide per seat (read from the views, never written down here), the twin of a state with the hidden things
changed and nothing else, and :class:`Probe`, a game played against the fake Discord with every seat signed in
and a signed-out viewer fetching over HTTP what a browser would (used by ``test_hidden_every_game.py``).

What a seat may not see is derived from the rules core: ``view(state, s)`` against ``view(state, None)``. The
paths where they differ are the seat's private view (:func:`differences`); a game declares only which paths may
differ (:data:`PER_SEAT`), and the test asserts that nothing else does. The hidden orders that no view shows
(the bag, the stack, the face-down tiles, the Automa deck) are probed by twins: the same state with them, and
every other seat's private view, changed (:func:`twin`), which must leave the seat's own answers unchanged.
"""

from __future__ import annotations

import dataclasses
import html
import re
from collections.abc import Callable, Sequence
from typing import Any

from bot.rules.btc import tiles as btc_tiles

Path = tuple[Any, ...]
SEAT = "{seat}"
"""In a :data:`PER_SEAT` path: the viewing seat's own index."""

PER_SEAT: dict[str, tuple[Path, ...]] = {
    "quadropolis": (("viewer",),),
    "btc": (("seat",), ("you",)),
    "urbanpanic": (("viewer",), ("players", SEAT, "hand")),
}
"""Where ``view(state, seat)`` may differ from the public view, by game: who is looking, and the seat's own
private part (Between Two Cities' hand and unrevealed choice, an Urban Panic party hand). Quadropolis hides
nothing per seat (only the face-down tiles, from everyone)."""
WHO = {("viewer",), ("seat",)}
"""The paths that only say who is looking (not a secret)."""


def differences(mine: Any, public: Any, path: Path = ()) -> list[Path]:
    """The paths where two views differ: a key one has and the other lacks, or another value."""
    if isinstance(mine, dict) and isinstance(public, dict):
        found: list[Path] = []
        for key in sorted(mine.keys() | public.keys(), key=str):
            if key not in mine or key not in public:
                found.append((*path, key))
            else:
                found += differences(mine[key], public[key], (*path, key))
        return found
    if isinstance(mine, list | tuple) and isinstance(public, list | tuple) and len(mine) == len(public):
        return [p for i, (a, b) in enumerate(zip(mine, public, strict=True)) for p in differences(a, b, (*path, i))]
    return [] if mine == public else [path]


def allowed(kind: str, seat: int, path: Path) -> bool:
    """Whether ``path`` lies under one of the game's per-seat paths of ``seat``."""
    for pattern in PER_SEAT[kind]:
        wanted = tuple(seat if p == SEAT else p for p in pattern)
        if path[: len(wanted)] == wanted:
            return True
    return False


def private_part(view: Any, paths: Sequence[Path]) -> list[Any]:
    """The values of a seat's view at the paths where it differs from the public view (who is looking aside; a
    key only the public view has holds nothing of the seat's)."""
    found = []
    for path in paths:
        if path in WHO:
            continue
        value = view
        try:
            for step in path:
                value = value[step]
        except (KeyError, IndexError, TypeError):
            continue
        found.append(value)
    return found


# -- the twins: hidden things changed, nothing else ------------------------------------------------------------


def _btc_twin(state: Any, seat: int | None) -> Any:
    """Every other seat's hand, choice and handed-on tiles replaced by undrawn tiles of the same shape (an Automa's
    hand lies face up: kept), then the bag's and the duplex stack's undrawn order reversed, and the Automa deck."""
    singles = iter(range(state.next_single, len(btc_tiles.SINGLE_POOL)))
    duplexes = iter(range(state.next_duplex, len(state.tiles)))

    def other(tile: int) -> int:
        return next(singles if tile < len(btc_tiles.SINGLE_POOL) else duplexes)

    players = [
        dataclasses.replace(
            p,
            hand=[other(t) for t in p.hand],
            choice=[other(t) for t in p.choice],
            outgoing=[other(t) for t in p.outgoing],
        )
        if i < state.seats and i != seat
        else p
        for i, p in enumerate(state.players)
    ]
    kinds = list(state.tiles)
    split = len(btc_tiles.SINGLE_POOL)
    kinds[state.next_single : split] = reversed(kinds[state.next_single : split])
    kinds[state.next_duplex :] = reversed(kinds[state.next_duplex :])
    return dataclasses.replace(state, players=players, tiles=tuple(kinds), deck=list(reversed(state.deck)))


def _quadropolis_twin(state: Any, seat: int | None) -> Any:
    """The face-down tiles of the site shifted by one square among themselves."""
    down = [i for i, (tile, hidden) in enumerate(zip(state.site, state.face_down, strict=True)) if hidden and tile]
    site = list(state.site)
    for i, j in zip(down, down[1:] + down[:1], strict=True):
        site[j] = state.site[i]
    return dataclasses.replace(state, site=site)


def _urbanpanic_twin(state: Any, seat: int | None) -> Any:
    """The stack (the party's pool) in another order, and each other seat's party hand swapped for a tile of
    another kind from it."""
    stack = list(reversed(state.stack))
    players = []
    for i, p in enumerate(state.players):
        if i != seat and p.hand is not None:
            swap = next((n for n, code in enumerate(stack) if code != p.hand), None)
            if swap is not None:
                hand, stack[swap] = stack[swap], p.hand
                p = dataclasses.replace(p, hand=hand)
        players.append(p)
    return dataclasses.replace(state, stack=stack, players=players)


TWINS: dict[str, Callable[[Any, int | None], Any]] = {
    "btc": _btc_twin,
    "quadropolis": _quadropolis_twin,
    "urbanpanic": _urbanpanic_twin,
}


def twin(kind: str, state: Any, seat: int | None) -> Any:
    """The state with what ``seat`` may not see changed (``seat`` None: what nobody may see)."""
    return TWINS[kind](state, seat)


# -- what a page shows ----------------------------------------------------------------------------------------


def sentences_of(page: str) -> list[str]:
    """The move list's sentences as words."""
    found = re.search(r'<ol id="moves"[^>]*>(.*?)</ol>', page, re.S)
    assert found is not None
    items = re.findall(r'<span class="say">(.*?)</span>', found[1], re.S)
    return [html.unescape(re.sub(r"<[^>]+>", "", item)).strip() for item in items]


def own_parts(page: str, seat: int) -> str:
    """A signed-in seat's page without what it adds to the public page, each addition checked to be only the
    seat's own links: its seat number, its choices' address, whether it is its turn, its own picture's section
    and the board's script. What remains must be the public page, byte for byte."""
    live = re.search(r'<main id="live" ([^>]*)>', page)
    assert live is not None
    attrs = live[1]
    for pattern in (
        rf' data-seat="{seat}"',
        r' data-play="/g/[^"?]+/play\.json\?lang=[a-z]+"',
        r' data-yours="[01]"',
        r' data-your-turn="[^"<>]*"',
    ):
        found = re.findall(pattern, attrs)
        assert len(found) == 1, (pattern, attrs[-400:])
        attrs = attrs.replace(found[0], "")
    page = page.replace(live[0], f'<main id="live" {attrs}>')
    mine = re.findall(
        r'<section class="mine" id="mine"><h2>[^<]*</h2><img id="mine-picture" src="/g/[^"?]+/play\.png\?v=\d+&amp;'
        r'lang=[a-z]+" alt="[^"<>]*"><p><a href="/sessions\?lang=[a-z]+">[^<]*</a></p></section>',
        page,
    )
    assert len(mine) == 1, "the seat's own section is its picture and its sessions' link, once"
    script = '<script src="/static/board.js" defer></script>'
    assert page.count(script) == 1
    return page.replace(mine[0], "").replace(script, "")
