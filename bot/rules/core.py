"""The game protocol shared by every game, and the helpers every rules package needs.

Pure and deterministic: standard library only. No I/O, no Discord, no asyncio, no clock.

A game is a :class:`GameRules` object. Its state is the game's own (usually a dataclass);
moves are plain JSON-able dicts with a ``"kind"`` key, so they can travel through the move log,
Discord custom_ids and the terminal unchanged. Each game types its moves (``bot/rules/<kind>/movetypes.py``:
one ``TypedDict`` per shape, its ``kind`` a ``Literal``, and no ``from __future__ import annotations`` so that
``NotRequired`` stays visible at run time); a front-end picks moves of one shape with :func:`is_kind` and
:func:`of_kind`, which check the shape and give the type checker the move's fields (``tests/test_movetypes.py``
checks that every move the rules offer has one of its game's shapes).
"""

from __future__ import annotations

import hashlib
import random
from collections.abc import Callable, Hashable, Iterable, Iterator, Mapping
from dataclasses import dataclass
from typing import Any, ClassVar, Generic, TypeGuard, TypeVar, get_args, get_type_hints

# The results and ranks (bot/rules/ranking.py), part of the protocol, re-exported.
from bot.rules.ranking import Result as Result
from bot.rules.ranking import SeatResult as SeatResult
from bot.rules.ranking import build_result as build_result
from bot.rules.ranking import competition_ranks as competition_ranks
from bot.rules.ranking import deciding_factor as deciding_factor

Move = dict[str, Any]
"""A move as it travels (JSON-able, with a ``"kind"`` key naming it: ``{"kind": "take", "slot": "N2"}``); its
game's ``TypedDict`` of that kind says its fields (:func:`is_kind`)."""

M = TypeVar("M")


_SHAPES: dict[object, tuple[str, frozenset[str], frozenset[str]]] = {}


def _shape(move_type: type[Any]) -> tuple[str, frozenset[str], frozenset[str]]:
    """(kind, required keys, all keys) of a move ``TypedDict`` whose ``kind`` is one ``Literal``."""
    hit = _SHAPES.get(move_type)
    if hit is None:
        (kind,) = get_args(get_type_hints(move_type)["kind"])
        required: frozenset[str] = move_type.__required_keys__
        hit = _SHAPES[move_type] = (str(kind), required, required | move_type.__optional_keys__)
    return hit


def kind_name(move_type: type[Any]) -> str:
    """The kind a move ``TypedDict`` names (``Take`` -> ``"take"``)."""
    return _shape(move_type)[0]


def is_kind(move: Mapping[str, Any], move_type: type[M]) -> TypeGuard[M]:
    """Whether ``move`` has the shape of ``move_type`` (a game's move ``TypedDict``): its kind, every key the
    type requires and no other."""
    kind, required, allowed = _shape(move_type)
    return move.get("kind") == kind and required.issubset(move) and allowed.issuperset(move)


def of_kind(moves: Iterable[Mapping[str, Any]], move_type: type[M]) -> list[M]:
    """The moves of one shape (:func:`is_kind`), in their order."""
    return [m for m in moves if is_kind(m, move_type)]


JSON = Any

SYSTEM_SEAT = -1
"""The seat the service uses for moves nobody chose: timers running out, automatic steps."""

Cell = tuple[int, int]
"""A grid cell as (row, column), both zero-based."""

TERM_KEY = "$term"
Term = dict[str, Any]
"""A word or phrase of the game for a reader in any language: ``{"$term": catalogue id, **params}``.
The rules put terms (never English text) in views, summaries and refusals; :func:`bot.i18n.t`
translates a term given as a parameter (and a list of terms, joined), so a tile is "a tower block"
for one reader and "egy toronyház" for another."""


def term(key: str, /, **params: Any) -> Term:
    """A term (see :data:`Term`): JSON-able, so it can sit in a stored view or summary."""
    return {TERM_KEY: key, **params}


SEAT_KEY = "$seat"


