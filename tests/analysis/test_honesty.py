"""The evaluator's honesty on many positions: the strong AI's moves lose little, greedy's more, random's most.

Thirty seeded two-player Quadropolis games, played by the greedy AI; in each, the first decision from 85% of
the game on (short rollouts, so the check fits in CI); there, the random AI's, the greedy AI's and the strong
AI's moves weighed together (one weighing: the random move is the "played" one, the other two are the
candidates every decision has) at the small budget of one sample. Checked: the strong AI's average loss is at
most ``STRONG_MOST`` points, and random's average loss is above greedy's, and greedy's above strong's, each by
more than twice the standard error of the paired differences (significant at about 2.5% one-sided over 30
positions). Measured: random 4.9, greedy 1.8, strong 0.6 points.

Urban Panic (advanced, two players, 30 positions from half the game on, two samples): the strong AI's moves
lose least, significantly less than greedy's and random's; random against greedy is not resolved there (one
random action is not reliably worse than the greedy AI's short-sighted one by the next turn). Not checked:
Between Two Cities, where one move's effect on the margin over the best opponent is a fraction of a point,
below the noise of a few samples. ``python -m bot.bench --only analysis`` measures the order in all three games
at four samples and states what it finds (README, "After the game").
"""

from __future__ import annotations

import statistics

from bot import games
from bot.analysis import evaluate, summary
from bot.rules import core
from tests.analysis.helpers import position

KIND = "quadropolis"
POSITIONS = 30
STRONG_MOST = 1.5
"""The most points of expected margin the strong AI's moves may lose on average (measured: 0.6)."""


def test_random_loses_most_greedy_more_strong_little() -> None:
    rules = games.rules(KIND)
    horizon = summary.horizon(rules)
    losses: dict[str, list[float]] = {"random": [], "greedy": [], "strong": []}
    for game in range(POSITIONS):
        state, seat, now = position(KIND, 1000 + game, 0.85)
        move = rules.ai_move(state, seat, "random", core.derive_seed(game, "random"))
        decision = evaluate.weigh(rules, state, seat, move, None, core.derive_seed(game, "weigh"), 1, 1, now, horizon)
        losses["random"].append(decision.loss(0))
        for level in ("greedy", "strong"):
            losses[level].append(decision.loss(decision.chosen[level]))
    assert all(loss >= 0 for values in losses.values() for loss in values)
    assert statistics.mean(losses["strong"]) <= STRONG_MOST, losses["strong"]
    for worse, better in (("random", "greedy"), ("greedy", "strong")):
        gaps = [w - b for w, b in zip(losses[worse], losses[better], strict=True)]
        error = statistics.stdev(gaps) / len(gaps) ** 0.5
        assert statistics.mean(gaps) > 2 * error, (worse, better, statistics.mean(gaps), error)


UP_STRONG_MOST = 3.0
"""Urban Panic: the most points the strong AI's moves may lose on average (measured: 1.7)."""


def test_urban_panic_strong_loses_least() -> None:
    """Thirty seeded two-player Urban Panic advanced games, in each the first decision from half the game on,
    at two samples: the strong AI's moves lose at most ``UP_STRONG_MOST`` on average, and both random's and
    greedy's lose more than strong's by more than twice the paired standard error (measured: random 6.2,
    greedy 6.4, strong 1.7). Random against greedy is not resolved at this budget (see the module's docstring)."""
    rules = games.rules("urbanpanic")
    horizon = summary.horizon(rules)
    losses: dict[str, list[float]] = {"random": [], "greedy": [], "strong": []}
    for game in range(POSITIONS):
        state, seat, now = position("urbanpanic", 1000 + game, 0.5)
        move = rules.ai_move(state, seat, "random", core.derive_seed(game, "random"))
        decision = evaluate.weigh(rules, state, seat, move, None, core.derive_seed(game, "weigh"), 2, 1, now, horizon)
        losses["random"].append(decision.loss(0))
        for level in ("greedy", "strong"):
            losses[level].append(decision.loss(decision.chosen[level]))
    assert statistics.mean(losses["strong"]) <= UP_STRONG_MOST, losses["strong"]
    for worse in ("random", "greedy"):
        gaps = [w - b for w, b in zip(losses[worse], losses["strong"], strict=True)]
        error = statistics.stdev(gaps) / len(gaps) ** 0.5
        assert statistics.mean(gaps) > 2 * error, (worse, statistics.mean(gaps), error)
