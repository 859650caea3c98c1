"""Catalogue coverage, views (no hidden tile leaks), describe, undo, results and tie-breaks."""

from __future__ import annotations

import ast
import json
import string
from pathlib import Path

import pytest

from bot import games, i18n
from bot.rules import core
from bot.rules.quadropolis import rules as qp_rules
from bot.rules.quadropolis import tiles as T
from bot.rules.quadropolis.engine import TIEBREAK_NAMES
from bot.rules.quadropolis.rules import RULES
from bot.rules.quadropolis.state import PHASE_BUILD
from tests.quadropolis.helpers import build_city, first_of_type, fixed, give_pending, new_game

PACKAGE = Path(qp_rules.__file__).parent
CATALOGUE = json.loads((PACKAGE.parents[1] / "locales" / "en" / "quadropolis.json").read_text())


def keys_used_in_package() -> set[str]:
    """First arguments of every IllegalMove(...)/GameError call in the package that are literals."""
    keys: set[str] = set()
    for path in PACKAGE.glob("*.py"):
        tree = ast.parse(path.read_text())
        for node in ast.walk(tree):
            if (
                isinstance(node, ast.Call)
                and getattr(node.func, "id", getattr(node.func, "attr", ""))
                in {"IllegalMove", "GameOver", "NotYourTurn"}
                and node.args
            ):
                arg = node.args[0]
                if isinstance(arg, ast.Constant) and isinstance(arg.value, str):
                    keys.add(arg.value)
                elif isinstance(arg, ast.IfExp):
                    keys |= {a.value for a in (arg.body, arg.orelse) if isinstance(a, ast.Constant)}
    return keys


def test_every_illegal_move_key_is_catalogued() -> None:
    """Every key raised in bot/rules/quadropolis has an English sentence."""
    keys = keys_used_in_package()
    assert len(keys) > 40
    catalogue = i18n.catalogue("en")
    assert sorted(k for k in keys if k not in catalogue) == []


def test_catalogue_keys_are_prefixed_and_formattable() -> None:
    """All keys start with quadropolis.; every sentence (every form of a plural one) is a valid format string."""
    for key, text in CATALOGUE.items():
        assert key.startswith("quadropolis."), key
        for form in [text] if isinstance(text, str) else [v for k, v in text.items() if k != "plural"]:
            list(string.Formatter().parse(form))


def test_reworded_allocation_errors_exist_for_the_calculator() -> None:
    """Each quadropolis.alloc.* key has its quadropolis.calc.given_* twin (the calculator re-keys them)."""
    for key in CATALOGUE:
        if key.startswith("quadropolis.alloc."):
            assert "quadropolis.calc.given_" + key.removeprefix("quadropolis.alloc.") in CATALOGUE


def test_rules_registered_with_contract() -> None:
    """The registry finds RULES; kind, title, option and AI levels as agreed."""
    rules = games.rules("quadropolis")
    assert rules is RULES
    assert rules.kind == "quadropolis" and rules.title_key == "quadropolis.title" and "quadropolis.title" in CATALOGUE
    assert [(o.name, o.choices, o.default) for o in rules.option_specs] == [("mode", ("classic", "expert"), "classic")]
    assert rules.ai_levels == ("random", "greedy", "strong")
    assert all(name in CATALOGUE for name in TIEBREAK_NAMES[1:])


def play(mode: str, players: int, seed: int, steps: int | None = None):  # type: ignore[no-untyped-def]
    state = new_game(mode, players, seed)
    k = 0
    while not RULES.is_over(state) and (steps is None or k < steps):
        state = RULES.apply(state, state.current, RULES.ai_move(state, state.current, "random", k))
        k += 1
    return state


def test_view_never_shows_face_down_tiles() -> None:
    """Face-down squares show only their state: no tile id appears anywhere in the view."""
    state = new_game("classic", 2, 3)
    hidden = [t for t, down in zip(state.site, state.face_down) if down]
    assert hidden
    text = json.dumps(RULES.view(state, 0))
    assert not any(t in text for t in hidden)
    assert text.count('"face_down"') == len(hidden)


def test_view_shape() -> None:
    """The view carries the documented sections and is JSON."""
    state = play("expert", 3, 4, steps=17)
    view = json.loads(json.dumps(RULES.view(state, None)))
    for key in (
        "mode",
        "round",
        "rounds",
        "first_player",
        "mayor",
        "turn",
        "site",
        "architects",
        "pending",
        "cities",
        "over",
        "result",
    ):
        assert key in view
    assert len(view["site"]["squares"]) == 5 and len(view["site"]["slots"]) == 20
    assert view["architects"]["pool"] is not None and view["architects"]["per_seat"] is None
    city = view["cities"][0]
    assert (city["rows"], city["columns"]) == (4, 5)
    assert set(city["score"]["categories"]) == {
        "towers",
        "shops",
        "public_services",
        "parks",
        "factories",
        "harbours",
        "offices",
        "monuments",
        "penalty",
    }
    assert city["score"]["total"] == sum(city["score"]["categories"].values())


def test_view_at_the_end_marks_activation_and_result() -> None:
    """At the end every building shows whether it is activated and the result is included."""
    state = play("classic", 2, 8)
    view = RULES.view(state, 1)
    assert view["over"] and view["result"] is not None
    buildings = [sq["building"] for row in view["cities"][0]["squares"] for sq in row if sq["building"]]
    assert buildings and all(isinstance(b["active"], bool) for b in buildings)
    assert view["cities"][0]["score"]["total"] == view["result"]["seats"][0]["total"]


