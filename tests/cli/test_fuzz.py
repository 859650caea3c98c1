"""Hostile files for ``score`` and ``local --replay``: each ends with a valid result or one sentence
and exit 2, within 5 s, never a traceback. The mutation run here is bounded (2,000 inputs); the bench
(``python -m bot.bench --only fuzz``) runs 20,000."""

from __future__ import annotations

import json
import time
from pathlib import Path

import pytest

from bot.benches import fuzz
from tests.cli.helpers import ROOT, one_sentence, run_main, run_process

CI_EXAMPLES = 2_000
EXAMPLES = ROOT / "docs" / "examples"
QUADROPOLIS = json.loads((EXAMPLES / "quadropolis.json").read_text(encoding="utf-8"))
BTC = json.loads((EXAMPLES / "btc.json").read_text(encoding="utf-8"))
URBANPANIC = json.loads((EXAMPLES / "urbanpanic.json").read_text(encoding="utf-8"))
EXPORT = json.loads((EXAMPLES / "sample-export.json").read_text(encoding="utf-8"))


def test_mutated_inputs_and_exports_of_every_game(tmp_path: Path) -> None:
    tally = fuzz.Tally()
    fuzz.campaign(CI_EXAMPLES, tally, tmp_path)
    assert tally.inputs >= CI_EXAMPLES
    assert tally.failures == [], "\n".join(tally.failures[:5])
    assert tally.max_seconds < fuzz.SECONDS_PER_INPUT


def nest(depth: int) -> object:
    value: object = []
    for _ in range(depth):
        value = [value]
    return value


def with_(data: dict[str, object], **fields: object) -> str:
    return json.dumps({**data, **fields})


HOSTILE = {
    "deep nesting": ("score", "btc", "[" * 100_000 + "]" * 100_000, "levels deep"),
    "deep nesting in a field": ("score", "quadropolis", with_(QUADROPOLIS, city=nest(40)), "levels deep"),
    "5,000-digit integer": ("score", "quadropolis", with_(QUADROPOLIS).replace("13", "9" * 5000), "digits"),
    "22-digit integer": ("score", "btc", with_(BTC, factory_rank=10**21), "digits"),
    "mode is a list": ("score", "quadropolis", with_(QUADROPOLIS, mode=[]), "mode"),
    "inhabitants 1e18": ("score", "quadropolis", with_(QUADROPOLIS, inhabitants=1e18), "inhabitants"),
    "inhabitants 10**18": ("score", "quadropolis", with_(QUADROPOLIS, inhabitants=10**18), "inhabitants"),
    "energy 1000": ("score", "quadropolis", with_(QUADROPOLIS, energy=1000), "999"),
    "NaN": ("score", "btc", '{"city": ["S S S S", "H H O m", "O P O O", "O P H P"], "factory_rank": NaN}', "NaN"),
    "Infinity": ("score", "urbanpanic", with_(URBANPANIC).replace("20", "1e999"), "digits"),
    "too many other cities": ("score", "btc", with_(BTC, factories_in_other_cities=[0] * 100_000), "factories"),
    "track far out": ("score", "urbanpanic", with_(URBANPANIC, tracks=[10**17, 0, 0, 0, 0]), "999"),
    "allocation a dict": ("score", "quadropolis", with_(QUADROPOLIS, allocation={}), "allocation"),
    "a 5,000-digit count in a token": (
        "score",
        "quadropolis",
        with_(QUADROPOLIS, city=["T3 P T2 S" + "9" * 5000, "U1 T1 F H", "H U0 S1 H1", "G T4 U2 H"]),
        "Row 1, column 4",
    ),
    "a huge token": ("score", "btc", with_(BTC, city=["S" * 900_000, "S S S S", "S S S S", "S S S S"]), "Row 1"),
    "not UTF-8": ("score", "btc", "\udcff", "UTF-8"),
    "over 1 MiB": ("score", "btc", " " * (1 << 20) + "{}", "KiB"),
    "export: truncated": ("replay", "", json.dumps(EXPORT)[:5000], "not valid JSON"),
    "export: a list": ("replay", "", "[]", "one JSON object"),
    "export: seed text": ("replay", "", with_(EXPORT, seed="7"), '"seed"'),
    "export: seed huge": ("replay", "", with_(EXPORT, seed=2**63), '"seed"'),
    "export: unknown game": ("replay", "", with_(EXPORT, game="chess"), "chess"),
    "export: options a list": ("replay", "", with_(EXPORT, options=[]), '"options"'),
    "export: bad option": ("replay", "", with_(EXPORT, options={"mode": "zzz"}), "zzz"),
    "export: no seats": ("replay", "", with_(EXPORT, seats=[]), "seats"),
    "export: seat a number": ("replay", "", with_(EXPORT, seats=[1, 2]), "seat 1"),
    "export: move seat 99": ("replay", "", with_(EXPORT, moves=[{"seat": 99, "move": {}}]), "move 1"),
    "export: move a string": ("replay", "", with_(EXPORT, moves=["x"]), "move 1"),
    "export: move garbage": ("replay", "", with_(EXPORT, moves=[{"seat": 0, "move": {"kind": []}}]), "move 1"),
    "export: moves out of turn": (
        "replay",
        "",
        with_(EXPORT, moves=[*EXPORT["moves"][:1], *EXPORT["moves"][:1]]),
        "move 2",
    ),
    "export: other format": ("replay", "", with_(EXPORT, format="other/9"), "format"),
}


@pytest.mark.parametrize("name", sorted(HOSTILE))
def test_hostile_file(name: str, tmp_path: Path) -> None:
    command, kind, text, said = HOSTILE[name]
    path = tmp_path / "input.json"
    path.write_text(text, encoding="utf-8", errors="surrogateescape")
    argv = (
        ["score", kind, str(path)]
        if command == "score"
        else ["local", "--replay", str(path), "--out", str(tmp_path / "out")]
    )
    t0 = time.perf_counter()
    ran = run_main(*argv)
    assert time.perf_counter() - t0 < fuzz.SECONDS_PER_INPUT
    assert ran.status == 2
    sentence = one_sentence(ran.err)
    assert said in sentence
    assert len(sentence) < 400


@pytest.mark.parametrize("name", ["deep nesting", "5,000-digit integer", "inhabitants 1e18", "export: truncated"])
def test_hostile_file_as_a_real_process(name: str, tmp_path: Path) -> None:
    command, kind, text, said = HOSTILE[name]
    path = tmp_path / "input.json"
    path.write_text(text, encoding="utf-8")
    args = (
        ["-m", "bot", "score", kind, str(path)]
        if command == "score"
        else ["-m", "bot", "local", "--replay", str(path), "--out", str(tmp_path / "out")]
    )
    ran = run_process(*args)
    assert ran.status == 2 and said in one_sentence(ran.err)


def test_a_damaged_export_through_standard_input_still_names_the_problem(tmp_path: Path) -> None:
    ran = run_process("-m", "bot", "score", "quadropolis", "-", stdin=with_(QUADROPOLIS, mode=[]))
    assert ran.status == 2 and "mode" in one_sentence(ran.err)
