"""Urban Panic speaks each language's grammar: a tile, a track or a variant takes the form its sentence
asks for ("Zbuduj fabrykę ↑→ na polu A1", "Взять фабрику ↑↓", "Építs egy gyárat ↑→", "Tomar la
fábrica ↑→"), and no summary or label names a tile after a colon because the grammar could not decline
it. The sentences here are the ones a native reader checks; the terms test (tests/test_terms.py) plays
whole games and finds no form a sentence asks for and a value lacks."""

from __future__ import annotations

import re
from typing import Any

import pytest

from bot import i18n, labels
from bot.rules import core
from bot.rules.urbanpanic import tiles
from bot.rules.urbanpanic.rules import RULES
from bot.rules.urbanpanic.state import State
from bot.service import choices_token
from cogs.games.urbanpanic import PRESENTER, Step, tile_name
from cogs.presenters import LABEL_LIMIT

from .helpers import player, turn_state

OTHER_LANGUAGES = ("hu", "es", "ru", "pl")
VARIANTS = (("basic", 2), ("advanced", 3), ("party", 3))


def summary(state: State, move: dict[str, Any], locale: str, name: str = "Ann") -> str:
    """The channel's sentence for ``move`` by seat 0, as the rules describe it."""
    after = RULES.apply(state, 0, move)
    key, params = RULES.describe(state, 0, move, after)
    return i18n.t(key, locale, player=name, **params)


def label(state: State, move: dict[str, Any], locale: str) -> str:
    return labels.move_label("urbanpanic", move, RULES.view(state, 0), locale)


def refusal(state: State, move: dict[str, Any], locale: str) -> str:
    with pytest.raises(core.GameError) as info:
        RULES.apply(state, 0, move)
    return i18n.error_text(info.value, locale)


def reserve_state(*codes: str, variant: str = "basic") -> State:
    return turn_state([player(reserve=list(codes))], variant=variant)


# -- Polish: the accusative and the genitive ----------------------------------------------------------


def test_polish_take_and_build_put_the_tile_in_the_accusative() -> None:
    state = turn_state(slots=["FAC-NE", "OFF-NESW", "HOU-NS", "PRK-SW"])
    assert summary(state, {"kind": "architect", "slot": 1}, "pl") == "Ann bierze fabrykę ↑→ z miejsca 1."
    assert label(state, {"kind": "architect", "slot": 1}, "pl") == "Weź fabrykę ↑→ (miejsce 1)"
    state = reserve_state("FAC-NE")
    build = {"kind": "planner", "tile": "FAC-NE", "plot": "A1"}
    assert summary(state, build, "pl") == "Ann buduje fabrykę ↑→ na polu A1."
    assert label(state, build, "pl") == "Zbuduj fabrykę ↑→ na polu A1"
    state = reserve_state("POW-NS")
    assert label(state, {"kind": "planner", "tile": "POW-NS", "plot": "B2"}, "pl") == "Zbuduj elektrownię ↑↓ na polu B2"
    # plural type words keep their plural accusative
    assert i18n.t("urbanpanic.ui.take", "pl", tile=tiles.tile_term("HOU-NESW")) == "Weź mieszkania ↑→↓←"


def test_polish_refusals_use_the_genitive_of_negation() -> None:
    state = reserve_state("PRK-SW")
    assert (
        refusal(state, {"kind": "planner", "tile": "FAC-NE", "plot": "A1"}, "pl")
        == "W Twojej rezerwie nie ma fabryki ↑→."
    )
    assert (
        i18n.t("urbanpanic.floor", "pl", track=tiles.track_term("ecology"), value=-6, floor=-5)
        == "Ten ruch obniżyłby ekologię do -6, poniżej limitu -5."
    )
    assert (
        i18n.t("urbanpanic.option.party_minutes.party_only", "pl", variant=tiles.variant_term("basic"))
        == "Limit czasu dotyczy tylko wariantu imprezowego; w wariancie podstawowym nie ma zegara."
    )


def test_polish_discord_questions_keep_the_forms_of_tile_names() -> None:
    """The cog's ``tile_name`` is the nominative as a string and keeps the other cases for a sentence."""
    name = tile_name("FAC-NE", "pl")
    assert name == "fabryka ↑→"
    assert i18n.t("urbanpanic.ui.ask.planner_plot", "pl", tile=name) == "Gdzie budujesz fabrykę ↑→?"
    state = reserve_state("FAC-NE", "PRK-SW")
    moves = RULES.legal_moves(state, 0)
    menu = PRESENTER.step_menu(
        Step(1, 1, "p", ("FAC-NE",)), moves, RULES.view(state, 0), "pl", 1, 1, choices_token(moves)
    )
    assert menu is not None and menu[0] == "Gdzie budujesz fabrykę ↑→?"
    prompt = PRESENTER.prompt(moves, RULES.view(state, 0), "pl")
    assert "Twoja rezerwa: fabryka ↑→, park ↓←." in prompt


