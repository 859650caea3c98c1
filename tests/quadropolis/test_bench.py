"""The bench's quick run: every figure is computed and the optimiser agrees with exhaustive search."""

from __future__ import annotations

from bot.benches import quadropolis as bench


def test_quick_bench_figures() -> None:
    """figures(quick=True) returns flat figures; both searches find the same optima."""
    out = bench.figures(quick=True)
    assert all(key.startswith("quadropolis.") for key in out)
    assert out["quadropolis.optimiser.classic.all_equal"] is True
    assert out["quadropolis.optimiser.expert.all_equal"] is True
    assert out["quadropolis.checked_games_completed"] == 6
    for level in ("random", "greedy", "strong"):
        key = f"quadropolis.ai.decision_ms_p{{}}_{level}"
        assert out[key.format(95)] >= out[key.format(50)]
    for pair in ("greedy_vs_random", "strong_vs_random", "strong_vs_greedy", "random_vs_greedy"):
        assert 0.0 <= out[f"quadropolis.ai.{pair}.win_rate"] <= 1.0
