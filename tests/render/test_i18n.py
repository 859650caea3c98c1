"""Every word in the pictures comes from the message catalogue, so a translation is a data change.

The main check renders every image kind of every game in a test locale whose catalogue maps each
message id to a marker without letters ("§17", with its parameters as «a|b»), while a spy on
Pillow's ``ImageDraw.text`` (the one call every drawn string goes through) records each string.
A drawn string may then hold letters only where they come from the view's data (player names,
square and slot names, tile labels, city names...); an English literal left in the code shows up
as letters that are neither. The views are real seeded games plus edits that reach the rare
branches (tie notes, the party table, the last round...).

The English pictures are pinned too: six images drawn from stored views must match reference
thumbnails made by the renderer before the catalogue move.
"""

from __future__ import annotations

import ast
import copy
import json
import re
import string
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from PIL import Image, ImageChops, ImageDraw

from bot import i18n
from bot.rules.btc.rules import RULES as BTC
from bot.rules.quadropolis.rules import RULES as QP
from bot.rules.urbanpanic.rules import RULES as UP
from render import btc as b
from render import common as c
from render import pictures, scores
from render import quadropolis as q
from render import urbanpanic as u

ROOT = Path(__file__).resolve().parents[2]
RENDER = ROOT / "render"
CATALOGUES = [
    ROOT / "bot" / "locales" / "en" / "render.json",
    *sorted((ROOT / "bot" / "locales" / "en").glob("*_render.json")),
]
"""The pictures' words: the shared ones and each game's own."""
RENDER_ID = r"(?:render|[a-z]+\.render)\.[a-z_.]+[a-z_]"


def _english_render_catalogue() -> dict[str, Any]:
    merged: dict[str, Any] = {}
    for path in CATALOGUES:
        merged.update(json.loads(path.read_text(encoding="utf-8")))
    return merged


GOLDEN = Path(__file__).with_name("data") / "golden"

TEST_LOCALE = "zz-ZZ"
"""A locale no catalogue folder has; the tests give it the marker catalogue."""
NAMES = ["Ödön", "Łukasz", "Жанна", "Bob", "Eve", "Fay", "Gus"]
"""Short names without spaces: a drawn name is never cut or wrapped, so it is always a whole word."""
DATA_KEYS = frozenset({"label", "name", "automa", "open", "open_slots", "square", "letters", "id", "part"})
"""View fields whose strings the renderers draw as they are (the rules' words and codes)."""
LETTER_RUN = re.compile(r"[^\W\d_]+")
MARKER = re.compile(r"§\d+")


# ---------------------------------------------------------------------------------------------
# The marker catalogue and the spy
# ---------------------------------------------------------------------------------------------


def _marker_catalogue() -> dict[str, str]:
    """Every English message id -> "§n", followed by its parameters as «{a}|{b}» when it has some."""
    out: dict[str, str] = {}
    for n, (key, message) in enumerate(sorted(i18n.catalogue("en").items())):
        text = message if isinstance(message, str) else message["other"]
        fields = [f for _, f, _, _ in string.Formatter().parse(text) if f]
        out[key] = f"§{n}" + ("«" + "|".join("{" + f + "}" for f in fields) + "»" if fields else "")
    return out


@pytest.fixture
def marked(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[str]]:
    """The test locale speaks markers; yields the list of every string drawn meanwhile."""
    markers = _marker_catalogue()
    real_catalogue = i18n.catalogue

    def catalogue(locale: str) -> dict[str, str]:
        return markers if locale == i18n.normalise_locale(TEST_LOCALE) else real_catalogue(locale)

    monkeypatch.setattr(i18n, "catalogue", catalogue)
    drawn: list[str] = []
    real_text = ImageDraw.ImageDraw.text

    def spy(self: ImageDraw.ImageDraw, xy: Any, text: Any, *args: Any, **kwargs: Any) -> Any:
        drawn.append(str(text))
        return real_text(self, xy, text, *args, **kwargs)

    monkeypatch.setattr(ImageDraw.ImageDraw, "text", spy)
    yield drawn