def seat_ref(seat: int) -> dict[str, int]:
    """A seat named in a description (a parameter, at any depth): the rules do not know the players' names,
    so the front-end puts the seat's name in its place (:func:`name_seats`)."""
    return {SEAT_KEY: seat}


def name_seats(value: Any, name_of: Callable[[int], str]) -> Any:
    """``value`` (a description's parameters: dicts, lists, terms) with every :func:`seat_ref` replaced by
    ``name_of(seat)``."""
    if isinstance(value, dict):
        if value.keys() == {SEAT_KEY}:
            return name_of(int(value[SEAT_KEY]))
        return {k: name_seats(v, name_of) for k, v in value.items()}
    if isinstance(value, list):
        return [name_seats(v, name_of) for v in value]
    return value


# ---------------------------------------------------------------------------------------------
# Errors: every refusal carries a message id and parameters, translated by the message catalogue
# (bot/locales/<locale>/*.json). ``str(error)`` gives the English sentence when a catalogue is
# installed (the service installs it at import), else the id and parameters.
# ---------------------------------------------------------------------------------------------

_translator: Callable[[str, Mapping[str, Any]], str] | None = None


def install_translator(func: Callable[[str, Mapping[str, Any]], str] | None) -> None:
    """Let errors render their English sentence with ``str()`` (used by logs and the terminal)."""
    global _translator
    _translator = func


class GameError(Exception):
    """A refusal a player can read. ``key`` is a catalogue message id, ``params`` fill it in."""

    default_key: ClassVar[str] = "error.illegal"

    def __init__(self, key: str | None = None, /, **params: Any) -> None:
        self.key = key or self.default_key
        self.params = params
        super().__init__(self.key)

    def __str__(self) -> str:
        if _translator is not None:
            return _translator(self.key, self.params)
        if self.params:
            inner = ", ".join(f"{k}={v!r}" for k, v in sorted(self.params.items()))
            return f"{self.key}({inner})"
        return self.key


class IllegalMove(GameError):
    """The move breaks a rule; nothing changed."""

    default_key = "error.illegal"


class NotYourTurn(IllegalMove):
    """Someone acted who is not awaited."""

    default_key = "error.not_your_turn"


class GameOver(IllegalMove):
    """The game has ended; no more moves."""

    default_key = "error.game_over"


# ---------------------------------------------------------------------------------------------
# Deterministic randomness
# ---------------------------------------------------------------------------------------------


def derive_seed(seed: int, *labels: Hashable) -> int:
    """A 64-bit seed derived from ``seed`` and labels, stable across processes and Python versions."""
    text = repr((int(seed), *labels)).encode()
    return int.from_bytes(hashlib.sha256(text).digest()[:8], "big")


def rng(seed: int, *labels: Hashable) -> random.Random:
    """A private random stream for one purpose (``rng(seed, "round", 2)``)."""
    return random.Random(derive_seed(seed, *labels))


def shuffled(items: Iterable[Any], seed: int, *labels: Hashable) -> list[Any]:
    """A new list with the items in a seeded order."""
    out = list(items)
    rng(seed, *labels).shuffle(out)
    return out


# ---------------------------------------------------------------------------------------------
# Grid geometry
# ---------------------------------------------------------------------------------------------

ORTHOGONAL: tuple[Cell, ...] = ((-1, 0), (0, 1), (1, 0), (0, -1))
"""Offsets north, east, south, west."""


def in_grid(cell: Cell, rows: int, cols: int) -> bool:
    """Whether a cell lies on a rows x cols grid."""
    return 0 <= cell[0] < rows and 0 <= cell[1] < cols


def neighbours(cell: Cell, rows: int, cols: int) -> list[Cell]:
    """The orthogonal neighbours of a cell that lie on the grid (N, E, S, W order)."""
    r, c = cell
    return [(r + dr, c + dc) for dr, dc in ORTHOGONAL if in_grid((r + dr, c + dc), rows, cols)]


def cells(rows: int, cols: int) -> Iterator[Cell]:
    """Every cell of a grid in reading order."""
    for r in range(rows):
        for c in range(cols):
            yield (r, c)