def test_polish_turn_summary_reads_as_one_sentence() -> None:
    actions = [{"kind": "architect", "slot": 2, "tile": "FAC-NE"}, {"kind": "planner", "plot": "B3", "tile": "FAC-NE"}]
    assert (
        PRESENTER.turn_sentence("Ann", actions, None, "pl")
        == "Ann w tej turze bierze fabrykę ↑→ (miejsce 2), buduje fabrykę ↑→ na polu B3."
    )


# -- Russian ---------------------------------------------------------------------------------------------


def test_russian_take_build_and_refuse_in_their_cases() -> None:
    state = turn_state(slots=["FAC-NS", "OFF-NESW", "HOU-NS", "PRK-SW"])
    assert label(state, {"kind": "architect", "slot": 1}, "ru") == "Взять фабрику ↑↓ (место 1)"
    assert summary(state, {"kind": "architect", "slot": 1}, "ru") == "Ann берёт фабрику ↑↓ с места 1."
    state = reserve_state("POW-NS")
    build = {"kind": "planner", "tile": "POW-NS", "plot": "A1"}
    assert label(state, build, "ru") == "Построить электростанцию ↑↓ на A1"
    assert summary(state, build, "ru") == "Ann строит электростанцию ↑↓ на участке A1."
    assert (
        refusal(state, {"kind": "planner", "tile": "FAC-NE", "plot": "A1"}, "ru") == "В вашем резерве нет фабрики ↑→."
    )
    assert (
        i18n.t("urbanpanic.floor", "ru", track=tiles.track_term("income"), value=-6, floor=-5)
        == "Так шкала дохода опустится до -6, ниже предела -5."
    )
    assert (
        i18n.t("urbanpanic.option.party_goals.party_only", "ru", variant=tiles.variant_term("advanced"))
        == "Этот переключатель только для вечеринки; в продвинутой игре правила сами решают, нужны ли карты целей."
    )


def test_russian_engineer_replaces_with_the_instrumental() -> None:
    state = turn_state([player(board=_board_with_park(), reserve=["FAC-NE"])])
    move = {"kind": "engineer_reserve", "tile": "FAC-NE", "plot": "A1"}
    assert summary(state, move, "ru") == "Ann заменяет тайл на участке A1 фабрикой ↑→ из резерва."
    assert summary(state, move, "pl") == "Ann zastępuje kafel na polu A1 fabryką ↑→ z rezerwy."


def _board_with_park() -> list[str | None]:
    board = tiles.empty_board()
    board[tiles.parse_plot("A1")] = "PRK-NESW"
    return board


# -- Hungarian -------------------------------------------------------------------------------------------


def test_hungarian_puts_the_accusative_suffix_on_the_type_word() -> None:
    state = turn_state(slots=["POW-NS", "OFF-NESW", "HOU-NS", "PRK-SW"])
    assert label(state, {"kind": "architect", "slot": 1}, "hu") == "Vegyél el egy erőművet ↑↓ (1. hely)"
    assert summary(state, {"kind": "architect", "slot": 1}, "hu") == "Ann elvett egy erőművet ↑↓ a főtábla 1. helyéről."
    state = reserve_state("FAC-NE")
    build = {"kind": "planner", "tile": "FAC-NE", "plot": "A1"}
    assert label(state, build, "hu") == "Építs egy gyárat ↑→ (A1)"
    assert summary(state, build, "hu") == "Ann épített egy gyárat ↑→ (A1)."
    assert (
        i18n.t("urbanpanic.ui.ask.planner_plot", "hu", tile=tile_name("HOU-NESW", "hu")) == "Hová építesz lakást ↑→↓←?"
    )
    assert (
        refusal(state, {"kind": "planner", "tile": "OFF-NESW", "plot": "A1"}, "hu")
        == "Nincs iroda ↑→↓← a tartalékodban."
    )
    assert (
        i18n.t("urbanpanic.floor", "hu", track=tiles.track_term("ecology"), value=-6, floor=-5)
        == "Ezzel a lépéssel ökológiában -6 lenne az értéked, az alsó határ (-5) alatt."
    )


# -- Spanish ---------------------------------------------------------------------------------------------


def test_spanish_articles_agree_with_the_type_word() -> None:
    state = turn_state(slots=["AMU-NEW", "POW-NS", "HOU-NS", "PRK-SW"])
    assert (
        summary(state, {"kind": "architect", "slot": 1}, "es") == "Ann toma el parque de atracciones ↑→← del espacio 1."
    )
    assert label(state, {"kind": "architect", "slot": 2}, "es") == "Tomar la central eléctrica ↑↓ (espacio 2)"
    state = reserve_state("FAC-NE")
    build = {"kind": "planner", "tile": "FAC-NE", "plot": "A1"}
    assert label(state, build, "es") == "Construir una fábrica ↑→ en A1"
    assert summary(state, build, "es") == "Ann construye una fábrica ↑→ en A1."
    assert (
        i18n.t("urbanpanic.ui.planner", "es", tile=tiles.tile_term("PRK-SW"), plot="B2")
        == "Construir un parque ↓← en B2"
    )
    assert (
        refusal(state, {"kind": "planner", "tile": "HOU-NS", "plot": "A1"}, "es")
        == "No tienes una vivienda ↑↓ en tu reserva."
    )
    assert (
        i18n.t("urbanpanic.floor", "es", track=tiles.track_term("income"), value=-6, floor=-5)
        == "Eso bajaría los ingresos a -6, por debajo del límite de -5."
    )