def _data_strings(node: Any, inside: bool = False) -> Iterator[str]:
    """Strings held under the drawn fields (``DATA_KEYS``) of a view, at any depth."""
    if isinstance(node, str):
        if inside:
            yield node
    elif isinstance(node, dict):
        for key, value in node.items():
            yield from _data_strings(value, inside or key in DATA_KEYS)
    elif isinstance(node, list | tuple):
        for item in node:
            yield from _data_strings(item, inside)


def vocabulary(*sources: Any) -> set[str]:
    """The words (letter runs) the data may put into a picture: names and the views' drawn fields."""
    words: set[str] = set()
    for source in sources:
        for text in _data_strings(source, inside=not isinstance(source, dict)):
            words.update(LETTER_RUN.findall(text))
    return words


def offending(drawn: list[str], words: set[str]) -> list[str]:
    """The drawn strings holding a word that is neither a catalogue marker's nor the data's.

    Single characters are codes (tile and seat letters, grid coordinates) and pass. A string cut
    with an ellipsis may end in the start of a data word.
    """
    bad = []
    for text in drawn:
        if len(text.strip()) <= 1:
            continue
        runs = LETTER_RUN.findall(MARKER.sub(" ", text))
        for k, run in enumerate(runs):
            if run in words:
                continue
            if text.endswith("…") and k == len(runs) - 1 and any(w.startswith(run) for w in words):
                continue
            bad.append(text)
            break
    return bad


# ---------------------------------------------------------------------------------------------
# Views: real seeded games, and edits reaching the rare branches
# ---------------------------------------------------------------------------------------------


def _play_qp(mode: str, players: int, seed: int, moves: int | None, level: str = "greedy") -> Any:
    state = QP.setup({"mode": mode}, players, seed)
    i = 0
    while not QP.is_over(state) and (moves is None or i < moves):
        (seat,) = QP.awaiting(state)
        state = QP.apply(state, seat, QP.ai_move(state, seat, level, seed + i))
        i += 1
    return state


def _play(rules: Any, options: dict[str, Any], seats: int, seed: int, moves: int | None) -> Any:
    state = rules.setup(options, seats, seed)
    done = 0
    while not rules.is_over(state) and (moves is None or done < moves):
        for seat in sorted(rules.awaiting(state)):
            state = rules.apply(state, seat, rules.ai_move(state, seat, "greedy", seed + done))
            done += 1
            if rules.is_over(state):
                break
    return state


def _with(view: dict[str, Any], edit: Callable[[dict[str, Any]], None]) -> dict[str, Any]:
    out = copy.deepcopy(view)
    edit(out)
    return out


def _result(view: dict[str, Any], **changes: Any) -> dict[str, Any]:
    return _with(view, lambda v: v["result"].update(changes))


@pytest.fixture(scope="module")
def qp_views() -> list[tuple[dict[str, Any], int]]:
    """(view, seat) pairs: take and build phases, Expert mid-game, finished games, tie notes."""
    mid = _play_qp("classic", 3, 11, 9)
    build = mid
    while QP.view(build, None)["turn"]["phase"] != "build":
        (seat,) = QP.awaiting(build)
        build = QP.apply(build, seat, QP.ai_move(build, seat, "greedy", 5))
    build_seat = QP.view(build, None)["turn"]["seat"]
    build_view = QP.view(build, build_seat)
    expert = QP.view(_play_qp("expert", 2, 13, 23), 1)
    end = QP.view(_play_qp("classic", 4, 19, None), None)
    mid_seat = QP.view(mid, None)["turn"]["seat"]

    def take_phase(v: dict[str, Any]) -> None:
        v["turn"].update(phase="take", seat=mid_seat, number=None)
        v["pending"] = None

    out = [
        (QP.view(mid, 0), mid_seat),
        (_with(QP.view(mid, mid_seat), take_phase), mid_seat),
        (build_view, build_seat),
        (_with(build_view, lambda v: v["pending"]["tile"].pop("label", None)), build_seat),
        (expert, 1),
        (end, 0),
        (_result(end, decided_by="shared"), 0),
        (_result(end, decided_by="quadropolis.tiebreak.inhabitants"), 1),
    ]
    return out


