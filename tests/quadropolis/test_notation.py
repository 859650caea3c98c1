"""What players read names the construction site's slots the way the picture draws them (an arrow the
way the architect points and the row or column: ``→3``), never by the codes the move log stores
(``"slot": "L3"``, ``S(3,2)``, ``C(1,4)``), in every language; the rules pages and the glossaries teach
the same notation."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from bot import games, i18n, labels, local
from bot.games.quadropolis import slot_text
from bot.rules import core
from bot.rules.core import IllegalMove
from bot.rules.quadropolis import tiles as T
from bot.rules.quadropolis.rules import RULES
from render import pictures
from render import quadropolis as q

LANGUAGES = ("hu", "es", "ru", "pl")
EVERY_LANGUAGE = ("en", *LANGUAGES)
GAMES = [("classic", 2, 5), ("classic", 4, 8), ("expert", 3, 6), ("expert", 2, 9)]
"""(mode, seats, seed) of the seeded games played to the end."""

SITE_CODE = re.compile(r"S\(|\bC\(")
SIDE_CODE = re.compile(r"\b[LTR][1-5]\b")
"""Slot codes of the left, top and right: no city square is ever called so (city rows are A-D)."""
SLOT_CODE = re.compile(r"\b[LTRB][1-5]\b")
"""Any slot code; the bottom ones (B1-B5) are also city squares, so this applies where no city square
is named (a take, its label, a refusal about a slot)."""
ARROWS = {"L": "→", "R": "←", "T": "↓", "B": "↑"}
LOCALES = Path(i18n.__file__).with_name("locales")


def _codes(text: str, *, city_square: str | None = None) -> list[str]:
    """The stored codes in ``text``: site and city squares, slot codes; a city square named by the
    move itself (``city_square``) is what the player chose and may be read."""
    found = SITE_CODE.findall(text) + SIDE_CODE.findall(text)
    found += [code for code in re.findall(r"\bB[1-5]\b", text) if code != city_square]
    return found


def _played(mode: str, seats: int, seed: int, locale: str) -> list[tuple[dict[str, Any], str]]:
    """(move, text) for every label offered and every summary told in a seeded game played to the
    end by the AI, in ``locale``."""
    state = RULES.setup({"mode": mode}, seats, seed)
    out: list[tuple[dict[str, Any], str]] = []
    step = 0
    while not RULES.is_over(state):
        (seat,) = RULES.awaiting(state)
        view = RULES.view(state, seat)
        for move in RULES.legal_moves(state, seat):
            out.append((move, labels.move_label("quadropolis", move, view, locale)))
        move = RULES.ai_move(state, seat, "greedy", seed + step)
        after = RULES.apply(state, seat, move)
        key, params = RULES.describe(state, seat, move, after)
        out.append((move, i18n.t(key, locale, **params, player="P")))
        state, step = after, step + 1
    assert step > 30
    return out


@pytest.mark.parametrize("mode, seats, seed", GAMES)
@pytest.mark.parametrize("locale", LANGUAGES)
def test_labels_and_summaries_name_slots_by_arrows(mode: str, seats: int, seed: int, locale: str) -> None:
    """Every take's label and summary names its slot as the picture does (``→3``) and no stored code;
    builds name only the city square the player chose."""
    texts = _played(mode, seats, seed, locale)
    takes = [(m, text) for m, text in texts if m["kind"] == "take"]
    assert len(takes) > 100
    for move, text in texts:
        square = move.get("square") if move["kind"] == "build" else None
        assert not _codes(text, city_square=square), (move, text)
        if move["kind"] == "take":
            assert not SLOT_CODE.search(text), text
            slot = move["slot"]
            assert f"{ARROWS[slot[0]]}{slot[1:]}" in text, text


@pytest.mark.parametrize("locale", EVERY_LANGUAGE)
def test_refusals_about_slots_name_them_by_arrows(locale: str) -> None:
    """A slot already taken or closed by the urbanist is refused naming it the way the menus do."""
    state = RULES.setup({"mode": "classic"}, 2, 3)
    seat = state.current
    move = next(m for m in RULES.legal_moves(state, seat) if m["slot"] == "B2")
    state = RULES.apply(state, seat, move)
    while RULES.view(state, None)["turn"]["phase"] == "build":
        (seat,) = RULES.awaiting(state)
        state = RULES.apply(state, seat, {"kind": "discard"})
    seat = state.current
    architect = state.seats[seat].architects[0]
    refused, keys = [], []
    for slot in ("B2", "L" + str(state.urbanist[0] + 1), "T" + str(state.urbanist[1] + 1)):
        with pytest.raises(IllegalMove) as info:
            RULES.apply(state, seat, {"kind": "take", "architect": architect, "slot": slot})
        refused.append((slot, i18n.error_text(info.value, locale)))
        keys.append(info.value.key)
    assert keys == ["quadropolis.take.slot_taken", "quadropolis.take.urbanist_row", "quadropolis.take.urbanist_column"]
    for slot, text in refused:
        assert not SLOT_CODE.search(text) and not SITE_CODE.search(text), text
        assert slot_text(slot, locale) in text, text


@pytest.mark.parametrize("locale", EVERY_LANGUAGE)
def test_text_and_picture_share_one_notation(locale: str) -> None:
    """The picture's slot names are the sentences' (one function), one name per slot, arrows pointing
    the way the architect points."""
    names = {slot: q.slot_label(slot, locale) for slot in T.SLOTS}
    assert names == {slot: slot_text(slot, locale) for slot in T.SLOTS}
    assert len(set(names.values())) == 20
    assert names["L3"] == "→3" and names["R3"] == "←3" and names["T3"] == "↓3" and names["B3"] == "↑3"
    for name in names.values():
        assert not SLOT_CODE.search(name) and not SITE_CODE.search(name)


def _pages(locale: str) -> dict[str, str]:
    game = games.get("quadropolis")
    out = {}
    for topic in game.rules_topics:
        n = 1
        while (key := f"quadropolis.rules.{topic}.{n}") in i18n.catalogue("en"):
            out[key] = i18n.t(key, locale)
            n += 1
    return out


@pytest.mark.parametrize("locale", EVERY_LANGUAGE)
def test_rules_and_help_teach_the_notation(locale: str) -> None:
    """`/game rules` and the command and menu texts use the arrows and the language's badge marks, and
    no stored code (a city square such as B3 is a city square: only the stacking example names one)."""
    pages = _pages(locale)
    assert len(pages) >= 8
    help_keys = [
        key
        for key in i18n.catalogue("en")
        if key.startswith(("quadropolis.ui.", "cmd.quadropolis.")) or key == "quadropolis.option.mode"
    ]
    texts = {**pages, **{key: i18n.t(key, locale) for key in help_keys}}
    for key, text in texts.items():
        assert not SITE_CODE.search(text) and not SIDE_CODE.search(text), text
        if key == "cmd.quadropolis.place.square.description":
            continue  # "e.g. B3": a city square, which is what the option asks for
        for found in re.finditer(r"\bB[1-5]\b", text):
            assert text[found.end() :].startswith(" ▲"), text  # the stacking example's city square
    turn = pages["quadropolis.rules.turn.1"]
    for arrow in ARROWS.values():
        assert f"{arrow}1" in turn and f"{arrow}5" in turn, (locale, arrow)
    buildings = "\n".join(text for key, text in pages.items() if ".buildings." in key)
    for kind, mark in q.marks(locale).items():
        name = i18n.t(f"quadropolis.render.kind.{kind}", locale)
        assert f"**{mark}** {name}" in buildings, (locale, kind, mark, name)
    sides = [i18n.t(f"quadropolis.ui.side.{side}", locale) for side in "LTRB"]
    for side, text in zip("LTRB", sides, strict=True):
        assert f"{ARROWS[side]}1" in text and f"{ARROWS[side]}5" in text, text


@pytest.mark.parametrize("locale", LANGUAGES)
def test_the_glossary_teaches_the_same_notation(locale: str) -> None:
    """Each language's glossary (for reviewers and translators) names the arrows and the badge marks."""
    glossary = (LOCALES / locale / "GLOSSARY-quadropolis.md").read_text(encoding="utf-8")
    for arrow in ARROWS.values():
        assert f"{arrow}1" in glossary, arrow
    assert "L1" in glossary  # the stored code is explained beside what players read
    for mark in q.marks(locale).values():
        assert f"**{mark}**" in glossary, mark


