"""Run-time check that a JSON-like value matches a ``TypedDict`` (recursively), for the view types.

``Shape(module)`` checks values against the TypedDicts of a game's ``viewtypes`` module and keeps
track of which TypedDicts and which optional keys the checked values exercised, so a test can also
prove that its seeded states reach every part of the declared types.
"""

from __future__ import annotations

import types
from collections.abc import Iterable
from typing import Any, Literal, Union, get_args, get_origin, get_type_hints, is_typeddict


class Shape:
    def __init__(self, module: types.ModuleType | None = None) -> None:
        self.module = module
        self.seen: set[str] = set()
        self.optional_seen: set[tuple[str, str]] = set()

    # -- checking ---------------------------------------------------------------------------
    def problems(self, value: Any, tp: Any, path: str = "view") -> list[str]:
        """Every place where ``value`` departs from ``tp`` (empty list: it matches)."""
        out: list[str] = []
        self._check(value, tp, path, out)
        return out

    def _check(self, value: Any, tp: Any, path: str, out: list[str]) -> None:
        if tp is Any or tp is object:
            return
        if tp is None or tp is type(None):
            if value is not None:
                out.append(f"{path}: expected None, got {value!r}")
            return
        if is_typeddict(tp):
            self._typeddict(value, tp, path, out)
            return
        origin = get_origin(tp)
        if origin is Literal:
            if value not in get_args(tp) or isinstance(value, bool) != any(isinstance(a, bool) for a in get_args(tp)):
                out.append(f"{path}: {value!r} is not one of {get_args(tp)}")
            return
        if origin in (Union, types.UnionType):
            for option in get_args(tp):
                trial: list[str] = []
                probe = Shape(self.module)  # only the option that matches counts as met
                probe._check(value, option, path, trial)
                if not trial:
                    self.seen |= probe.seen
                    self.optional_seen |= probe.optional_seen
                    return
            out.append(f"{path}: {value!r} matches none of {tp}")
            return
        if origin is list:
            if not isinstance(value, list):
                out.append(f"{path}: expected a list, got {type(value).__name__}")
                return
            (item,) = get_args(tp)
            for i, element in enumerate(value):
                self._check(element, item, f"{path}[{i}]", out)
            return
        if origin is dict:
            if not isinstance(value, dict):
                out.append(f"{path}: expected a dict, got {type(value).__name__}")
                return
            key_tp, value_tp = get_args(tp)
            for key, element in value.items():
                self._check(key, key_tp, f"{path} key {key!r}", out)
                self._check(element, value_tp, f"{path}[{key!r}]", out)
            return
        if tp is bool:
            if not isinstance(value, bool):
                out.append(f"{path}: expected a bool, got {value!r}")
            return
        if tp is int:
            if not isinstance(value, int) or isinstance(value, bool):
                out.append(f"{path}: expected an int, got {value!r}")
            return
        if tp is float:
            if not isinstance(value, int | float) or isinstance(value, bool):
                out.append(f"{path}: expected a number, got {value!r}")
            return
        if tp is str:
            if not isinstance(value, str):
                out.append(f"{path}: expected a str, got {value!r}")
            return
        raise TypeError(f"{path}: the checker does not know the type {tp!r}")

    def _typeddict(self, value: Any, tp: Any, path: str, out: list[str]) -> None:
        if not isinstance(value, dict):
            out.append(f"{path}: expected a {tp.__name__} dict, got {type(value).__name__}")
            return
        self.seen.add(tp.__name__)
        required: frozenset[str] = tp.__required_keys__
        optional: frozenset[str] = tp.__optional_keys__
        missing = sorted(required - set(value))
        unknown = sorted(set(value) - required - optional)
        if missing:
            out.append(f"{path}: {tp.__name__} misses {missing}")
        if unknown:
            out.append(f"{path}: {tp.__name__} has unknown keys {unknown}")
        hints = get_type_hints(tp)
        for key in sorted(set(value) & set(hints)):
            if key in optional:
                self.optional_seen.add((tp.__name__, key))
            self._check(value[key], hints[key], f"{path}.{key}", out)

    # -- coverage ---------------------------------------------------------------------------
    def declared(self) -> dict[str, Any]:
        """The TypedDicts the module declares (by name)."""
        assert self.module is not None
        return {
            name: obj
            for name, obj in vars(self.module).items()
            if is_typeddict(obj) and obj.__module__ == self.module.__name__
        }

    def unexercised(self) -> list[str]:
        """Declared TypedDicts never met, and optional keys never present, in the values checked."""
        out: list[str] = []
        for name, td in sorted(self.declared().items()):
            if name not in self.seen:
                out.append(name)
                continue
            out.extend(f"{name}.{key}" for key in sorted(td.__optional_keys__) if (name, key) not in self.optional_seen)
        return out


def check_all(shape: Shape, views: Iterable[tuple[str, Any]], tp: Any) -> list[str]:
    """Problems of every (label, view) pair, each prefixed by its label."""
    out: list[str] = []
    for label, view in views:
        out.extend(f"{label}: {p}" for p in shape.problems(view, tp))
    return out