@pytest.fixture(scope="module")
def btc_views() -> list[tuple[dict[str, Any], int]]:
    """(view, seat) pairs for every mode, mid-game and finished, with a few edited states."""
    out = []
    for mode, seats in (("standard", 5), ("two_player", 2), ("solo_full", 1), ("solo_simple", 1)):
        out.append((BTC.view(_play(BTC, {"mode": mode}, seats, 21, 14), 0), 0))
        out.append((BTC.view(_play(BTC, {"mode": mode}, seats, 22, None), 0), 0))
    standard_mid = out[0][0]

    def statuses(v: dict[str, Any]) -> None:
        v["phase"] = "place"
        v["awaiting"] = [0, 1]
        v["players"][0]["to_place"] = [{"id": 1}]
        v["players"][2]["committed"] = True
        v["cities"][0]["modifier"] = -3
        v["cities"][0]["factories"] = 1
        v["cities"][1]["factories"] = 2
        v["cities"][2].pop("name", None)

    out.append((_with(standard_mid, statuses), 0))
    out.append((_with(standard_mid, lambda v: v.update(phase="bonus")), 0))
    standard_end = out[1][0]
    out.append((_result(standard_end, decided_by="shared"), 0))
    out.append((_result(standard_end, decided_by="btc.tiebreak.shops"), 0))
    return out


@pytest.fixture(scope="module")
def up_views() -> list[tuple[dict[str, Any], int]]:
    """(view, seat) pairs for every variant, mid-game and finished, with the rare lines switched on."""
    out = []
    for variant, seats in (("basic", 2), ("advanced", 4), ("party", 3)):
        mid = _play(UP, {"variant": variant}, seats, 31, 25)
        out.append((UP.view(mid, 0), min(UP.awaiting(mid) or {0})))
        out.append((UP.view(_play(UP, {"variant": variant}, seats, 32, None), None), 0))
    basic_mid, basic_seat = out[0]

    def last_round(v: dict[str, Any]) -> None:
        v.update(current=basic_seat, over=False, points=1, architect_owed=True, last_turn=True, first_finisher=1)
        v["main_board"]["slots"][0] = None
        v["players"][basic_seat]["finisher"] = True
        v["players"][basic_seat]["reachable"] = v["players"][basic_seat]["tiles"] - 1

    out.append((_with(basic_mid, last_round), basic_seat))
    party_mid, party_seat = out[4]

    def party_table(v: dict[str, Any]) -> None:
        v["party"].update(open_table=[], timer_running=True)
        v["players"][party_seat]["hand"] = "hidden"

    out.append((_with(party_mid, party_table), party_seat))
    advanced_end = out[3][0]

    def goals_and_tie(v: dict[str, Any]) -> None:
        v["result"]["decided_by"] = "shared"
        for s in v["result"]["seats"]:
            s.setdefault("details", {})["goals_won"] = ["G01", "G02"]

    out.append((_with(advanced_end, goals_and_tie), 0))
    out.append((_result(advanced_end, decided_by="urbanpanic.tiebreak.empty_plots"), 0))
    return out


def _images(module: Any, view: dict[str, Any], seat: int, **kwargs: Any) -> list[Image.Image]:
    images = [
        module.turn_image(view, seat, NAMES, **kwargs),
        module.board_image(view, NAMES, **kwargs),
        module.end_image(view, NAMES, **kwargs),
    ]
    if hasattr(module, "city_image"):
        images.append(module.city_image(view, seat, NAMES, **kwargs))
    return images


# ---------------------------------------------------------------------------------------------
# The checker itself
# ---------------------------------------------------------------------------------------------


def test_checker_flags_literals_and_passes_markers_and_data() -> None:
    """Markers, data words, numbers and one-letter codes pass; any other word is flagged."""
    words = vocabulary(NAMES, {"label": "a harbour (+2 energy)", "kind": "SHOP", "open": ["B3"]})
    assert "harbour" in words and "SHOP" not in words  # only the drawn fields count
    drawn = ["§3", "§12«Bob|7»", "Ödön", "B3 ↑2", "T", "d", "×4", "−1", "§5«a harbour (+2 energy)»", "Жан…"]
    assert offending(drawn, words) == []
    literals = ["Total", "§4 turn 3", "Round 1 of 4", "§2«Bob» to play", "{name}", "SHOP", "§1«{name}»"]
    assert offending(literals, words) == literals


