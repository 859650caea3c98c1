"""Urban Panic tiles reach players in their own language: the type's word and the open sides as arrows
("fabryka ↑→"), never a code of English words and compass letters ("FAC-NE"), while moves, states and
turn logs keep the codes.

Seeded games (basic, advanced, party; AI seats) are played in every language through the rules and
the Discord presenter (labels, summaries, prompts, status lines, step menus, refusals) and through the
terminal front-end; the rules help is read too. Nothing a player reads holds a tile code, a run of
compass letters (NE, NSW) or a bracketed one ("(N)"), or an English tile word in another language.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from bot import i18n, labels, local
from bot.rules import core
from bot.rules.urbanpanic import tiles
from bot.rules.urbanpanic.rules import RULES
from bot.service import choices_token
from cogs.games.urbanpanic import PRESENTER, Step, tile_name
from tests.test_terms import english_words

LANGUAGES = ("en", "hu", "es", "ru", "pl")
OTHER_LANGUAGES = LANGUAGES[1:]
VARIANTS = (("basic", 2), ("advanced", 3), ("party", 3))
CODE = re.compile(r"\b(?:" + "|".join(tiles.TYPES) + ")-[" + tiles.SIDES + r"]{1,4}\b")
"""A tile code of the rules data (``FAC-NE``), built from the legend's types and the four sides."""
COMPASS = re.compile(r"\b[" + tiles.SIDES + r"]{2,4}\b|\([" + tiles.SIDES + r"]\)")
"""English compass letters: a run of side letters as a word ("NE", "NSW") or one in brackets ("(N)")."""
NAMES = ["Ann", "Bob", "Cyd"]


def offences(texts: list[str], locale: str) -> list[str]:
    """The texts that show a tile code, compass letters or (in another language) an English tile word."""
    english = english_words("urbanpanic") if locale != "en" else set()
    out = []
    for text in texts:
        words = {w.lower() for w in re.findall(r"[A-Za-z]{4,}", text)}
        if CODE.search(text) or COMPASS.search(text) or words & english:
            out.append(text)
    return out