def test_pending_tile_and_destinations_in_view() -> None:
    """After a take the view shows the tile waiting to be built and where it may go."""
    state = new_game("classic", 4, 2)
    state = RULES.apply(state, state.current, {"kind": "take", "architect": 2, "slot": "L2"})
    assert state.phase == PHASE_BUILD
    pending = RULES.view(state, None)["pending"]
    assert pending["architect"] == 2 and len(pending["destinations"]) == 7


def test_describe_uses_catalogued_keys_with_seat() -> None:
    """describe gives a catalogued key, the seat, and fills every placeholder but {player}."""
    state = new_game("classic", 4, 6)
    k = 0
    seen = set()
    while not RULES.is_over(state) and k < 80:
        seat = state.current
        move = RULES.ai_move(state, seat, "greedy" if k % 3 else "random", k)
        after = RULES.apply(state, seat, move)
        key, params = RULES.describe(state, seat, move, after)
        assert key in CATALOGUE and params["seat"] == seat
        text = i18n.t(key, "en", player="Ann", **params)
        assert "{" not in text, text
        seen.add(key)
        state = after
        k += 1
    assert {"quadropolis.move.take", "quadropolis.move.build"} <= seen


def test_describe_mayor() -> None:
    """The mayor sentence names the pawn."""
    state = new_game("classic", 2, 6)
    seat = state.current
    mayor = next(k.id for k in T.KINDS if k.mayor)
    give_pending(state, mayor, 1)
    after = RULES.apply(state, seat, {"kind": "build", "square": "A1"})
    key, params = RULES.describe(state, seat, {"kind": "build", "square": "A1"}, after)
    assert key == "quadropolis.move.build_mayor"
    assert "mayor pawn" in i18n.t(key, "en", player="Ann", **params)


def test_keeping_a_building_idle_is_only_a_given_allocation_of_the_calculator() -> None:
    """In a game, asking to keep the tower at A1 idle is refused and the engine's best placement stays
    (towers 1); the calculator's "given" allocation (a physical game, section 16) still scores an idle
    tower as before: towers 0 and -1 for the energy left over."""
    state = new_game("classic", 2, 6)
    seat = state.current
    tower = first_of_type("classic", "TOWER", mayor=False)
    build_city(state, seat, {"A1": [tower]})
    state.seats[seat].energy = 1
    assert RULES.result(state).seats[seat].breakdown["towers"] == 1
    for to in ("off", "auto"):
        move = {"kind": "allocate", "square": "A1", "to": to}
        assert move not in RULES.legal_moves(state, seat)
        with pytest.raises(core.IllegalMove) as refused:
            RULES.apply(state, seat, move)
        assert refused.value.key == "quadropolis.allocate.automatic"
    assert RULES.result(state).seats[seat].breakdown["towers"] == 1
    assert RULES.result(state).seats[seat].breakdown["penalty"] == 0
    empty_rows = " / . . . . / . . . . / . . . ."
    idle = fixed("classic", "T1- . . ." + empty_rows, 0, 1)
    assert (idle.categories["towers"], idle.categories["penalty"]) == (0, -1)
    active = fixed("classic", "T1 . . ." + empty_rows, 0, 1)
    assert (active.categories["towers"], active.categories["penalty"]) == (1, 0)


def test_undoable_until_a_new_site_is_dealt() -> None:
    """Moves are undoable except the one that ends a round (it deals a new site) or the game."""
    state = new_game("classic", 2, 9)
    k = 0
    while not RULES.is_over(state):
        seat = state.current
        move = RULES.ai_move(state, seat, "random", k)
        after = RULES.apply(state, seat, move)
        assert RULES.undoable(state, seat, move, after) == (after.round == state.round and not after.over)
        state = after
        k += 1


def _sheet_result(totals: list[int], placed: list[int], empty: list[int]) -> core.Result:
    return core.build_result(
        totals, [{} for _ in totals], [(p, -e) for p, e in zip(placed, empty)], names=TIEBREAK_NAMES
    )


def test_TB1() -> None:
    """Equal totals: more inhabitants on buildings wins."""
    res = _sheet_result([40, 40], [9, 7], [1, 1])
    assert res.winners() == [0] and res.decided_by == "quadropolis.tiebreak.inhabitants"


def test_TB2() -> None:
    """Equal totals and inhabitants: fewer empty squares wins."""
    res = _sheet_result([40, 40], [9, 9], [2, 1])
    assert res.winners() == [1] and res.decided_by == "quadropolis.tiebreak.empty_squares"


def test_TB3() -> None:
    """Still tied: first place is shared."""
    res = _sheet_result([40, 40], [9, 9], [1, 1])
    assert res.winners() == [0, 1] and res.decided_by == "shared"


def test_result_uses_the_spec_tiebreaks() -> None:
    """RULES.result ranks by total, then inhabitants on buildings, then fewer empty squares."""
    state = new_game("classic", 2, 1)
    shop = first_of_type("classic", "SHOP")
    for seat in (0, 1):
        build_city(state, seat, {"A1": [shop]})
        state.seats[seat].energy = 1
    state.seats[0].inhabitants = 0
    res = RULES.result(state)
    assert [s.total for s in res.seats] == [0, 0]
    assert res.seats[0].tiebreak == (0, -15) and res.decided_by == "shared"
    park = first_of_type("classic", "PARK")
    build_city(state, 1, {"B2": [park]})
    res = RULES.result(state)
    assert res.winners() == [1] and res.decided_by == "quadropolis.tiebreak.empty_squares"