def test_a_forgotten_literal_is_caught(marked: list[str], qp_views: list[Any], monkeypatch: Any) -> None:
    """Putting back one English literal of the old code (the round line) makes the check fail."""
    view, seat = qp_views[0]
    monkeypatch.setattr(  # where the pictures call it (render/quadropolis/images.py)
        q.images, "_round_text", lambda v, locale: f"Round {v.get('round', 1)} of {v.get('rounds', 4)}"
    )
    q.turn_image(view, seat, NAMES, locale=TEST_LOCALE)
    bad = offending(marked, vocabulary(NAMES, view))
    assert bad and all("Round" in text for text in bad), bad


# ---------------------------------------------------------------------------------------------
# No English literal in any picture
# ---------------------------------------------------------------------------------------------


def _check(module: Any, views: list[tuple[dict[str, Any], int]], drawn: list[str]) -> None:
    for k, (view, seat) in enumerate(views):
        drawn.clear()
        _images(module, view, seat, locale=TEST_LOCALE)
        assert len(drawn) > 20, k
        assert any("§" in text for text in drawn), k
        bad = offending(drawn, vocabulary(NAMES, view))
        assert not bad, f"view {k}: {bad}"
    drawn.clear()  # without names: "Player n" comes from the catalogue too
    view, seat = views[0]
    module.turn_image(view, seat, locale=TEST_LOCALE)
    module.board_image(view, locale=TEST_LOCALE)
    assert not offending(drawn, vocabulary(view))


def test_quadropolis_draws_only_catalogue_and_data_words(marked: list[str], qp_views: list[Any]) -> None:
    """Quadropolis turn, city, board and end pictures: every word is a catalogue marker or data."""
    _check(q, qp_views, marked)


def test_btc_draws_only_catalogue_and_data_words(marked: list[str], btc_views: list[Any]) -> None:
    """Between Two Cities turn, board and end pictures: every word is a catalogue marker or data."""
    _check(b, btc_views, marked)


def test_urbanpanic_draws_only_catalogue_and_data_words(marked: list[str], up_views: list[Any]) -> None:
    """Urban Panic turn, board and end pictures: every word is a catalogue marker or data."""
    _check(u, up_views, marked)


def test_shared_helpers_draw_only_catalogue_words(marked: list[str]) -> None:
    """The score table's own words (rank, total, winner, seat n) and the banner's label are markers."""
    img = scores.score_table("§0", ["Ann", "Bob"], ["§1"], [[1], [1]], locale=TEST_LOCALE)
    assert img.width >= 1000
    result = {"seats": [{"seat": 3, "total": 2, "rank": 1, "breakdown": {"a": 2}}], "decided_by": "score"}
    scores.score_table_from_result("§0", [], result, [("a", "§1", None)], locale=TEST_LOCALE)
    canvas, _ = c.canvas(1000, 100)
    c.player_banner(canvas, (0, 0, 1000, 60), 0, "Ann", "§2", True, locale=TEST_LOCALE)
    assert not offending(marked, {"Ann", "Bob"}), marked
    assert sum("«" in text for text in marked) >= 2  # "Winner: Ann" and "Seat 4" went through the catalogue


def test_a_tie_break_without_a_sentence_is_named_in_the_catalogue_sentence(marked: list[str]) -> None:
    """A tie-break id the catalogue has no sentence for is named inside the catalogue's own sentence."""
    note = scores.decided_note("tiebreak.most_parks", TEST_LOCALE)
    assert note.startswith("§") and note.endswith("«most parks»")
    assert scores.decided_note("tiebreak.most_parks") == "Tie on points, decided by most parks."
    assert scores.decided_note("score", TEST_LOCALE) == ""
    assert scores.decided_note("urbanpanic.tiebreak.score", score_ids=("urbanpanic.tiebreak.score",)) == ""


