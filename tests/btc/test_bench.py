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
        "standard_3",
        "standard_4",
        "standard_5",
        "standard_6",
        "standard_7",
        "two_player",
        "solo_simple",
        "solo_full",
    }


def test_checked_game_detects_a_broken_rule(monkeypatch: pytest.MonkeyPatch) -> None:
    """The bench's checks fail loudly: a state whose tiles are not conserved is reported."""
    monkeypatch.setattr(audit, "conservation_problems", lambda state: ["a tile vanished"])
    with pytest.raises(btc.CheckFailed):
        btc.play({"mode": "standard"}, 3, 1, ["random"] * 3, check=True)


def test_strong_figures_name_their_setup() -> None:
    """The strong-vs-greedy figure says one strong seat played N-1 greedy seats, and chance is 1/N."""
    timings: dict[str, list[float]] = {}
    out = btc.versus("strong", "greedy", 4, 1, seed=5, timings=timings)
    assert out["btc.ai.strong_vs_greedy.chance"] == 0.25
    assert out["btc.ai.strong_vs_greedy.setup"].startswith("one strong seat (rotating) against 3 greedy seats")
    assert out["btc.ai.strong_vs_greedy.games"] == 1 and 0 <= out["btc.ai.strong_vs_greedy.win_rate"] <= 1
    lost = out["btc.ai.strong_vs_greedy.lost_by_points"]
    assert set(lost) == {"0", "1", "2", "3+"}
    # one game: lost outright (every share sums to 1) or first, alone or shared (no loss counted)
    assert sum(lost.values()) == (1.0 if out["btc.ai.strong_vs_greedy.win_rate"] == 0 else 0.0)
    seven = btc.versus("strong", "random", 7, 1, seed=5, timings=timings)
    assert seven["btc.ai.strong_vs_random.seats_7.chance"] == 0.143
    assert set(timings) == {"strong", "greedy", "random"}


def test_solo_curve_reports_every_difficulty() -> None:
    """The solo curve has a win rate for each difficulty 1-7 and says whether it falls steadily."""
    out = btc.solo_curve("solo_simple", "greedy", 1, seed=3, timings={})
    rates = out["btc.solo.solo_simple.greedy_win_rate_by_difficulty"]
    assert list(rates) == [str(d) for d in range(1, 8)]
    drops = out["btc.solo.solo_simple.greedy_drops"]
    assert len(drops) == 6 and out["btc.solo.solo_simple.greedy_falls_steadily"] == all(d <= 0 for d in drops)


def test_losses_are_counted_by_how_close_they_were() -> None:
    """A loss by 0 points (on the tie-break), by 1, by 2 and by 5 land in their own buckets, as
    shares of every game played (the won games count in none)."""
    assert btc.lost_by_points([0, 1, 2, 5, 1], 10) == {"0": 0.1, "1": 0.2, "2": 0.1, "3+": 0.1}
    assert btc.lost_by_points([], 4) == {"0": 0.0, "1": 0.0, "2": 0.0, "3+": 0.0}
