"""The Urban Panic turn log the Discord layer tells whole turns from (engine addition, spec 8 and 13).

Every action of a turn is public (spec 13), so the state keeps the actions of the turn in progress
and the last completed turn; views show both; JSON round-trips them; old snapshots without them load.
"""

from __future__ import annotations

import pytest

from bot.rules.urbanpanic.rules import RULES
from bot.rules.urbanpanic.state import State


def play_until_end_turn(state: State) -> tuple[State, list[str]]:
    """Greedy AI plays the current player's whole turn; returns the state and the action kinds."""
    kinds: list[str] = []
    seat = state.current
    n = 0
    while True:
        move = RULES.ai_move(state, seat, "greedy", n)
        n += 1
        state = RULES.apply(state, seat, move)
        kinds.append(str(move["kind"]))
        if move["kind"] == "end_turn":
            return state, kinds


@pytest.mark.parametrize("variant", ["basic", "advanced"])
def test_turn_log_records_each_action_then_becomes_the_previous_turn(variant: str) -> None:
    """Each action adds one public entry; END_TURN moves the list to previous_turn and starts afresh."""
    state = RULES.setup({"variant": variant}, 3, 11)
    seat = state.current
    slot_tile = state.slots[0]
    after = RULES.apply(state, seat, {"kind": "architect", "slot": 1})
    assert state.turn_log == []  # apply never mutates its input
    assert after.turn_log == [{"kind": "architect", "slot": 1, "tile": slot_tile}]
    assert RULES.view(after, None)["turn_log"] == after.turn_log
    done, kinds = play_until_end_turn(after)
    assert done.turn_log == []
    assert done.previous_turn is not None and done.previous_turn["seat"] == seat
    assert done.previous_turn["turn"] == state.turn
    assert [a["kind"] for a in done.previous_turn["actions"]] == ["architect", *kinds[:-1]]
    assert RULES.view(done, 0)["previous_turn"] == done.previous_turn


def test_turn_log_survives_json_and_old_snapshots_still_load() -> None:
    """to_json/from_json keep the log exactly; a snapshot written before the log existed loads empty."""
    state = RULES.setup({"variant": "basic"}, 2, 5)
    state = RULES.apply(state, state.current, {"kind": "architect", "slot": 2})
    state, _ = play_until_end_turn(state)
    state = RULES.apply(state, state.current, {"kind": "architect", "slot": 3})
    data = RULES.to_json(state)
    assert RULES.from_json(data) == state
    old = {k: v for k, v in data.items() if k not in ("turn_log", "previous_turn")}
    loaded = RULES.from_json(old)
    assert loaded.turn_log == [] and loaded.previous_turn is None


def test_engineer_reserve_entry_names_the_tile_sent_back() -> None:
    """An Engineer swap with the reserve logs both the tile built and the one returned to the reserve."""
    state = RULES.setup({"variant": "basic"}, 2, 3)
    seat = state.current
    for _ in range(40):
        moves = RULES.legal_moves(state, seat)
        swap = next((m for m in moves if m["kind"] == "engineer_reserve"), None)
        if swap is not None:
            here = state.players[seat].board
            after = RULES.apply(state, seat, swap)
            entry = after.turn_log[-1]
            assert entry["kind"] == "engineer_reserve" and entry["tile"] == swap["tile"]
            assert entry["plot"] == swap["plot"] and entry["removed"] in here
            return
        move = RULES.ai_move(state, state.current, "greedy", len(state.turn_log))
        state = RULES.apply(state, state.current, move)
        seat = state.current
    pytest.fail("no engineer_reserve move came up in 40 moves")


def test_party_views_carry_no_turn_log() -> None:
    """The party game has no turns: its view has neither key and its moves log nothing."""
    state = RULES.setup({"variant": "party"}, 2, 1)
    state = RULES.apply(state, 0, {"kind": "draw"})
    view = RULES.view(state, None)
    assert "turn_log" not in view and "previous_turn" not in view and state.turn_log == []
