"""The GameRules contract: legal moves are exactly the accepted ones, purity, JSON, views, catalogue."""

from __future__ import annotations

import ast
import json
import random
import re
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from bot import games, i18n
from bot.rules import core
from bot.rules.core import GameError, IllegalMove
from bot.rules.urbanpanic import tiles
from bot.rules.urbanpanic.engine import MOVE_FIELDS
from bot.rules.urbanpanic.rules import RULES
from bot.rules.urbanpanic.state import State

PACKAGE = Path(tiles.__file__).parent
CATALOGUE = json.loads((Path(i18n.__file__).parent / "locales" / "en" / "urbanpanic.json").read_text("utf-8"))
PLOT_NAMES = [tiles.square_name(i) for i in tiles.SQUARES]


def random_position(variant: str, seats: int, seed: int, steps: int) -> State:
    """A position reached by ``steps`` AI moves (mixed levels) from a seeded setup."""
    rnd = random.Random(seed)
    state = RULES.setup({"variant": variant}, seats, seed)
    for step in range(steps):
        if state.over:
            break
        seat = rnd.choice(sorted(RULES.awaiting(state)))
        level = rnd.choice(("random", "greedy"))
        state = RULES.apply(state, seat, RULES.ai_move(state, seat, level, seed + step))
    return state


def candidate_moves(state: State, rnd: random.Random, count: int) -> list[dict]:
    """Random moves from the whole vocabulary, most of them illegal."""
    codes = sorted(tiles.KINDS)
    near = (
        [c for p in state.players for c in p.reserve]
        + list(state.open_table)
        + [c for c in state.slots if c]
        + [p.hand for p in state.players if p.hand]
    )
    values = {
        "slot": lambda: rnd.choice([0, 1, 2, 3, 4, 5, "1", None]),
        "tile": lambda: rnd.choice(near or codes) if rnd.random() < 0.7 else rnd.choice([*codes, "X", 3]),
        "plot": lambda: rnd.choice([*PLOT_NAMES, "F1", "", 7]),
        "other": lambda: rnd.choice([*PLOT_NAMES, "Z9"]),
        "victim": lambda: rnd.choice([-1, 0, 1, 2, 3, 4, "1"]),
    }
    out = []
    for _ in range(count):
        kind = rnd.choice([*MOVE_FIELDS, "discard", "jump"])
        move = {"kind": kind}
        for name in MOVE_FIELDS.get(kind, ()):
            move[name] = values[name]()
        if rnd.random() < 0.05:
            move["extra"] = 1
        out.append(move)
    return out


def check_position(state: State, rnd: random.Random) -> None:
    """Every listed move is accepted and every unlisted one is refused with a catalogued sentence."""
    for seat in range(state.seats):
        legal = RULES.legal_moves(state, seat)
        assert (seat in RULES.awaiting(state)) == bool(legal)
        for move in rnd.sample(legal, min(len(legal), 25)):
            assert len(json.dumps(move, separators=(",", ":"))) <= 60, move
            RULES.apply(state, seat, move)
        for move in candidate_moves(state, rnd, 40):
            if move in legal:
                RULES.apply(state, seat, move)
                continue
            try:
                RULES.apply(state, seat, move)
            except GameError as err:
                assert err.key.startswith(("urbanpanic.", "error.")), err.key
                assert err.key in CATALOGUE or err.key in i18n.catalogue("en"), err.key
            else:
                raise AssertionError(f"unlisted move accepted: seat {seat} {move}")


@settings(max_examples=80, deadline=None)
@given(
    variant=st.sampled_from(["basic", "advanced", "party"]),
    seats=st.integers(2, 4),
    seed=st.integers(0, 2**31),
    steps=st.integers(0, 300),
)
def test_legal_moves_are_exactly_the_accepted_moves(variant, seats, seed, steps):
    """Listed moves apply; random unlisted moves (any seat) are refused with a sentence."""
    state = random_position(variant, seats, seed, steps)
    check_position(state, random.Random(seed))


