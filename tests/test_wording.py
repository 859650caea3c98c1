"""The words a native reader found wrong (issue 36, points 4 to 8), checked in the catalogue and in the
sentences the tellers build: each test pins the physical game's own wording in the language."""

from __future__ import annotations

from typing import Any

import pytest

from bot import i18n
from bot.rules import core
from bot.rules.quadropolis.rules import RULES as QP
from cogs.games.quadropolis import PRESENTER as QP_PRESENTER
from render import quadropolis as q

LANGUAGES = ("en", "hu", "es", "ru", "pl")

# ------------------------------------------------------------------------------------------------
# 4. The solo Automa line, as the rulebook writes it
# ------------------------------------------------------------------------------------------------

AUTOMAS_MOVE = {
    "en": "The Automas' move: ",
    "hu": "Az Automák lépése: ",
    "es": "Jugada de los Automas: ",
    "ru": "Ход Автом: ",
    "pl": "Ruch Automów: ",
}
CALQUES = ("Next turn", "Következő kör", "Próximo turno", "Следующий ход", "Następna tura")


def _automa_line(locale: str) -> str:
    step = core.term(
        "btc.automa.step",
        name=core.term("btc.automa.name.autommaso"),
        card=14,
        city=core.term("btc.city.left_city"),
        shared=core.term("btc.tile.factory"),
        built=core.term("btc.tile.park"),
        automacity=core.term("btc.city.automacity"),
    )
    return i18n.t(
        "btc.move.place_automa",
        locale,
        player="Ana",
        tile=core.term("btc.tile.shop"),
        city=core.term("btc.city.right_city"),
        cell="B2",
        automas=[step],
    )


@pytest.mark.parametrize("locale", LANGUAGES)
def test_the_automa_line_names_the_automas_move_not_a_next_turn(locale: str) -> None:
    for key in ("btc.move.place_automa", "btc.move.turned_automa"):
        text = str(i18n.catalogue(locale)[key])
        assert AUTOMAS_MOVE[locale] + "{automas}" in text, (locale, key, text)
        assert not any(calque in text for calque in CALQUES), (locale, key, text)


def test_the_hungarian_automa_line_reads_as_the_rulebook() -> None:
    assert _automa_line("hu") == (
        "Ana üzletet épít Jobbvárosba (B2). Az Automák lépése: Autommaso (14. kártya) "
        "hozzárendel egy gyárat Balfalvához, és lehelyez egy parkot Automavárosba."
    )
    assert _automa_line("es").endswith(
        "Jugada de los Automas: Autommaso (carta 14) asigna una fábrica a la Ciudad "
        "izquierda y coloca un parque en la Automaciudad."
    )


def test_hungarian_assigns_with_the_rulebooks_one_verb() -> None:
    """003 says "hozzárendel" (to a city: -hoz/-hez/-höz); the sentences said "ad", "szán" by turns."""
    for key in ("btc.automa.step", "btc.move.assign", "btc.move.assign_simple"):
        text = str(i18n.catalogue("hu")[key])
        assert "hozzárendel " in text, (key, text)
        assert " szán" not in text and " ad," not in text and " ad " not in text, (key, text)
    assert "rendelted hozzá" in str(i18n.catalogue("hu")["btc.place.assigned_elsewhere"])


# ------------------------------------------------------------------------------------------------
# 5. Hungarian rounds and city names
# ------------------------------------------------------------------------------------------------


def test_the_hungarian_btc_picture_counts_rounds_as_the_rulebook() -> None:
    """003: "2. Kör – Kettőslapkák": a round is a "kör"; a pick within it a "lépés"."""
    title = i18n.t("btc.render.title.turn", "hu", round=2, part="", turn=1)
    assert "2. kör" in title and "forduló" not in title, title
    rules = " ".join(str(v) for k, v in i18n.catalogue("hu").items() if k.startswith("btc.rules."))
    assert "2. kör – Kettőslapkák" in rules and "forduló" not in rules


LANDMARKS = ("lighthouse", "clocktower", "windmill", "cathedral", "observatory", "harbour", "bridge")


@pytest.mark.parametrize("city", LANDMARKS)
def test_hungarian_builds_in_a_city_named_after_a_landmark_not_inside_the_landmark(city: str) -> None:
    """ "gyárat épít Szélmalomba" builds inside a windmill: "a Szélmalom nevű városba"."""
    name = i18n.t(f"btc.city.{city}", "hu")
    line = i18n.t(
        "btc.move.place",
        "hu",
        player="Ana",
        tile=core.term("btc.tile.factory"),
        city=core.term(f"btc.city.{city}"),
        cell="B2",
    )
    article = "az" if name[0] in "AÁEÉIÍOÓÖŐUÚÜŰ" else "a"
    assert f"gyárat épít {article} {name} nevű városba (B2)" in line, line


# ------------------------------------------------------------------------------------------------
# 6. Quadropolis: a round is 4 goes of every player
# ------------------------------------------------------------------------------------------------


