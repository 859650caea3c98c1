"""``python -m bot.bench --only story``: the figures are there for every game, and they are sane."""

from __future__ import annotations

from bot import games
from bot.benches import story as bench


def test_the_quick_bench_times_and_sizes_a_recap_of_every_game() -> None:
    figures = bench.figures(quick=True)
    for kind in games.GAMES:
        names = {key.rsplit(".", 1)[0] for key in figures if key.startswith(f"story.{kind}.")}
        assert len(names) == 1, (kind, names)
        (name,) = names
        assert figures[f"{name}.moves"] > 0 and figures[f"{name}.points"] > 1
        assert figures[f"{name}.chart_bytes"] > 10_000
        assert figures[f"{name}.gif_frames"] == 2
        assert 0 < figures[f"{name}.gif_bytes"] <= figures["story.largest_gif_bytes"]
        assert figures[f"{name}.gif_ms"] > 0 and figures[f"{name}.chart_cpu_ms"] > 0
    assert figures["story.largest_gif_bytes"] < figures["story.gif_limit_bytes"]


def test_every_choice_of_every_game_is_benched_at_its_most_seats() -> None:
    cases = bench.cases()
    for kind, game in games.GAMES.items():
        spec = game.rules.option_specs[0]
        mine = [(options, seats) for k, options, seats in cases if k == kind]
        assert [o[spec.name] for o, _ in mine] == list(spec.choices)
        assert all(seats == game.rules.seat_range(o)[1] for o, seats in mine)