@settings(max_examples=40, deadline=None)
@given(
    variant=st.sampled_from(["basic", "advanced", "party"]),
    seats=st.integers(2, 4),
    seed=st.integers(0, 2**31),
    steps=st.integers(0, 200),
)
def test_json_round_trip_and_apply_does_not_mutate(variant, seats, seed, steps):
    """to_json/from_json round-trip exactly (through JSON text); apply leaves its input untouched."""
    state = random_position(variant, seats, seed, steps)
    data = json.loads(json.dumps(RULES.to_json(state)))
    again = RULES.from_json(data)
    assert again == state and RULES.to_json(again) == data
    if not state.over:
        seat = min(RULES.awaiting(state))
        before = RULES.to_json(state)
        for move in RULES.legal_moves(state, seat)[:30]:
            RULES.apply(state, seat, move)
            assert RULES.to_json(state) == before


def test_view_is_json_and_hides_the_stack_order():
    """The view is JSON-able, shows the stack size only, and is the same whatever the stack order."""
    state = random_position("advanced", 3, 4, 30)
    view = RULES.view(state, 0)
    text = json.dumps(view)
    assert view["main_board"]["stack"] == len(state.stack)
    shuffled = state.copy()
    shuffled.stack = sorted(shuffled.stack)
    assert json.dumps(RULES.view(shuffled, 0)) == text
    assert len(view["players"][0]["grid"]) == 5 and all(len(r) == 5 for r in view["players"][0]["grid"])
    assert view["players"][0]["grid"][2][2] == {"centre": True}
    assert [t["id"] for t in view["legend"]["types"]] == list(tiles.TYPES)
    assert len(view["goals"]) == 4 and view["result"] is None


def test_view_cells_show_type_passages_and_reachability():
    """Each built cell names its tile, type, passages and whether it reaches the centre."""
    state = RULES.setup({}, 2, 1)
    state.players[0].board[tiles.square_index("C2")] = "HOU-EW"
    state.players[0].board[tiles.square_index("B3")] = "FAC-NE"
    grid = RULES.view(state, None)["players"][0]["grid"]
    assert grid[1][2] == {"plot": "C2", "tile": "HOU-EW", "type": "HOU", "passages": "EW", "reachable": False}
    assert grid[2][1]["reachable"] is True
    assert grid[0][0] is None


def test_view_at_the_end_carries_the_result():
    """A finished game's view includes the result."""
    state = random_position("basic", 2, 3, 2000)
    assert state.over
    assert RULES.view(state, None)["result"] == RULES.result(state).to_json()


def test_describe_keys_are_catalogued_and_name_the_seat():
    """Every move's public summary uses a catalogued key and carries the seat."""
    rnd = random.Random(5)
    for variant in ("basic", "advanced", "party"):
        state = RULES.setup({"variant": variant}, 3, 9)
        while not state.over:
            seat = rnd.choice(sorted(RULES.awaiting(state)))
            move = RULES.ai_move(state, seat, rnd.choice(RULES.ai_levels), rnd.randrange(10**6))
            after = RULES.apply(state, seat, move)
            key, params = RULES.describe(state, seat, move, after)
            assert key in CATALOGUE, key
            assert params["seat"] == seat
            text = i18n.t(key, "en", player="P", **params)
            assert "{" not in text, text
            state = after


def test_illegal_move_keys_are_all_catalogued():
    """Every key used in an IllegalMove(...) call in the package exists in the catalogue."""
    keys = set()
    for path in PACKAGE.glob("*.py"):
        tree = ast.parse(path.read_text("utf-8"))
        for node in ast.walk(tree):
            if (
                isinstance(node, ast.Call)
                and getattr(node.func, "attr", getattr(node.func, "id", ""))
                in ("IllegalMove", "NotYourTurn", "GameOver")
                and node.args
            ):
                arg = node.args[0]
                assert isinstance(arg, ast.Constant), f"{path.name}:{node.lineno} uses a computed key"
                keys.add(arg.value)
    assert keys, "no keys found"
    missing = sorted(k for k in keys if k not in CATALOGUE)
    assert not missing, missing
    assert all(k.startswith("urbanpanic.") for k in CATALOGUE)


def test_catalogue_covers_goals_types_tracks_end_reasons_and_categories():
    """Front-end names exist for every goal card, tile type, track, end reason and breakdown key."""
    from bot.rules.urbanpanic.scoring import CATEGORIES
    from bot.rules.urbanpanic.state import END_REASONS

    for g in tiles.GOALS:
        assert f"urbanpanic.goal.{g}" in CATALOGUE
    for t in tiles.TYPES:
        assert f"urbanpanic.type.{t}" in CATALOGUE
    for t in tiles.TRACKS:
        assert f"urbanpanic.track.{t}" in CATALOGUE
    for r in END_REASONS[1:]:
        assert f"urbanpanic.end.{r}" in CATALOGUE
    for c in CATEGORIES:
        assert f"urbanpanic.breakdown.{c}" in CATALOGUE
    for name in ("urbanpanic.tiebreak.score", "urbanpanic.tiebreak.empty_plots", RULES.title_key):
        assert name in CATALOGUE


