"""The Urban Panic presenter without Discord: menus, labels, status lines, summaries, catalogue.

The menu tests walk every step of the menus offered in positions from seeded AI games and check
that exactly the legal moves are reachable (nothing illegal, nothing missing) within Discord's
limits (5 rows, 5 buttons a row, 25 options a select, 80-character labels, 100-character ids).
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import discord
import pytest

from bot.i18n import catalogue
from bot.rules.urbanpanic.rules import RULES
from bot.rules.urbanpanic.state import State
from bot.service import choices_token
from cogs import ids
from cogs.games import urbanpanic as up
from cogs.games.urbanpanic import PRESENTER, Entry, Step, parse_step, relative_time, step_id, tile_name
from render import pictures

GAME = 4242
VERSION = 17
ROOT = Path(__file__).resolve().parents[2]


def positions(variant: str, seats: int, seed: int, every: int = 1) -> Iterator[State]:
    """Every ``every``-th position of a greedy game (the state before each move); in the party
    game the awaited seats take turns, so hands are full and empty at every seat."""
    state = RULES.setup({"variant": variant}, seats, seed)
    n = 0
    while not RULES.is_over(state):
        if n % every == 0:
            yield state
        awaited = sorted(RULES.awaiting(state))
        seat = awaited[n % len(awaited)]
        state = RULES.apply(state, seat, RULES.ai_move(state, seat, "greedy", seed + n))
        n += 1


def check_layout(entries: list[Entry]) -> None:
    """Discord's limits, checked by discord.py itself and by hand."""
    ui = up.build_view(entries, "en")  # discord.py refuses a full row or more than 25 items
    rows = ui.to_components()
    assert len(rows) <= 5
    for row in rows:
        comps = row["components"]
        assert len(comps) <= 5 and (len(comps) == 1 or all(c["type"] == 2 for c in comps))
        for c in comps:
            assert len(c["custom_id"]) <= ids.MAX_CUSTOM_ID
            assert 1 <= len(c.get("label") or c.get("placeholder") or "x") <= 80
            assert len(c.get("options", [])) <= 25
    custom_ids = [e.custom_id for e in entries]
    assert len(custom_ids) == len(set(custom_ids))


def reachable(
    moves: list[dict[str, Any]], view: dict[str, Any], entries: list[Entry], token: str, depth: int = 0
) -> list[str]:
    """Every final move (compact JSON) reachable from these entries through the step menus."""
    assert depth < 5
    check_layout(entries)
    found: list[str] = []
    for e in entries:
        if e.custom_id.startswith("mv:"):
            parsed = ids.parse(e.custom_id)
            assert parsed.version == VERSION and parsed.token == token
            assert parsed.move is not None
            found.append(ids.compact(parsed.move))
        elif e.custom_id.startswith("up:"):
            step = parse_step(e.custom_id)
            assert (step.game_id, step.version) == (GAME, VERSION)
            if step.name == "d":
                found.append(ids.compact({"kind": "draw"}))
            elif step.name == "t":
                found.append(ids.compact({"kind": "take", "tile": step.args[0]}))
            elif step.name == "ts":
                found += [ids.compact({"kind": "take", "tile": value}) for _, value in e.options]
            else:
                menu = PRESENTER.step_menu(step, moves, view, "en", GAME, VERSION, token)
                assert menu is not None, e.custom_id
                text, sub = menu
                assert text and sub
                found += reachable(moves, view, sub, token, depth + 1)
        else:
            assert e.custom_id == ids.open_(GAME, VERSION)
    return found


@pytest.mark.parametrize(
    ("variant", "seats", "seed", "every"),
    [("basic", 2, 1, 2), ("basic", 4, 2, 5), ("advanced", 3, 3, 3), ("advanced", 2, 4, 3)],
)
def test_turn_menus_offer_exactly_the_legal_moves(variant: str, seats: int, seed: int, every: int) -> None:
    """Top menu plus every step below it reach each legal move exactly once and nothing else."""
    checked = 0
    for state in positions(variant, seats, seed, every):
        seat = state.current
        moves = RULES.legal_moves(state, seat)
        view = RULES.view(state, seat)
        token = choices_token(moves)
        top = PRESENTER.top_entries(GAME, VERSION, token, moves, view, "en")
        found = reachable(moves, view, top, token)
        assert sorted(found) == sorted(ids.compact(m) for m in moves)
        checked += 1
    assert checked > 20


