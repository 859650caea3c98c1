"""A whole game analysed: the same numbers every time, losses where the moves lost, the summaries' arithmetic,
and ``python -m bot analyse`` on an export in two languages, a bad file in one sentence."""

from __future__ import annotations

import json
import math
from functools import cache
from pathlib import Path
from typing import Any

import pytest

from bot import analysis, games
from bot.analysis import summary
from bot.rules.core import GameRules
from tests.analysis.helpers import play
from tests.cli.helpers import one_sentence, run_main

KIND, OPTIONS, SEATS, SEED = "quadropolis", {"mode": "classic"}, 2, 4
BUDGET = analysis.Budget(samples=1)
NAMES = ["Ödön", "Łucja"]


@cache
def game() -> list[tuple[int, dict[str, object]]]:
    """A seeded two-player Quadropolis game: seat 0 plays the strong AI's moves, seat 1 random ones."""
    return play(KIND, OPTIONS, SEATS, SEED, ("strong", "random"))


@cache
def analysed() -> analysis.GameAnalysis:
    return analysis.analyse(KIND, OPTIONS, SEATS, SEED, game(), BUDGET)


def test_the_same_game_gives_the_same_numbers(tmp_path: Path) -> None:
    """Analysed twice (here once through ``analyse --json``), a game gives the same numbers."""
    ran = run_main("analyse", str(export(tmp_path)), "--samples", "1", "--json")
    assert ran.status == 0 and json.loads(ran.out) == analysed().to_json()


def test_every_decision_is_weighed_with_its_loss_and_best_move() -> None:
    result = analysed()
    assert result.moves and all(m.loss >= 0 and m.best >= m.played for m in result.moves)
    assert all(m.legal >= 2 and 1 <= m.candidates <= 3 for m in result.moves)
    assert any(m.loss > 0 for m in result.moves)
    for m in result.moves:
        assert m.loss == 0 or m.best_move != m.move
        assert m.best_said[0].startswith(f"{KIND}.")
    random_seat, strong_seat = result.players[1], result.players[0]
    assert random_seat.average_loss > strong_seat.average_loss


def test_the_summaries_follow_from_the_moves() -> None:
    result = analysed()
    limits = summary.thresholds(analysis_rules())
    for player in result.players:
        losses = [m.loss for m in result.moves if m.seat == player.seat]
        assert player.decisions == len(losses)
        assert player.average_loss == round(sum(losses) / len(losses), 2)
        expected = 100 * sum(math.exp(-loss / limits["scale"]) for loss in losses) / len(losses)
        assert player.accuracy == round(expected, 1)
        assert sum(player.misses.values()) == sum(1 for loss in losses if loss >= limits["small"])
    assert 1 <= len(result.turning_points) <= 3
    swings = [abs(p.swing) for p in result.turning_points]
    assert swings == sorted(swings, reverse=True)


def test_misses_and_accuracy_by_the_games_thresholds() -> None:
    limits = {"small": 1.0, "medium": 3.0, "large": 6.0, "scale": 4.0}
    assert [summary.miss(x, limits) for x in (0.0, 0.99, 1.0, 2.9, 3.0, 6.0, 40.0)] == [
        "",
        "",
        "small",
        "small",
        "medium",
        "large",
        "large",
    ]
    assert summary.accuracy([0.0, 0.0], 4.0) == 100.0
    assert summary.accuracy([4.0], 4.0) == round(100 / math.e, 1)
    assert summary.accuracy([], 4.0) == 100.0


def analysis_rules() -> GameRules[Any]:
    return games.rules(KIND)


def export(tmp_path: Path, moves: list[tuple[int, dict[str, object]]] | None = None) -> Path:
    path = tmp_path / "game.json"
    data = {
        "format": "citybuilders-game/1",
        "game": KIND,
        "options": OPTIONS,
        "seed": SEED,
        "seats": [{"seat": i, "name": name} for i, name in enumerate(NAMES)],
        "moves": [{"seat": seat, "move": move} for seat, move in (game() if moves is None else moves)],
    }
    path.write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
    return path


@pytest.mark.parametrize(
    ("lang", "words"),
    [
        ("en", ("Analysis: Quadropolis", "accuracy", "Turning points:", "Best:")),
        ("hu", ("Elemzés", "pontosság", "Fordulópontok:", "Legjobb:")),
    ],
)
def test_the_command_prints_the_analysis_in_the_terminals_language(
    tmp_path: Path, lang: str, words: tuple[str, ...]
) -> None:
    ran = run_main("analyse", str(export(tmp_path)), "--samples", "1", "--lang", lang)
    assert ran.status == 0, ran.err
    for word in (*words, *NAMES):
        assert word in ran.out
    result = analysed()
    worst = max(result.moves, key=lambda m: m.loss)
    assert any(line.startswith(f"{worst.number}. ") for line in ran.out.splitlines())
    accuracy = f"{result.players[0].accuracy:.1f}"
    assert (accuracy if lang == "en" else accuracy.replace(".", ",")) in ran.out


def test_bad_files_get_one_sentence(tmp_path: Path) -> None:
    cut = export(tmp_path, game()[:10])
    ran = run_main("analyse", str(cut))
    assert ran.status == 2 and "not a finished game" in one_sentence(ran.err)
    broken = tmp_path / "broken.json"
    broken.write_text("{", encoding="utf-8")
    assert run_main("analyse", str(broken)).status == 2
    one_sentence(run_main("analyse", str(broken)).err)
    illegal = export(tmp_path, [(0, {"kind": "build", "square": "Z9"}), *game()[1:]])
    ran = run_main("analyse", str(illegal))
    assert ran.status == 2 and "move 1" in one_sentence(ran.err)
    ran = run_main("analyse", str(tmp_path / "none.json"))
    assert ran.status == 2
    one_sentence(ran.err)
    ran = run_main("analyse", str(export(tmp_path)), "--samples", "0")
    assert ran.status == 2 and "--samples" in one_sentence(ran.err)