def test_package_is_pure():
    """bot/rules/urbanpanic imports only the standard library, bot.rules.core and itself."""
    allowed_stdlib = {"__future__", "collections", "dataclasses", "json", "pathlib", "random", "typing"}
    for path in PACKAGE.glob("*.py"):
        tree = ast.parse(path.read_text("utf-8"))
        for node in ast.walk(tree):
            names = []
            if isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom):
                names = [node.module or ""]
            for name in names:
                top = name.split(".")[0]
                ok = (
                    top in allowed_stdlib
                    or name == "bot.rules"
                    or name == "bot.rules.core"
                    or name.startswith("bot.rules.urbanpanic")
                )
                assert ok, f"{path.name} imports {name}"
    assert not re.search(r"\btime\.|datetime|open\(", "".join(p.read_text("utf-8") for p in PACKAGE.glob("*.py")))


def test_registry_and_protocol_attributes():
    """The registry finds RULES; kind, title, options and AI levels follow the contract."""
    assert games.rules("urbanpanic") is RULES
    assert RULES.kind == "urbanpanic" and RULES.title_key == "urbanpanic.title"
    assert RULES.option_specs[0].name == "variant"
    assert RULES.option_specs[0].choices == ("basic", "advanced", "party")
    assert RULES.option_specs[0].default == "basic"
    assert RULES.ai_levels == ("random", "greedy", "strong")
    assert RULES.normalise_options({}) == {"variant": "basic", "party_minutes": "15", "party_goals": "off"}


def test_bad_move_shapes_refused():
    """Non-dict moves, unknown kinds, missing or extra fields and a bad "at" are refused with sentences."""
    state = RULES.setup({}, 2, 1)
    seat = state.current
    for move, key in [
        ("architect", "urbanpanic.bad_move"),
        ({"kind": "fly"}, "urbanpanic.unknown_move"),
        ({"kind": "architect"}, "urbanpanic.bad_move"),
        ({"kind": "architect", "slot": 1, "x": 2}, "urbanpanic.bad_move"),
        ({"kind": "architect", "slot": 1, "at": "noon"}, "urbanpanic.bad_move"),
        ({"kind": 5}, "urbanpanic.unknown_move"),
    ]:
        try:
            RULES.apply(state, seat, move)  # type: ignore[arg-type]
        except IllegalMove as err:
            assert err.key == key, (move, err.key)
        else:
            raise AssertionError(move)
    assert RULES.apply(state, seat, {"kind": "architect", "slot": 1, "at": 123}).points == 2


def test_undoable():
    """Planner and Engineer moves are undoable; a basic Architect (refill revealed) and END_TURN are not."""
    state = RULES.setup({}, 2, 1)
    seat = state.current
    arch = {"kind": "architect", "slot": 1}
    after = RULES.apply(state, seat, arch)
    assert not RULES.undoable(state, seat, arch, after)
    code = after.players[seat].reserve[0]
    planner = {"kind": "planner", "tile": code, "plot": "A1"}
    assert RULES.undoable(after, seat, planner, RULES.apply(after, seat, planner))
    end = {"kind": "end_turn"}
    assert not RULES.undoable(after, seat, end, RULES.apply(after, seat, end))
    adv = RULES.setup({"variant": "advanced"}, 2, 1)
    assert RULES.undoable(adv, adv.current, arch, RULES.apply(adv, adv.current, arch))
    party = RULES.setup({"variant": "party"}, 2, 1)
    draw = {"kind": "draw"}
    assert not RULES.undoable(party, 0, draw, RULES.apply(party, 0, draw))


def test_system_seat_and_deadline_absent_in_turn_games():
    """Turn games have no timers."""
    state = RULES.setup({"variant": "advanced"}, 3, 2)
    assert RULES.timer_deadline(state) is None and RULES.system_move(state, 10**13) is None
    assert RULES.legal_moves(state, core.SYSTEM_SEAT) == []