def test_party_menus_offer_exactly_the_legal_moves_and_never_the_hand() -> None:
    """Empty hand: Draw and Take; full hand: plots and Drop; the hand's tile is never on a control."""
    checked = {"empty": 0, "full": 0, "selects": 0}
    for state in positions("party", 3, 5, every=3):
        for seat in sorted(RULES.awaiting(state)):
            moves = RULES.legal_moves(state, seat)
            view = RULES.view(state, seat)
            token = choices_token(moves)
            entries = PRESENTER.party_entries(GAME, VERSION, token, moves, view, "en")
            assert sorted(reachable(moves, view, entries, token)) == sorted(ids.compact(m) for m in moves)
            hand = state.players[seat].hand
            if hand is not None:
                checked["full"] += 1
                shown = json.dumps([(e.label, e.custom_id, e.options) for e in entries])
                assert hand not in shown
            else:
                checked["empty"] += 1
                checked["selects"] += any(e.options for e in entries)
    assert min(checked.values()) > 0, checked


def test_plot_grids_are_laid_out_like_the_city() -> None:
    """Row n of the buttons holds the plots of board row n, columns A to E from left to right."""
    state = RULES.setup({"variant": "party"}, 2, 9)
    state = RULES.apply(state, 0, {"kind": "draw"})
    moves = RULES.legal_moves(state, 0)
    entries = PRESENTER.party_entries(GAME, VERSION, "t0k3n", moves, RULES.view(state, 0), "en")
    places = [e for e in entries if '"place"' in e.custom_id]
    assert len(places) == 24
    for e in places:
        assert e.row == int(e.label[1]) - 1
        same_row = [p.label for p in places if p.row == e.row]
        assert same_row == sorted(same_row)
    drop = next(e for e in entries if '"drop"' in e.custom_id)
    assert drop.row == 2 and drop.style is discord.ButtonStyle.danger


def test_step_ids_round_trip_and_forgeries_are_refused() -> None:
    """What the presenter writes it reads back; anything else raises ForgedId."""
    for args in [
        ("p",),
        ("p", "FAC-NE"),
        ("eb", "B2"),
        ("er", "HOU-NESW"),
        ("s", 2, "PRK-SW"),
        ("d",),
        ("t", "AMU-ES"),
        ("ts", 3),
        ("e",),
    ]:
        cid = step_id(GAME, VERSION, *args)
        assert parse_step(cid) == Step(GAME, VERSION, str(args[0]), tuple(map(str, args[1:])))
    for bad in [
        "up:1:2",
        "up:1:2:zz",
        "up:x:2:p",
        "up:1:2:p.FAC-NE.B2.C3",
        "up:1:2:er",
        "up:1:2:d.B2",
        "up:1:2:p.fac-ne",
        "up:1:2:p.FAC_NE",
        "up:1:2:p.<@1>",
        "mv:1:2:p",
        "up:1:2:p:",
        "up:1:2:s.1",
        "up:1:2:p.B2",
        "up:1:2:eb.FAC-NE",
        "up:1:2:s.B2.C3",
        "up:1:2:t.B2",
        "up:1:2:ts.FAC-NE",
        "up:" + "1" * 99 + ":2:p",
    ]:
        with pytest.raises(ids.ForgedId):
            parse_step(bad)


def test_labels_name_the_tile_slot_and_plot() -> None:
    """Buttons read like the game: the Architect names the tile in the slot."""
    state = RULES.setup({"variant": "advanced"}, 3, 7)
    view = RULES.view(state, state.current)
    slot_tile = state.slots[1]
    assert (
        PRESENTER.move_label({"kind": "architect", "slot": 2}, view, "en")
        == f"Take {tile_name(slot_tile, 'en')} (slot 2)"
    )
    assert (
        PRESENTER.move_label({"kind": "planner", "tile": "FAC-NE", "plot": "B3"}, view, "en")
        == "Build factory ↑→ on B3"
    )
    assert (
        PRESENTER.move_label({"kind": "spy", "victim": 1, "tile": "FAC-NE", "plot": "B3"}, view, "en")
        == "Spy factory ↑→ from Player 2 onto B3"
    )
    assert PRESENTER.move_label({"kind": "end_turn"}, view, "en") == "End turn"
    assert PRESENTER.move_label({"kind": "place", "plot": "E5"}, view, "en") == "E5"