def _label_sample(moves: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """One move per kind and tile (plots only change the plot's name in a label)."""
    seen: dict[tuple[Any, ...], dict[str, Any]] = {}
    for m in moves:
        seen.setdefault((m["kind"], m.get("tile"), m.get("victim"), m.get("slot")), m)
    return list(seen.values())


def _menus(moves: list[dict[str, Any]], view: Any, locale: str) -> list[str]:
    """The presenter's Discord menus for these moves: buttons, selects and every step's question."""
    token = choices_token(moves)
    if view.get("variant") == "party":
        entries = PRESENTER.party_entries(1, 1, token, moves, view, locale)
        return [e.label for e in entries] + [label for e in entries for label, _ in e.options]
    texts = [e.label for e in PRESENTER.top_entries(1, 1, token, moves, view, locale)]
    steps = [Step(1, 1, "p"), Step(1, 1, "e"), Step(1, 1, "eb"), Step(1, 1, "s")]
    steps += [Step(1, 1, "p", (m["tile"],)) for m in _label_sample(moves) if m["kind"] == "planner"]
    steps += [Step(1, 1, "er", (m["tile"],)) for m in _label_sample(moves) if m["kind"] == "engineer_reserve"]
    steps += [Step(1, 1, "eb", (m["plot"],)) for m in moves if m["kind"] == "engineer_board"][:2]
    steps += [Step(1, 1, "s", (str(m["victim"]), m["tile"])) for m in _label_sample(moves) if m["kind"] == "spy"]
    for step in steps:
        menu = PRESENTER.step_menu(step, moves, view, locale, 1, 1, token)
        if menu is not None:
            texts.append(menu[0])
            texts += [e.label for e in menu[1]]
    return texts


def _refusals(state: Any, seat: int, locale: str) -> list[str]:
    """What the rules say to moves that name a tile the player cannot use."""
    me = state.players[seat]
    absent = next(code for code in tiles.KINDS if code not in (me.reserve or []) and code not in state.open_table)
    empty = tiles.square_name(next(iter(me.empty_plots()), 0))
    tries: list[dict[str, Any]] = [
        {"kind": "planner", "tile": absent, "plot": empty},
        {"kind": "take", "tile": absent},
        {"kind": "draw"},
        {"kind": "spy", "victim": (seat + 1) % len(state.players), "tile": absent, "plot": empty},
    ]
    out = []
    for move in tries:
        try:
            RULES.apply(state, seat, move)
        except core.GameError as err:
            out.append(i18n.error_text(err, locale))
    return out


def texts_of_a_game(variant: str, seats: int, locale: str, seed: int = 11) -> list[str]:
    """Everything the Discord front-end shows of a seeded game played to the end by the AI."""
    state = RULES.setup({"variant": variant}, seats, seed)
    out: list[str] = []
    step = 0
    while not RULES.is_over(state) and step < 800:
        for seat in sorted(RULES.awaiting(state)):
            view = RULES.view(state, seat)
            moves = RULES.legal_moves(state, seat)
            out += [labels.move_label("urbanpanic", m, view, locale) for m in _label_sample(moves)]
            out.append(PRESENTER.prompt(moves, view, locale))
            if step % 3 == 0:
                out += _menus(moves, view, locale) + _refusals(state, seat, locale)
            move = RULES.ai_move(state, seat, "greedy", seed + step)
            after = RULES.apply(state, seat, move)
            key, params = RULES.describe(state, seat, move, after)
            public = RULES.view(after, None)
            out += PRESENTER.summary_lines(key, {"player": NAMES[seat], **params}, public, locale, NAMES)
            out += PRESENTER.status_lines(public, locale, NAMES)
            state, step = after, step + 1
            if RULES.is_over(state):
                break
    assert RULES.is_over(state)
    return out


@pytest.mark.parametrize("variant, seats", VARIANTS)
@pytest.mark.parametrize("locale", LANGUAGES)
def test_discord_texts_name_tiles_in_the_players_notation(variant: str, seats: int, locale: str) -> None:
    texts = texts_of_a_game(variant, seats, locale)
    arrows = [text for text in texts if any(a in text for a in tiles.ARROWS.values())]
    assert len(arrows) > 20, "the game names its tiles"
    assert offences(texts, locale) == []


@pytest.mark.parametrize("locale", LANGUAGES)
def test_the_rules_help_teaches_the_same_notation(locale: str) -> None:
    """/game rules: no code, no compass letter; the roads page shows a tile as the game names it."""
    pages = {k: v for k, v in i18n.catalogue(locale).items() if k.startswith("urbanpanic.rules.")}
    assert len(pages) >= 10
    texts = [i18n.t(k, locale) for k in pages]  # as the reader gets them ({@key} quotes filled in)
    assert offences(texts, locale) == []
    example = str(i18n.resolve(tiles.tile_term("FAC-NE"), locale))
    assert example in pages["urbanpanic.rules.turn.3"]


@pytest.mark.parametrize("variant", [v for v, _ in VARIANTS])
@pytest.mark.parametrize("locale", LANGUAGES)
def test_the_terminal_names_tiles_in_the_players_notation(
    variant: str, locale: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """`python -m bot local urbanpanic --lang <locale>`: every menu and announcement of a whole game."""
    answers = iter(["1"] * 600)
    monkeypatch.setattr("builtins.input", lambda prompt="": next(answers))
    monkeypatch.setattr(local.Terminal, "picture", lambda self, *args, **kwargs: None)  # pictures: elsewhere
    code = local.main(
        [
            "urbanpanic",
            "--variant",
            variant,
            "--players",
            "2",
            "--ai",
            "1",
            "--level",
            "random",
            "--lang",
            locale,
            "--db",
            str(tmp_path / "up.sqlite3"),
            "--out",
            str(tmp_path / "out"),
        ]
    )
    out = capsys.readouterr().out
    assert code == 0, out
    assert any(a in out for a in tiles.ARROWS.values())
    assert offences(out.splitlines(), locale) == []


def test_the_notation_reads_in_every_language() -> None:
    """One function makes it: the type's word, then the open sides clockwise from north."""
    expected = {"en": "factory ↑→", "hu": "gyár ↑→", "es": "fábrica ↑→", "ru": "фабрика ↑→", "pl": "fabryka ↑→"}
    for locale, text in expected.items():
        assert i18n.resolve(tiles.tile_term("FAC-NE"), locale) == text
        assert tile_name("FAC-NE", locale) == text
    assert i18n.resolve(tiles.tile_term("HOU-NESW"), "pl") == "mieszkania ↑→↓←"
    assert i18n.resolve(tiles.tile_term("PRK-SW"), "es") == "parque ↓←"
    assert (
        i18n.t("urbanpanic.move.architect", "pl", player="AI 1", slot=4, tile=tiles.tile_term("AMU-NEW"))
        == "AI 1 bierze lunapark ↑→← z miejsca 4."
    )
    assert tiles.tile_term("banana") == "banana"


@pytest.mark.parametrize("locale", LANGUAGES)
def test_the_notation_tells_every_tile_apart(locale: str) -> None:
    """Different tiles never read the same, so a player can always tell which one a button means."""
    names = {tile_name(code, locale) for code in tiles.KINDS}
    assert len(names) == len(tiles.KINDS)


def test_moves_states_and_turn_logs_keep_the_codes() -> None:
    """Stored encodings are unchanged: the move names a code, the turn log and the saved state hold
    codes; only the sentence built from ``describe`` carries the term (JSON-able, so it may be stored)."""
    state = RULES.setup({"variant": "advanced"}, 2, 4)
    seat = state.current
    code = state.slots[0]
    assert code in tiles.KINDS
    after = RULES.apply(state, seat, {"kind": "architect", "slot": 1})
    after = RULES.apply(after, seat, {"kind": "planner", "tile": code, "plot": "A1"})
    assert after.turn_log == [
        {"kind": "architect", "slot": 1, "tile": code},
        {"kind": "planner", "plot": "A1", "tile": code},
    ]
    saved = json.dumps(RULES.to_json(after))
    assert code in saved and core.TERM_KEY not in saved
    assert RULES.view(after, None)["players"][seat]["grid"][0][0]["tile"] == code  # type: ignore[index]
    key, params = RULES.describe(
        state, seat, {"kind": "architect", "slot": 1}, RULES.apply(state, seat, {"kind": "architect", "slot": 1})
    )
    assert params["tile"] == tiles.tile_term(code)
    json.dumps(params)
    assert code not in i18n.t(key, "en", player="Ann", **params)
