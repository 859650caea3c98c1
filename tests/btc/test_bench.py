"""The bench module's quick run (a CI smoke test): it completes and reports sane figures."""

from __future__ import annotations

import json

import pytest

from bot.benches import btc
from bot.rules.btc import audit


def test_quick_bench_figures() -> None:
    """figures(quick=True) plays checked games of every mode and reports AI win rate and timings."""
    out = btc.figures(quick=True)
    json.dumps(out)
    assert all(key.startswith("btc.") for key in out)
    assert out["btc.checked_games_completed"] == len(btc.CHECKED_CONFIGS)
    assert 0.0 <= out["btc.ai.greedy_vs_random.win_rate"] <= 1.0
    assert out["btc.ai.greedy_vs_random.games"] >= 4
    assert 0 < out["btc.ai.decision_ms_p50_greedy"] <= out["btc.ai.decision_ms_p95_greedy"]
    assert out["btc.ai.decision_ms_p95_greedy"] < 1000
    assert set(out["btc.checked_games_by_mode"]) == {
        "standard_3", "standard_4", "standard_5", "standard_6", "standard_7", "two_player", "solo_simple",
        "solo_full"}


def test_checked_game_detects_a_broken_rule(monkeypatch: pytest.MonkeyPatch) -> None:
    """The bench's checks fail loudly: a state whose tiles are not conserved is reported."""
    monkeypatch.setattr(audit, "conservation_problems", lambda state: ["a tile vanished"])
    with pytest.raises(btc.CheckFailed):
        btc.play({"mode": "standard"}, 3, 1, ["random"] * 3, check=True)