def connected_groups(members: Iterable[Cell], linked: Callable[[Cell, Cell], bool] | None = None) -> list[list[Cell]]:
    """Split cells into groups connected orthogonally (and by ``linked`` when given).

    Groups are sorted cells, listed by their first cell, so results are deterministic.
    """
    pool = set(members)
    groups: list[list[Cell]] = []
    for start in sorted(pool):
        if start not in pool:
            continue
        pool.discard(start)
        group = [start]
        stack = [start]
        while stack:
            r, c = stack.pop()
            for dr, dc in ORTHOGONAL:
                nxt = (r + dr, c + dc)
                if nxt in pool and (linked is None or linked((r, c), nxt)):
                    pool.discard(nxt)
                    group.append(nxt)
                    stack.append(nxt)
        groups.append(sorted(group))
    return groups


def reachable(start: Cell, members: Iterable[Cell], linked: Callable[[Cell, Cell], bool]) -> set[Cell]:
    """Cells of ``members`` reachable from ``start`` through orthogonal steps that ``linked`` allows.

    ``start`` is included when it is a member.
    """
    pool = set(members)
    if start not in pool:
        return set()
    seen = {start}
    stack = [start]
    while stack:
        r, c = stack.pop()
        for dr, dc in ORTHOGONAL:
            nxt = (r + dr, c + dc)
            if nxt in pool and nxt not in seen and linked((r, c), nxt):
                seen.add(nxt)
                stack.append(nxt)
    return seen


def runs(members: Iterable[Cell], min_length: int = 1) -> list[list[Cell]]:
    """Maximal horizontal and vertical runs of consecutive member cells.

    Rows first (left to right), then columns (top to bottom); each run at least ``min_length``.
    A lone cell is a run of length 1 in both directions; with ``min_length=1`` it is listed once
    per direction.
    """
    pool = set(members)
    out: list[list[Cell]] = []
    for horizontal in (True, False):
        for cell in sorted(pool, key=(lambda x: x) if horizontal else (lambda x: (x[1], x[0]))):
            step = (0, 1) if horizontal else (1, 0)
            prev = (cell[0] - step[0], cell[1] - step[1])
            if prev in pool:
                continue
            run = [cell]
            nxt = (cell[0] + step[0], cell[1] + step[1])
            while nxt in pool:
                run.append(nxt)
                nxt = (nxt[0] + step[0], nxt[1] + step[1])
            if len(run) >= min_length:
                out.append(run)
    return out


def cell_name(cell: Cell) -> str:
    """A cell as players name it: row letter and column number, ``(0, 2)`` -> ``"A3"``."""
    return f"{chr(ord('A') + cell[0])}{cell[1] + 1}"


def parse_cell(name: str, rows: int, cols: int) -> Cell:
    """The inverse of :func:`cell_name`; raises IllegalMove for a cell off the grid."""
    text = name.strip().upper()
    try:
        cell = (ord(text[0]) - ord("A"), int(text[1:]) - 1)
    except (IndexError, ValueError):
        raise IllegalMove("error.bad_cell", cell=name) from None
    if not in_grid(cell, rows, cols):
        raise IllegalMove("error.bad_cell", cell=name)
    return cell


# ---------------------------------------------------------------------------------------------
# The protocol
# ---------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class OptionSpec:
    """One option a host chooses when creating a game (shown as a slash-command choice)."""

    name: str
    choices: tuple[str, ...]
    default: str
    help_key: str = ""
    shown: bool = True
    """False for bookkeeping a host never picks (a campaign's used bonus types): not listed in the lobby."""


S = TypeVar("S")