def test_public_functions_take_a_locale() -> None:
    """Every public render function takes the keyword ``locale``, defaulting to English."""
    import inspect

    functions = [
        getattr(module, name)
        for module, names in (
            (q, ("turn_image", "city_image", "board_image", "end_image")),
            (b, ("turn_image", "board_image", "end_image")),
            (u, ("turn_image", "board_image", "end_image")),
            *(
                (pictures.get(kind), ("render_turn", "render_board", "render_end", "render_tiles"))
                for kind in ("quadropolis", "btc", "urbanpanic")
            ),
            (pictures.get("quadropolis"), ("render_city",)),
            (scores, ("score_table",)),
        )
        for name in names
    ]
    for fn in functions:
        param = inspect.signature(fn).parameters["locale"]
        assert param.default == "en" and param.kind is inspect.Parameter.KEYWORD_ONLY, fn.__qualname__


def test_a_locale_without_a_catalogue_draws_english(qp_views: list[Any]) -> None:
    """A locale with no catalogue folder falls back to English: the same pixels."""
    view, seat = qp_views[0]
    english = q.turn_image(view, seat, NAMES)
    german = q.turn_image(view, seat, NAMES, locale="de")
    assert ImageChops.difference(english, german).getbbox() is None


def test_the_locale_changes_the_picture(marked: list[str], up_views: list[Any]) -> None:
    """The same view in the marker locale is a different picture from the English one."""
    view, seat = up_views[0]
    assert ImageChops.difference(
        u.turn_image(view, seat, NAMES), u.turn_image(view, seat, NAMES, locale=TEST_LOCALE)
    ).getbbox()


def test_a_wordier_language_still_fits(
    monkeypatch: pytest.MonkeyPatch, qp_views: list[Any], btc_views: list[Any], up_views: list[Any]
) -> None:
    """With every picture word twice as long, nothing is cut off the bottom (the last row is background)."""
    english = i18n.catalogue("en")

    def longer(v: str) -> str:
        return f"{v} {v.split()[0]}ingszövegész" if len(v) > 2 else v

    wordy: dict[str, Any] = {
        k: (longer(v) if isinstance(v, str) else {c: longer(x) if c != "plural" else x for c, x in v.items()})
        if re.fullmatch(RENDER_ID, k)
        else v
        for k, v in english.items()
    }
    real_catalogue = i18n.catalogue
    monkeypatch.setattr(i18n, "catalogue", lambda loc: wordy if loc == "hu" else real_catalogue(loc))
    for module, (view, seat) in ((q, qp_views[1]), (q, qp_views[4]), (b, btc_views[0]), (u, up_views[0])):
        for img in _images(module, view, seat, locale="hu"):
            bottom = {img.getpixel((x, img.height - 1)) for x in range(0, img.width, 7)}
            assert bottom == {c.BACKGROUND}, (module.__name__, img.size)


# ---------------------------------------------------------------------------------------------
# The catalogue file
# ---------------------------------------------------------------------------------------------


def _render_ids_in_source() -> tuple[set[str], set[str]]:
    """(message ids written whole in render/, prefixes of ids built in f-strings) — via the AST."""
    whole: set[str] = set()
    prefixes: set[str] = set()
    for path in sorted(RENDER.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Constant) and isinstance(node.value, str):
                if re.fullmatch(RENDER_ID, node.value):
                    whole.add(node.value)
            elif isinstance(node, ast.JoinedStr) and node.values:
                first = node.values[0]
                if isinstance(first, ast.Constant) and re.match(r"(?:render|[a-z]+\.render)\.", str(first.value)):
                    prefixes.add(str(first.value))
    return whole, prefixes


FAMILIES: dict[str, tuple[str, ...]] = {
    "render.score.": ("total", "winner", "rank", "shared"),
    "btc.render.mode.": b.MODES,
    "btc.render.phase.": b.PHASES,
    "urbanpanic.render.variant.": u.VARIANTS,
    "urbanpanic.render.track.": u.TRACKS,
    "urbanpanic.render.letter.": u.TRACKS,
    "urbanpanic.render.legend.track.": u.TRACKS,
}
"""Message ids the code builds at run time, by prefix."""


def test_every_id_the_renderers_use_is_in_the_catalogue_and_every_entry_is_used() -> None:
    """Ids in render/ (whole or built from a known family) exist in English; render.json has no dead entry."""
    english = _english_render_catalogue()
    whole, prefixes = _render_ids_in_source()
    assert prefixes == set(FAMILIES), prefixes
    used = whole | {prefix + name for prefix, names in FAMILIES.items() for name in names}
    assert not used - set(english), sorted(used - set(english))
    glyph_ids = {g.name_id for g in c.GLYPHS.values()}
    badge_ids = {i.replace(".kind.", ".badge.", 1) for i in glyph_ids}  # Glyph.badge, where a game writes them
    assert not set(english) - used - badge_ids, sorted(set(english) - used - badge_ids)
    assert glyph_ids <= set(english)