def test_polish_counts_inhabitants_in_the_genitive_after_two_to_four() -> None:
    """ "+3 mieszkańców" (masculine-personal nouns take the genitive after 2-4), as after 5."""
    assert i18n.t("quadropolis.gain.inhabitants", "pl", n=3) == "+3 mieszkańców"
    assert i18n.t("quadropolis.gain.inhabitants", "pl", n=5) == "+5 mieszkańców"
    assert i18n.t("quadropolis.gain.inhabitants", "pl", n=1) == "+1 mieszkaniec"


@pytest.mark.parametrize("locale", LANGUAGES)
@pytest.mark.parametrize("mode", ["classic", "expert"])
def test_the_terminal_game_reads_no_stored_code(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], locale: str, mode: str
) -> None:
    """`local quadropolis --lang <lang>` against an AI seat, always answering 1: its menus, summaries,
    status lines and ranking carry no stored code (pictures are left out: tests/render draws them)."""
    renderer = pictures.get("quadropolis")
    for name in ("render_turn", "render_board", "render_end"):
        monkeypatch.setattr(renderer, name, lambda *args, **kwargs: b"")
    answers = iter(["1"] * 400)
    monkeypatch.setattr("builtins.input", lambda prompt="": next(answers))
    code = local.main(
        [
            "quadropolis",
            "--mode",
            mode,
            "--players",
            "2",
            "--ai",
            "1",
            "--level",
            "greedy",
            "--lang",
            locale,
            "--db",
            str(tmp_path / "local.sqlite3"),
            "--out",
            str(tmp_path / "out"),
        ]
    )
    out = capsys.readouterr().out
    assert code == 0
    take_word = i18n.t("quadropolis.ui.take", locale, architect=1, slot="", what="").split("1")[0]
    lines = out.splitlines()
    assert sum(take_word in line for line in lines) > 16
    for line in lines:
        assert not SITE_CODE.search(line) and not SIDE_CODE.search(line), line
        if take_word in line:
            assert not SLOT_CODE.search(line), line
    assert any(arrow in out for arrow in ARROWS.values())


