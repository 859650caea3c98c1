"""Every game's moves are typed (issue 37): each move its rules offer, its AIs choose or its clock plays has exactly
one of the shapes of ``bot/rules/<kind>/movetypes.py`` (keys and value types), which
:func:`bot.rules.core.is_kind` recognises, and the games played here meet every declared shape and optional key."""

from __future__ import annotations

import importlib
from typing import Any, get_args

import pytest

from bot import games
from bot.rules import core
from tests.viewshape import Shape

UNIONS = {"quadropolis": "QuadMove", "btc": "BtcMove", "urbanpanic": "UpMove"}
SEEDS = (1,)
MORE_TABLES: dict[str, list[tuple[dict[str, Any], int]]] = {
    "btc": [({"mode": "solo_full", "campaign": "3", "campaign_game": "2", "campaign_used": "S"}, 1)]
}
"""Tables whose moves the modes alone do not reach (a solo campaign game's bonus)."""


def rare_moves(kind: str) -> list[tuple[str, dict[str, Any]]]:
    """Moves whole games seldom meet: Between Two Cities' turned duplex (D-5 c), from its geometry test."""
    if kind != "btc":
        return []
    from tests.btc.test_geometry import _round_two

    state, (seat,) = _round_two([". O O O", ". O O O", "O O O O", "O O O O"], {0: "horizontal"})
    return [("a duplex that fits nowhere upright", m) for m in games.rules(kind).legal_moves(state, seat)]


def tables(rules: core.GameRules[Any]) -> list[tuple[dict[str, Any], int]]:
    """Every mode (the first option), at its smallest and its largest table."""
    modes = rules.option_specs[0].choices if rules.option_specs else ("",)
    out = []
    for mode in modes:
        options = {rules.option_specs[0].name: mode} if rules.option_specs else {}
        options = rules.normalise_options(options)
        low, high = rules.seat_range(options)
        out += [(options, seats) for seats in sorted({low, min(high, 4)})]
    return out


def moves_met(kind: str) -> list[tuple[str, dict[str, Any]]]:
    """(where, move) of moves offered (a few of each kind at every step), chosen by the first AI level or played by
    the clock in whole games of every table."""
    rules = games.rules(kind)
    out = rare_moves(kind)
    for options, seats in [*tables(rules), *MORE_TABLES.get(kind, [])]:
        for seed in SEEDS:
            state = rules.setup(dict(options), seats, seed)
            done = 0
            while not rules.is_over(state) and done < 400:
                where = f"{options}, {seats} seats, seed {seed}, move {done}"
                clock = rules.system_move(state, 10**15)
                if clock is not None:
                    out += [(f"{where}, the clock", clock), (f"{where}, the clock stamped", {**clock, "at": 10**15})]
                awaited = sorted(rules.awaiting(state))
                if not awaited:
                    break
                for seat in awaited:
                    offered: dict[str, list[dict[str, Any]]] = {}
                    for m in rules.legal_moves(state, seat):
                        offered.setdefault(m["kind"], []).append(m)
                    few = [m for same in offered.values() for m in same[:3]]
                    out += [(f"{where}, seat {seat} offered", m) for m in few]
                    if rules.uses_time:  # the service stamps each move it applies with the time
                        out += [(f"{where}, seat {seat} stamped", {**m, "at": 10**12}) for m in few]
                seat = awaited[0]
                move = rules.ai_move(state, seat, rules.ai_levels[0], seed + done)
                out.append((f"{where}, seat {seat} AI", move))
                state = rules.apply(state, seat, {**move, "at": done} if rules.uses_time else move)
                done += 1
    return out


@pytest.fixture(scope="module", params=sorted(UNIONS))
def game(request: pytest.FixtureRequest) -> tuple[Any, Any, list[tuple[str, dict[str, Any]]]]:
    kind = request.param
    module = importlib.import_module(f"bot.rules.{kind}.movetypes")
    return module, getattr(module, UNIONS[kind]), moves_met(kind)


def test_every_move_has_one_declared_shape(game: tuple[Any, Any, list[tuple[str, dict[str, Any]]]]) -> None:
    module, union, met = game
    shape = Shape(module)
    problems = [f"{where}: {p}" for where, move in met for p in shape.problems(move, union, "move")]
    assert problems[:10] == []
    shapes = get_args(union)
    ambiguous = [(where, move) for where, move in met if sum(core.is_kind(move, s) for s in shapes) != 1]
    assert ambiguous[:5] == []


def test_the_games_meet_every_declared_shape_and_optional_key(
    game: tuple[Any, Any, list[tuple[str, dict[str, Any]]]],
) -> None:
    module, union, met = game
    shape = Shape(module)
    for _, move in met:
        shape.problems(move, union, "move")
    assert set(shape.declared()) == {s.__name__ for s in get_args(union)}
    assert shape.unexercised() == []


def test_is_kind_checks_the_kind_and_the_keys() -> None:
    from bot.rules.btc.movetypes import BtcAssign, BtcChooseDuplexes, BtcChoosePair

    assert core.kind_name(BtcChoosePair) == "choose"
    assert core.is_kind({"kind": "choose", "tiles": [1, 2]}, BtcChoosePair)
    assert not core.is_kind({"kind": "choose", "tiles": [1, 2]}, BtcChooseDuplexes)
    assert core.is_kind({"kind": "assign", "left": 1, "right": 2}, BtcAssign)
    assert core.is_kind({"kind": "assign", "left": 1, "right": 2, "auto": 3}, BtcAssign)
    assert not core.is_kind({"kind": "assign", "left": 1}, BtcAssign)
    assert not core.is_kind({"kind": "assign", "left": 1, "right": 2, "extra": 0}, BtcAssign)
    moves = [{"kind": "choose", "left": 3, "right": 4}, {"kind": "choose", "tiles": [1, 2]}]
    assert core.of_kind(moves, BtcChooseDuplexes) == [moves[0]]
