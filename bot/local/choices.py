"""The terminal's menu: each choice a player can tell apart offered once.

A hand may hold two tiles that are the same in all but their number (two parks, four factories): keeping
one or the other does the same thing, yet the moves differ and their labels are equal ("Keep park + shop"
twice). :func:`distinct` keeps one move of each such set; moves whose labels look alike but whose effects
differ keep their own lines, numbered so that they differ.
"""

from __future__ import annotations

import json
from collections import Counter
from typing import Any

from bot.i18n import t


def _shape(value: Any) -> Any:
    """``value`` (a view) with every ``id`` left out and every list of objects in one order: what a player
    sees of things that are alike, whichever copy of them is which."""
    if isinstance(value, dict):
        return {k: _shape(v) for k, v in value.items() if k != "id"}
    if isinstance(value, list):
        items = [_shape(v) for v in value]
        if items and all(isinstance(v, dict) for v in items):
            items.sort(key=lambda v: json.dumps(v, sort_keys=True, default=str))
        return items
    return value


def effect(rules: Any, state: Any, seat: int, move: dict[str, Any]) -> str:
    """What the move leaves the player to see (their own view after it, copies of alike things not told
    apart): two moves with the same effect are the same choice."""
    after = rules.apply(state, seat, move)
    return json.dumps(_shape(rules.view(after, seat)), sort_keys=True, default=str)


def distinct(
    rules: Any, state: Any, seat: int, moves: list[dict[str, Any]], labels: list[str], locale: str
) -> list[tuple[int, str]]:
    """(index in ``moves``, label) of each choice once, in the moves' order. Only moves whose labels are
    made of the same letters ("park + shop", "shop + park") are compared by their effect (applying a move
    takes time: the others are told apart by their labels already)."""
    alike: dict[str, list[int]] = {}
    for i, label in enumerate(labels):
        alike.setdefault("".join(sorted(label)), []).append(i)
    kept: list[int] = []
    for members in alike.values():
        if len(members) == 1:
            kept += members
            continue
        seen: set[str] = set()
        for i in members:
            try:
                key = effect(rules, state, seat, moves[i])
            except Exception:  # a move the rules cannot try here stays a choice of its own
                key = f"#{i}"
            if key not in seen:
                seen.add(key)
                kept.append(i)
    kept.sort()
    repeated = Counter(labels[i] for i in kept)
    numbers: Counter[str] = Counter()
    out: list[tuple[int, str]] = []
    for i in kept:
        label = labels[i]
        if repeated[label] > 1:  # alike on screen, different in effect: numbered
            numbers[label] += 1
            label = t("local.choice_variant", locale, label=label, n=numbers[label])
        out.append((i, label))
    return out
