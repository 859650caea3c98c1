"""The terminal front-end (``python -m bot local quadropolis``): its turn menus come from the rules."""

from __future__ import annotations

import asyncio
import re
from pathlib import Path

import pytest

from bot import local, store
from bot.rules.quadropolis.allocation import best_allocation
from bot.rules.quadropolis.state import QuadState, grid_of
from bot.service import Service


async def final_state(path: Path) -> QuadState:
    db = await store.Store.open(path)
    try:
        state = (await Service(db).snapshot(1)).state
        assert isinstance(state, QuadState)
        return state
    finally:
        await db.close()


def test_terminal_menus_offer_no_idle_choice_and_score_the_best_allocation(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """Always answering 1, a whole Classic game against the AI: every menu lists only takes, squares
    and Discard (never "keep the building idle"), and the final ranking gives each player the score of
    their city's best allocation."""
    answers = iter(["1"] * 200)
    monkeypatch.setattr("builtins.input", lambda prompt="": next(answers))
    db = tmp_path / "local.sqlite3"
    code = local.main(
        [
            "quadropolis",
            "--players",
            "2",
            "--ai",
            "1",
            "--level",
            "random",
            "--db",
            str(db),
            "--out",
            str(tmp_path / "out"),
        ]
    )
    out = capsys.readouterr().out
    assert code == 0
    turns, _, ranking = out.partition(" is over!")
    options = re.findall(r"^\s+\d+\. (.*)$", turns, flags=re.MULTILINE)
    assert len(options) > 16
    odd = [
        o
        for o in options
        if not (o.startswith("Architect ") or o == "Discard" or re.fullmatch(r"[A-D][1-4]( ▲\d)?", o))
    ]
    assert odd == []
    state = asyncio.run(final_state(db))
    assert state.over
    for name, player in zip(("Player 1", "AI 1 – random"), state.seats, strict=True):
        best = best_allocation(state.rules, grid_of(player), player.inhabitants, player.energy)
        assert f". {name} — {best.total} points" in ranking, ranking