def test_english_reads_as_before() -> None:
    state = reserve_state("FAC-NE")
    build = {"kind": "planner", "tile": "FAC-NE", "plot": "A1"}
    assert summary(state, build, "en") == "Ann built factory ↑→ on A1."
    assert label(state, build, "en") == "Build factory ↑→ on A1"
    assert (
        i18n.t("urbanpanic.floor", "en", track=tiles.track_term("income"), value=-6, floor=-5)
        == "That would push your income to -6, below the limit of -5."
    )


# -- seeded games: no tile after a colon -------------------------------------------------------------------


def _nominatives(locale: str) -> list[str]:
    return [str(i18n.resolve(tiles.type_term(typ), locale)) for typ in tiles.TYPES]


def colon_tile(locale: str) -> re.Pattern[str]:
    """A colon followed by a tile's name: "bierze z miejsca 4: lunapark ↑→←", "Weź: fabryka ↑→"."""
    words = "|".join(re.escape(w) for w in sorted(_nominatives(locale), key=len, reverse=True))
    return re.compile(r":\s*(?:" + words + r")\s[" + "".join(tiles.ARROWS.values()) + "]")


def summaries_and_labels(variant: str, seats: int, locale: str, seed: int = 7) -> list[str]:
    """Every summary (the rules' sentence and the turn's one line) and every label (buttons, step menus
    and their questions) of a seeded game played to the end by the AI."""
    state = RULES.setup({"variant": variant}, seats, seed)
    out: list[str] = []
    step = 0
    while not RULES.is_over(state) and step < 800:
        for seat in sorted(RULES.awaiting(state)):
            view = RULES.view(state, seat)
            moves = RULES.legal_moves(state, seat)
            token = choices_token(moves)
            out += [labels.move_label("urbanpanic", m, view, locale) for m in moves[:60]]
            if variant == "party":
                out += [e.label for e in PRESENTER.party_entries(1, 1, token, moves, view, locale)]
            elif step % 2 == 0:
                out += [e.label for e in PRESENTER.top_entries(1, 1, token, moves, view, locale)]
                for name in ("p", "e", "s"):
                    menu = PRESENTER.step_menu(Step(1, 1, name), moves, view, locale, 1, 1, token)
                    if menu is not None:
                        out += [menu[0], *(e.label for e in menu[1])]
            move = RULES.ai_move(state, seat, "greedy", seed + step)
            after = RULES.apply(state, seat, move)
            key, params = RULES.describe(state, seat, move, after)
            out += PRESENTER.summary_lines(key, {"player": "Ann", **params}, RULES.view(after, None), locale)
            state, step = after, step + 1
            if RULES.is_over(state):
                break
    return out


@pytest.mark.parametrize("variant, seats", VARIANTS)
@pytest.mark.parametrize("locale", OTHER_LANGUAGES)
def test_no_summary_or_label_puts_a_tile_after_a_colon(variant: str, seats: int, locale: str) -> None:
    texts = summaries_and_labels(variant, seats, locale)
    assert sum(1 for text in texts if any(a in text for a in tiles.ARROWS.values())) > 20
    pattern = colon_tile(locale)
    assert [text for text in texts if pattern.search(text)] == []


@pytest.mark.parametrize("locale", OTHER_LANGUAGES)
def test_the_colon_check_would_catch_the_old_sentences(locale: str) -> None:
    """The check above is not vacuous: the sentences as they were read "…: fabryka ↑→"."""
    old = {
        "pl": "AI 1 bierze z miejsca 4: lunapark ↑→←.",
        "ru": "Построить на A1: жильё ↑→↓←",
        "hu": "Építés (A1): lakás ↑→↓←",
        "es": "Construir en A1: fábrica ↑→",
    }
    assert colon_tile(locale).search(old[locale])


@pytest.mark.parametrize("locale", OTHER_LANGUAGES)
def test_every_tile_label_fits_a_button(locale: str) -> None:
    """The longest type word in its longest form, the most arrows and the longest seat name still fit."""
    longest = max(tiles.KINDS, key=lambda code: len(tile_name(code, locale)) + len(code))
    state = turn_state(
        [player(reserve=[longest])], seats=3, variant="advanced", slots=[longest, longest, longest, longest]
    )
    state.players[1].reserve = [longest]
    view = RULES.view(state, 0)
    for move in RULES.legal_moves(state, 0):
        text = labels.move_label("urbanpanic", move, view, locale, limit=10 * LABEL_LIMIT)
        assert len(text) <= LABEL_LIMIT, text