class GameRules(Generic[S]):
    """What every game implements. Subclass it in ``bot/rules/<game>/rules.py`` as ``RULES``.

    All methods are pure: they never mutate their arguments and never read the clock.
    """

    kind: ClassVar[str] = ""
    """Short id used in commands, the store and the registry (one word, lower case, the package's name)."""
    title_key: ClassVar[str] = ""
    option_specs: ClassVar[tuple[OptionSpec, ...]] = ()
    ai_levels: ClassVar[tuple[str, ...]] = ()
    uses_time: ClassVar[bool] = False
    """True when moves must carry ``"at"`` (epoch ms, added by the service) for timers."""

    # -- lobby -------------------------------------------------------------------------------
    def seat_range(self, options: Mapping[str, Any]) -> tuple[int, int]:
        """(minimum, maximum) number of seats for these options."""
        raise NotImplementedError

    def normalise_options(self, options: Mapping[str, Any]) -> dict[str, Any]:
        """Fill defaults and check every option; raises IllegalMove with a sentence if bad."""
        out: dict[str, Any] = {}
        for spec in self.option_specs:
            value = str(options.get(spec.name, spec.default))
            if value not in spec.choices:
                raise IllegalMove("error.bad_option", option=spec.name, value=value, choices=", ".join(spec.choices))
            out[spec.name] = value
        unknown = set(options) - {s.name for s in self.option_specs}
        if unknown:
            raise IllegalMove("error.unknown_option", option=sorted(unknown)[0])
        return out

    # -- play --------------------------------------------------------------------------------
    def setup(self, options: Mapping[str, Any], seat_count: int, seed: int) -> S:
        raise NotImplementedError

    def awaiting(self, state: S) -> frozenset[int]:
        """Seats that must act now (empty when the game is over)."""
        raise NotImplementedError

    def legal_moves(self, state: S, seat: int) -> list[Move]:
        """Every legal move of ``seat`` now (empty when it is not awaited)."""
        raise NotImplementedError

    def apply(self, state: S, seat: int, move: Move) -> S:
        """The state after the move, or IllegalMove. Never mutates ``state``."""
        raise NotImplementedError

    def is_over(self, state: S) -> bool:
        raise NotImplementedError

    def result(self, state: S) -> Result:
        """Final (or, before the end, provisional) scores with breakdown and ranks."""
        raise NotImplementedError

    def view(self, state: S, seat: int | None) -> Mapping[str, Any]:
        """What ``seat`` may see (``None``: a spectator). JSON-able; never another's secret.

        Generic code reads it as a mapping; each game returns its own TypedDict (``viewtypes.py`` in
        its rules package), which its renderer, presenter and labels read."""
        raise NotImplementedError

    # -- serialisation -----------------------------------------------------------------------
    def to_json(self, state: S) -> dict[str, Any]:
        raise NotImplementedError

    def from_json(self, data: Mapping[str, Any]) -> S:
        raise NotImplementedError

    # -- helpers for front-ends ------------------------------------------------------------
    def describe(self, before: S, seat: int, move: Move, after: S) -> tuple[str, dict[str, Any]]:
        """A public one-line summary of a move as (message id, params). Never reveals a secret."""
        return ("move.generic", {"kind": move.get("kind", "?")})

    def undoable(self, before: S, seat: int, move: Move, after: S) -> bool:
        """Whether taking this move back reveals nothing (no tile drawn, no hand passed)."""
        return False

    def ai_move(self, state: S, seat: int, level: str, seed: int) -> Move:
        """A legal move chosen by the AI of ``level`` for ``seat``; deterministic in ``seed``."""
        raise NotImplementedError

    def system_move(self, state: S, now_ms: int) -> Move | None:
        """A move the service must apply as SYSTEM_SEAT at time ``now_ms`` (a timer ran out).

        Games with no timers return None. Moves applied by the service carry ``"at"`` (ms since
        the epoch) so timers are part of the replayable state.
        """
        return None

    def timer_deadline(self, state: S) -> int | None:
        """Epoch ms at which :meth:`system_move` will have something to do, if any."""
        return None

    def observe(self, state: S, seat: int, known: Any) -> Any:
        """For the after-game analysis: what ``seat`` has seen (JSON-able), ``state`` included (``known``: before)."""

    def determinize(self, state: S, seat: int, known: Any, seed: int) -> S:
        """A state ``seat`` cannot tell from ``state``: all it cannot see (draw order, others' hands and
        unrevealed choices, which are taken back) dealt again from ``seed``, never from the hidden truth."""
        return state

    def active_result(self, state: S) -> Result | None:
        """The result if the game is over, else None."""
        return self.result(state) if self.is_over(state) else None
