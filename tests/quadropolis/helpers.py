"""Shared helpers for the Quadropolis tests."""

from __future__ import annotations

from bot.rules.core import Cell
from bot.rules.quadropolis import tiles as T
from bot.rules.quadropolis.allocation import best_allocation
from bot.rules.quadropolis.calculator import score_given
from bot.rules.quadropolis.notation import parse_city
from bot.rules.quadropolis.rules import RULES
from bot.rules.quadropolis.scoring import ScoreSheet
from bot.rules.quadropolis.state import PHASE_BUILD, QuadState
from bot.rules.quadropolis.tiles import MODE_RULES

CLASSIC = MODE_RULES["classic"]
EXPERT = MODE_RULES["expert"]


def city(text: str) -> list[str]:
    """Spec notation with rows separated by ' / '."""
    return [row.strip() for row in text.split("/")]


def fixed(mode: str, text: str, inhabitants: int, energy: int) -> ScoreSheet:
    """Score a spec city with the allocation its tokens give."""
    rules = MODE_RULES[mode]
    return score_given(rules, parse_city(rules, city(text)), inhabitants, energy)


def optimal(mode: str, text: str, inhabitants: int, energy: int) -> ScoreSheet:
    """Score a spec city with the engine's best allocation."""
    rules = MODE_RULES[mode]
    return best_allocation(rules, parse_city(rules, city(text)).grid, inhabitants, energy)


def nonzero(sheet: ScoreSheet) -> dict[str, int]:
    return {k: v for k, v in sheet.categories.items() if v}


# -- game-state helpers -------------------------------------------------------------------------


def new_game(mode: str = "classic", players: int = 2, seed: int = 1) -> QuadState:
    return RULES.setup({"mode": mode}, players, seed)


def site_cell(name: str) -> Cell:
    """'S(3,2)' -> (2, 1)."""
    r, c = name.strip("S()").split(",")
    return (int(r) - 1, int(c) - 1)


def put_on_site(state: QuadState, kind_id: str, cell: Cell) -> str:
    """Move a face-up tile of that kind (swapping within the site) onto a square; returns its id."""
    index = cell[0] * 5 + cell[1]
    for i, tid in enumerate(state.site):
        if tid is not None and tid.startswith(kind_id + "#"):
            state.site[i], state.site[index] = state.site[index], state.site[i]
            state.face_down[i], state.face_down[index] = state.face_down[index], state.face_down[i]
            state.face_down[index] = False
            return tid
    raise AssertionError(f"no {kind_id} on the site")


def give_pending(state: QuadState, kind_id: str, architect: int) -> QuadState:
    """Pretend the current player just took a tile of that kind with that architect."""
    state.pending = f"{kind_id}#1"
    state.pending_architect = architect
    state.phase = PHASE_BUILD
    return state


def build_city(state: QuadState, seat: int, stacks: dict[str, list[str]]) -> None:
    """Put stacks of tile kinds on a player's squares: {"A1": ["K04", "K05"]}."""
    mode = state.rules
    for name, kinds in stacks.items():
        r, c = ord(name[0]) - ord("A"), int(name[1:]) - 1
        assert 0 <= r < mode.rows and 0 <= c < mode.cols
        state.seats[seat].city[r][c] = [f"{k}#1" for k in kinds]


def build_squares(state: QuadState) -> dict[str, int]:
    """The build moves offered now: square -> floor."""
    return {m["square"]: m.get("floor", 1) for m in RULES.legal_moves(state, state.current) if m["kind"] == "build"}


def first_of_type(mode: str, type_: str, **attrs: object) -> str:
    """The id of the first manifest kind of a type used in that mode (with given attributes)."""
    for k in T.KINDS:
        if k.type == type_ and k.in_mode(mode) and all(getattr(k, a) == v for a, v in attrs.items()):
            return k.id
    raise AssertionError(type_)