def test_within_turn_one_message_per_turn_and_the_hourglass_is_told() -> None:
    """Turn games: actions are steps until END_TURN. Party: quiet, except the move that fills the
    first city (the hourglass starts) and the end."""
    state = RULES.setup({"variant": "basic"}, 2, 3)
    me = state.current
    after = RULES.apply(state, me, {"kind": "architect", "slot": 1})
    assert PRESENTER.game.turns.within_turn(me, frozenset({me}), frozenset(), RULES.view(after, None))
    while RULES.awaiting(after) == {me}:
        after = RULES.apply(after, me, RULES.ai_move(after, me, "greedy", after.points))
    turns = PRESENTER.game.turns
    assert not turns.within_turn(me, RULES.awaiting(after), RULES.awaiting(after), RULES.view(after, None))

    party = RULES.setup({"variant": "party"}, 2, 3)
    party = RULES.apply(party, 0, {"kind": "draw", "at": 1_000})
    assert PRESENTER.game.turns.within_turn(0, RULES.awaiting(party), frozenset(), RULES.view(party, None))
    for i, plot in enumerate(p for p in (f"{c}{r}" for r in "12345" for c in "ABCDE") if p != "C3"):
        if i:
            party = RULES.apply(party, 0, {"kind": "draw", "at": 1_000 + i})
        party = RULES.apply(party, 0, {"kind": "place", "plot": plot, "at": 1_000 + i})
    assert party.first_finisher == 0 and not party.over
    assert not PRESENTER.game.turns.within_turn(0, RULES.awaiting(party), frozenset(), RULES.view(party, None))


def test_status_lines_show_the_public_table_and_never_a_hand() -> None:
    """Turn games: main board, reserves, tracks, this turn so far. Party: the open table, who holds
    a tile (not which), and the hourglass as a relative time."""
    state = RULES.setup({"variant": "advanced"}, 2, 5)
    me = state.current
    state = RULES.apply(state, me, {"kind": "architect", "slot": 3})
    lines = PRESENTER.status_lines(RULES.view(state, None), "en", ["alice", "bob"])
    text = "\n".join(lines)
    assert f"Turn 1: {['alice', 'bob'][me]} · 2 action(s) left · Architect done" in text
    assert "Main board: 1: " in text and "3: —" in text and "Goal cards: " in text
    taken = tile_name(state.players[me].reserve[0], "en")
    assert f"reserve: {taken}" in text
    assert f"This turn so far: took {taken} (slot 3)." in text

    party = RULES.setup({"variant": "party"}, 2, 5)
    party = RULES.apply(party, 1, {"kind": "draw", "at": 5_000})
    hand = party.players[1].hand
    assert hand is not None
    lines = PRESENTER.status_lines(RULES.view(party, None), "en", ["alice", "bob"])
    text = "\n".join(lines)
    assert "bob: 0/24 built · holding a tile" in text and "alice: 0/24 built · hand empty" in text
    assert hand not in text and tile_name(hand, "en") not in text
    assert relative_time(5_000 + 15 * 60_000) in text


def test_turn_summary_tells_the_whole_turn_in_one_line() -> None:
    """END_TURN's summary lists the turn's actions; the hourglass line carries the deadline."""
    state = RULES.setup({"variant": "basic"}, 2, 8)
    me = state.current
    tile = state.slots[0]
    state = RULES.apply(state, me, {"kind": "architect", "slot": 1})
    state = RULES.apply(state, me, {"kind": "planner", "tile": tile, "plot": "B3"})
    before = state
    state = RULES.apply(state, me, {"kind": "end_turn"})
    key, params = RULES.describe(before, me, {"kind": "end_turn"}, state)
    lines = PRESENTER.summary_lines(key, {"player": "alice", **params}, RULES.view(state, None), "en")
    name = tile_name(tile, "en")
    assert lines == [f"alice's turn: took {name} (slot 1), built {name} on B3."]
    assert PRESENTER.status_lines(RULES.view(state, None), "en", ["alice", "bob"])[-1].startswith(
        f"{['alice', 'bob'][me]}'s turn: took {name}"
    )

    party = RULES.setup({"variant": "party"}, 2, 3)
    plots = [p for p in (f"{c}{r}" for r in "12345" for c in "ABCDE") if p != "C3"]
    for i, plot in enumerate(plots):
        party = RULES.apply(party, 0, {"kind": "draw", "at": 10_000 + i})
        last = party
        party = RULES.apply(party, 0, {"kind": "place", "plot": plot, "at": 10_000 + i})
    key, params = RULES.describe(last, 0, {"kind": "place", "plot": "E5"}, party)
    lines = PRESENTER.summary_lines(key, {"player": "alice", **params}, RULES.view(party, None), "en", ["alice", "bob"])
    assert key == "urbanpanic.move.place.full" and len(lines) == 2
    assert relative_time(10_023 + 60_000) in lines[1] and "alice's city is full" in lines[1]