def test_catalogue_entries_are_render_ids_with_text() -> None:
    """The picture catalogues hold only picture ids (render.*, <game>.render.*), each non-empty."""
    english = _english_render_catalogue()
    assert len(english) > 150
    for key, message in english.items():
        assert re.fullmatch(r"(?:render|[a-z]+\.render)\.[a-z_]+(\.[a-z_]+)*", key), key
        for text in [message] if isinstance(message, str) else [v for k, v in message.items() if k != "plural"]:
            assert text.strip(), key
            list(string.Formatter().parse(text))  # well-formed placeholders


def test_english_words_are_the_pictures_words() -> None:
    """A few English sentences, as the pictures have always said them."""
    assert i18n.t("quadropolis.render.round", "en", round=2, rounds=4) == "Round 2 of 4"
    assert i18n.t("quadropolis.render.site") == "Construction site"
    assert i18n.t("urbanpanic.render.legend.cut_off") == "cut off from the centre"
    assert i18n.t("render.score.winner_line", label="Winner", name="Ann") == "Winner: Ann"
    assert c.GLYPHS["quadropolis.tower"].name == "Tower block"
    assert c.glyph_name("urbanpanic.pow") == "Power plant"


# ---------------------------------------------------------------------------------------------
# English pictures as before the move
# ---------------------------------------------------------------------------------------------

GOLDEN_NAMES = ["Ödön Łukasz Жанна", "Bob", "Cyd the Great Builder of Cities", "Dee", "Eve", "Fay", "Gus"]
SCALE = 3
"""Reference thumbnails are the greyscale picture shrunk 3 times (box filter)."""
BIG_DIFFERENCE = 16
"""A thumbnail pixel differing by more than this (of 255) counts as changed."""
MAX_CHANGED = 8
"""Changed thumbnail pixels tolerated (font rasteriser drift); one changed letter changes more than a dozen."""


def _golden_cases() -> dict[str, dict[str, Any]]:
    data: dict[str, dict[str, Any]] = json.loads((GOLDEN / "views.json").read_text(encoding="utf-8"))
    return data


def _draw_case(case: dict[str, Any]) -> Image.Image:
    module = {"qp": q, "btc": b, "up": u}[case["game"]]
    if case["image"] == "turn":
        img: Image.Image = module.turn_image(case["view"], case["seat"], GOLDEN_NAMES)
    else:
        img = module.end_image(case["view"], GOLDEN_NAMES)
    return img


def _thumbnail(img: Image.Image) -> Image.Image:
    grey = img.convert("L")
    return grey.resize((grey.width // SCALE, grey.height // SCALE), Image.Resampling.BOX)


@pytest.mark.parametrize("name", sorted(_golden_cases()))
def test_english_pictures_look_as_before(name: str) -> None:
    """Drawn in English from a stored view, the picture has the reference's size and pixels."""
    case = _golden_cases()[name]
    img = _draw_case(case)
    assert list(img.size) == case["size"]
    reference = Image.open(GOLDEN / f"{name}.png").convert("L")
    diff = ImageChops.difference(_thumbnail(img), reference)
    changed = sum(diff.histogram()[BIG_DIFFERENCE + 1 :])
    assert changed <= MAX_CHANGED, f"{changed} thumbnail pixels changed"


def _rewrite_references() -> None:
    """After a deliberate change of the look: ``python -m tests.render.test_i18n`` redraws the references."""
    cases = _golden_cases()
    for name, case in cases.items():
        img = _draw_case(case)
        _thumbnail(img).save(GOLDEN / f"{name}.png", optimize=True)
        case["size"] = list(img.size)
    text = json.dumps(cases, ensure_ascii=False, separators=(",", ":"), sort_keys=True)
    (GOLDEN / "views.json").write_text(text, encoding="utf-8")


if __name__ == "__main__":
    _rewrite_references()