@pytest.mark.parametrize("locale", LANGUAGES)
@pytest.mark.parametrize("mode", ["classic", "expert"])
def test_discord_menus_and_status_read_no_stored_code(locale: str, mode: str) -> None:
    """The take menus (one per side: placeholder and options), the prompt and the status lines of the
    Discord presenter name slots by arrows, and the mode in the reader's language."""
    import discord

    from cogs.games.quadropolis import PRESENTER

    state = RULES.setup({"mode": mode}, 2, 4)
    seat = state.current
    view = RULES.view(state, seat)
    moves = RULES.legal_moves(state, seat)
    ui = PRESENTER.controls(1, 1, "tok", moves, view, locale)
    selects = [item for item in ui.children if isinstance(item, discord.ui.Select)]
    assert len(selects) >= 4
    texts = [PRESENTER.prompt(moves, view, locale), *PRESENTER.status_lines(view, locale, ["Ann", "Bob"])]
    for select in selects:
        texts += [str(select.placeholder), *(option.label for option in select.options)]
    for text in texts:
        assert not SLOT_CODE.search(text) and not SITE_CODE.search(text), text
    assert i18n.t(f"quadropolis.option_value.mode.{mode}", locale) in texts[1]
    assert not re.search(rf"\b{i18n.t(f'quadropolis.option_value.mode.{mode}', 'en')}\b", texts[1]), texts[1]


@pytest.mark.parametrize("locale", EVERY_LANGUAGE)
def test_a_build_out_of_reach_names_the_reach_in_the_players_words(locale: str) -> None:
    """The refusal names the lettered city row and the column (Classic), or the field and district
    (Expert), in the reader's language (it used to be English words and a numbered row)."""
    state = RULES.setup({"mode": "classic"}, 2, 3)
    while RULES.view(state, None)["turn"]["phase"] != "build":
        (seat,) = RULES.awaiting(state)
        state = RULES.apply(state, seat, RULES.ai_move(state, seat, "greedy", 1))
    (seat,) = RULES.awaiting(state)
    value = int(state.pending_architect or 0)
    other = value % 4 + 1
    square = f"{chr(ord('A') + other - 1)}{other}"
    with pytest.raises(IllegalMove) as info:
        RULES.apply(state, seat, {"kind": "build", "square": square})
    text = i18n.error_text(info.value, locale)
    row = chr(ord("A") + value - 1)
    assert info.value.key == "quadropolis.build.out_of_reach"
    assert re.search(rf"\b{row}\b", text) and str(value) in text, text
    english = i18n.resolve(core.term("quadropolis.reach.rows", row=row, column=value))
    assert (english in text) == (locale == "en"), text
    expert = i18n.resolve(core.term("quadropolis.reach.fields", n=2), locale)
    assert (expert == "field 2 or district 2") == (locale == "en"), expert