def test_prompts_show_the_budget_and_the_private_hand() -> None:
    """The acting player's prompt: actions left, the Architect, the reserve; party: the hand."""
    state = RULES.setup({"variant": "basic"}, 2, 8)
    me = state.current
    moves = RULES.legal_moves(state, me)
    text = PRESENTER.prompt(moves, RULES.view(state, me), "en")
    assert "Turn 1: you have 3 action(s) left." in text and "Architect" in text
    party = RULES.setup({"variant": "party"}, 2, 8)
    party = RULES.apply(party, 1, {"kind": "draw"})
    hand = party.players[1].hand
    assert hand is not None
    text = PRESENTER.prompt(RULES.legal_moves(party, 1), RULES.view(party, 1), "en")
    assert f"You hold {tile_name(hand, 'en')}." in text
    assert "Your hand is empty" in PRESENTER.prompt(RULES.legal_moves(party, 0), RULES.view(party, 0), "en")


def test_relative_time_rounds_up() -> None:
    """The shown moment is never before the real deadline."""
    assert relative_time(1_800_000_000_000) == "<t:1800000000:R>"
    assert relative_time(1_800_000_000_001) == "<t:1800000001:R>"


def test_catalogue_has_every_ui_key_and_no_stray_ones() -> None:
    """Every urbanpanic.ui key the game's Discord side uses is in urbanpanic_ui.json, and no other key."""
    source = "".join(
        (ROOT / path).read_text(encoding="utf-8")
        for path in (  # the game's Discord side
            "cogs/games/urbanpanic.py",
            "cogs/urbanpanic_steps.py",
            "cogs/urbanpanic.py",
        )
    )
    source += (ROOT / "bot" / "games" / "urbanpanic.py").read_text(encoding="utf-8")  # the game's move labels
    data = json.loads((ROOT / "bot" / "locales" / "en" / "urbanpanic_ui.json").read_text(encoding="utf-8"))
    assert all(k.startswith("urbanpanic.ui.") for k in data)
    literal = set(re.findall(r'"(urbanpanic\.ui\.[a-z_.]+[a-z_])"', source))
    dynamic = {f"urbanpanic.ui.{k}" for k in ("mayor", "end_turn", "draw", "drop")}
    dynamic |= {f"urbanpanic.ui.architect_{k}" for k in ("done", "owed", "stuck")}
    dynamic |= {
        f"urbanpanic.ui.log.{k}" for k in ("architect", "planner", "engineer_board", "engineer_reserve", "mayor", "spy")
    }
    assert literal - set(data) == set()
    assert dynamic - set(data) == set()
    assert set(data) - literal - dynamic == set(), "keys nobody uses"
    merged = catalogue("en")
    for key in data:
        assert merged[key] == data[key]
    for type_id in ("HOU", "OFF", "AMU", "FAC", "POW", "PRK"):
        assert f"urbanpanic.type.{type_id}" in merged


def test_pictures_come_from_the_renderer_and_a_drawing_bug_does_not_stop_the_game(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Turn, table (party) and end pictures are PNGs; a renderer that raises gives no picture."""
    png = b"\x89PNG\r\n\x1a\n"
    state = RULES.setup({"variant": "basic"}, 2, 1)
    assert (PRESENTER.render_turn(RULES.view(state, None), None, ["a", "b"]) or b"").startswith(png)
    party = RULES.setup({"variant": "party"}, 2, 1)
    assert (PRESENTER.render_turn(RULES.view(party, None), None, ["a", "b"]) or b"").startswith(png)
    over = RULES.apply(party, -1, {"kind": "timeout"})
    assert (PRESENTER.render_end(RULES.view(over, None), ["a", "b"]) or b"").startswith(png)

    class Broken:
        def __getattr__(self, name: str) -> Any:
            def fail(*args: Any) -> bytes:
                raise RuntimeError(name)

            return fail

    monkeypatch.setattr(pictures, "get", lambda kind: Broken())
    assert PRESENTER.render_turn(RULES.view(state, None), 0, ["a", "b"]) is None
    assert PRESENTER.render_end(RULES.view(over, None), ["a", "b"]) is None