def _qp_last_go(players: int) -> dict[str, Any]:
    state = QP.setup({"mode": "classic"}, players, 5)
    i = 0
    while QP.view(state, None)["turn"]["number"] < 4 * players:
        (seat,) = QP.awaiting(state)
        state = QP.apply(state, seat, QP.ai_move(state, seat, "random", i))
        i += 1
    view: dict[str, Any] = dict(QP.view(state, None))
    assert view["turn"]["number"] == 4 * players, view["turn"]
    return view


ROUND_TURN = {
    "en": "turn 4 of 4",
    "hu": "4. kör (4 közül)",
    "es": "turno 4 de 4",
    "ru": "ход 4 из 4",
    "pl": "tura 4 z 4",
}


@pytest.mark.parametrize("locale", LANGUAGES)
def test_the_quadropolis_counter_counts_goes_of_the_round_not_single_moves(locale: str) -> None:
    """Two players' last go of round 1 is go 4 of 4 ("kör: 8/8" counted each player's move)."""
    view = _qp_last_go(2)
    title = q._turn_title(view, locale)
    assert ROUND_TURN[locale] in title, title
    status = QP_PRESENTER.status_lines(view, locale, ["Ana", "Bea"])[0]  # type: ignore[arg-type]
    assert ROUND_TURN[locale] in status, status


# ------------------------------------------------------------------------------------------------
# 8. Smaller wording
# ------------------------------------------------------------------------------------------------


def _depth(text: str) -> int:
    depth = most = 0
    for ch in text:
        depth += {"(": 1, ")": -1}.get(ch, 0)
        most = max(most, depth)
    return most


@pytest.mark.parametrize("locale", LANGUAGES)
def test_an_ai_seat_in_brackets_opens_no_second_bracket(locale: str) -> None:
    """ "(ИИ 2 (сильный))", "(AI 1 (silny))": a city's builders are listed in brackets."""
    from bot import games

    name = games.ai_seat_name(2, "strong", locale)
    line = i18n.t("btc.ui.status_city", locale, city="X", total=5, builders=f"Ana, {name}")
    assert "(" in line
    assert _depth(line) <= 1, line


def test_russian_names_the_player_once_in_a_turn_line() -> None:
    """ "Ход игрока Игрок 1: …" said "player" twice; the actions are verbs of their own."""
    from bot.games import urbanpanic as up_teller

    line = up_teller.turn_sentence("Игрок 1", [{"kind": "mayor"}], None, "ru")  # type: ignore[list-item]
    assert line == "Игрок 1 вызывает Мэра (4 новых тайла).", line


def test_russian_rules_take_the_architect_action_not_perform_the_architect() -> None:
    for key, text in i18n.catalogue("ru").items():
        assert "выполнить Архитектора" not in str(text) and "выполните Архитектора" not in str(text), key
        assert "выполните **Архитектора**" not in str(text), key


def test_polish_wording() -> None:
    started = i18n.t("local.started", "pl", title="Quadropolis", game=3, players="Ana, Bea")
    assert "Gracze: Ana, Bea" in started and "Miejsca" not in started
    pl = " ".join(str(v) for k, v in i18n.catalogue("pl").items() if k.startswith("quadropolis."))
    assert "łużb" not in pl
    assert i18n.t("quadropolis.render.kind.public", "pl") == "Budynek użyteczności publicznej"


def test_spanish_wording() -> None:
    es = i18n.catalogue("es")
    stack = i18n.t(
        "quadropolis.move.stack",
        "es",
        player="Ana",
        tile={"$term": "quadropolis.tile.kind.tower"},
        building={"$term": "quadropolis.tile.kind.tower"},
        square="B3",
        floor=2,
        architect=2,
    )
    assert stack.count("bloque de torres") == 1 and "piso 2 del" not in stack, stack
    assert es["quadropolis.render.legend.points"] == "PV de la loseta"
    assert "puntos impresos" not in " ".join(str(v) for v in es.values())
    assert i18n.t("urbanpanic.render.track.jobs", "es") == "Empleo"
    assert "trabajo" not in i18n.t("urbanpanic.rules.buildings.1", "es").casefold()


def test_hungarian_lost_tiles_are_framed_and_lost_at_scoring() -> None:
    assert i18n.t("urbanpanic.render.lost", "hu") == "keretes: pontozáskor elvész"


def test_english_says_the_gain_once() -> None:
    """ "took a tower block (+3 inhabitants) … and built it at A1: +3 inhabitants."."""
    state = QP.setup({"mode": "classic"}, 2, 5)
    lines = []
    for i in range(16):
        (seat,) = QP.awaiting(state)
        move = QP.ai_move(state, seat, "greedy", i)
        after = QP.apply(state, seat, move)
        key, params = QP.describe(state, seat, move, after)
        if key.startswith(("quadropolis.move.build", "quadropolis.move.stack")):
            lines.append(i18n.t(key, "en", **{**params, "player": "Ana"}))
        state = after
    assert lines, "no build was told"
    for line in lines:
        twice = [word for word in ("inhabitant", "energy", "point") if line.count(word) > 1]
        assert not twice, line
