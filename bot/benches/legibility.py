"""Legibility on a phone: what the pen drew, read back by OCR at the sizes Discord shows a picture.

Discord shows a picture about 400 px wide on a phone (inline and full screen) and 800 px at 2x zoom.
For every picture kind (each game's turn, board, end pictures, and its city picture where it has one;
each game's story chart; a league table) in every language (``--game=<kind>``: one game's pictures
only), with the players a player of that language would have (:data:`LOCAL_NAMES`: their own script and
diacritics, one name too long for most boxes), the picture is drawn with the pen's recorder on
(:func:`render.common.record_text`), encoded as the bot sends it, and measured so:

1. **Seen at phone size.** The PNG is scaled to 400 px (and to 800 px) wide (Lanczos), then enlarged
   back to its own width (bicubic: no detail comes back, but tesseract reads small type far worse than
   large, so each size is read at the same working size and the figures differ only by what the
   scaling lost).
2. **Each string in its own box.** The pen records every string's box, so each is read on its own:
   the box (as recorded, nothing enlarged beyond what is drawn) is cut from the scaled picture and set
   on a margin of half its font size in the box's background (the commonest colour along its edge), so
   a neighbouring frame or mark outside the box is not taken for a letter (an eye separates them; the
   render tests check that no two boxes overlap), while whatever is drawn inside the box stays in it.
3. **Read by tesseract** as one line of text (``--psm 7``; a single word, ``--psm 8``, read fewer lone
   numbers back), ``--dpi 300``, every box one page of a run over a list of images. Models
   (:func:`models`): the language's own with English's beside it (``hun+eng``, ``rus+eng``...; ``eng``
   for English), because the pictures legitimately mix scripts (game titles, grid coordinates A1-D4);
   a string written only in another script than the language's is read with that script's model (a
   Latin title in a Russian picture: ``eng``).
4. **Matched word by word, within the box.** A word is a run of letters or digits (:func:`words`); only
   words of two letters or more count, and every number (a lone digit included). Both sides are
   lower-cased, ``ё`` is taken as ``е``, and the lower-case Cyrillic letters drawn exactly like Latin
   ones (а е о р с у х і ј ѕ) as the Latin (:data:`CONFUSABLE`); every other diacritic must be read
   as drawn. Punctuation is no word and does not count. Each drawn word matches at most one word read
   in its own box. Nothing drawn is left out of the count.

Figures per ``legibility.<kind>.<lang>``:

- ``key_read_400``: the share of key-fact words (whose turn, scores, names, headings) read back at 400 px;
- ``all_read_800``: the share of every drawn word read back at 800 px;
- ``key_min_px_400`` / ``all_min_px_800``: the smallest font size of a key fact at 400 px, and of any
  drawn word at 800 px (the font's pixels times the scale);
- ``render_ms``: drawing and encoding the picture, the recorder on (one run, caches warm); ``words`` /
  ``key_words``: how many words were drawn;
  ``shortened``: strings drawn shortened with "…" (``mid_word``: of them, cut inside a word).

The targets (issue 27): at least 0.90 of the key facts at 400 px and 0.80 of all words at 800 px, in
every case. ``legibility.mean.*`` averages each share over every case. ``--quick``: English only, the
turn picture of each game, 400 px only; ``--game KIND``: only that game's pictures (no league table; the
full run measures every game); without the ``tesseract`` binary the shares are left out with a note.
"""

from __future__ import annotations

import io
import os
import re
import shutil
import statistics
import subprocess
import tempfile
import time
import unicodedata
from collections import Counter
from collections.abc import Callable, Iterable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from functools import lru_cache, partial
from typing import Any

from PIL import Image

from bot import games
from bot import story as st
from bot.i18n import t
from render import common as c

LANGUAGES = ("en", "hu", "es", "ru", "pl")
TESSERACT_LANGUAGES = {"en": "eng", "hu": "hun", "es": "spa", "ru": "rus", "pl": "pol"}
NAMES = ("Ödön Łukasz Жанна", "Bob", "Cyd the Great Builder of Cities", "Dee", "Eve")
"""The render bench's sample names: every script the font carries, and one name too long for most boxes."""
LOCAL_NAMES = {
    "en": ("Ann", "Bob", "Cyd the Great Builder of Cities", "Dee", "Eve"),
    "hu": ("Ödön", "Zsófi", "Kővári Ágoston, a Nagy Városépítő", "Réka", "Éva"),
    "es": ("Íñigo", "Begoña", "Cid el Gran Constructor de Ciudades", "Lucía", "Raúl"),
    "ru": ("Жанна", "Борис", "Фёдор Великий Строитель Городов", "Дина", "Ева"),
    "pl": ("Łukasz", "Bożena", "Zdzisław Wielki Budowniczy Miast", "Ścibor", "Ewa"),
}
"""The legibility bench's players: names a player of that language would have, in its letters (its
diacritics included), and one too long for most boxes."""
CONFUSABLE = str.maketrans("аеорсухіјѕ", "aeopcyxijs")
"""Lower-case Cyrillic letters drawn exactly like Latin ones (``е`` and ``e``): which of the two the OCR returns for
the same shape says nothing about legibility, so both sides are compared with the Latin one."""
PHONE = c.PHONE_WIDTH
ZOOM = 2 * c.PHONE_WIDTH
SEATS = 5
"""Seats of each sample game at most (within the game's range)."""
MID_MOVES = 30
WORD = re.compile(r"[^\W_]+")

Draw = Callable[[], bytes]


@dataclass(frozen=True)
class Samples:
    """One game's sample states, drawn in every language."""

    kind: str
    seat: int
    turn: Any
    board: Any
    end: Any
    story: st.Story


@lru_cache(maxsize=1)
def samples() -> tuple[Samples, ...]:
    """Every game's views: mid-game (the acting seat's own view, and the whole table), finished, and the
    story of a game played to its end."""
    from bot.benches.story import play_logged

    out = []
    for kind, game in games.GAMES.items():
        rules = game.rules
        seats = min(SEATS, rules.seat_range({})[1])
        mid = games.sample_state(rules, {}, seats, 1, MID_MOVES)
        seat = min(rules.awaiting(mid) or {0})
        end = games.sample_state(rules, {}, seats, 2, None)
        _, log = play_logged(kind, {}, seats, 3)
        told = st.build(kind, {}, seats, 3, log)
        out.append(Samples(kind, seat, rules.view(mid, seat), rules.view(mid, None), rules.view(end, None), told))
    return tuple(out)


def pictures(locale: str, quick: bool = False, game: str | None = None) -> list[tuple[str, Draw]]:
    """(kind, draw) for every picture kind in ``locale``: each draw returns the PNG the bot would send;
    ``game`` keeps only that game's pictures (no league table)."""
    from render import leagues
    from render import pictures as bound
    from render import story as chart

    names = list(LOCAL_NAMES.get(locale, NAMES))
    out: list[tuple[str, Draw]] = []
    for s in samples():
        if game is not None and s.kind != game:
            continue
        renderer: Any = bound.get(s.kind)
        kinds: list[tuple[str, Callable[..., bytes], tuple[Any, ...]]] = [
            ("turn", renderer.render_turn, (s.turn, s.seat, names))
        ]
        if not quick:
            if hasattr(renderer, "render_city"):
                kinds.append(("city", renderer.render_city, (s.board, s.seat, names)))
            kinds += [
                ("board", renderer.render_board, (s.board, names)),
                ("end", renderer.render_end, (s.end, names)),
                ("story", chart.chart_png, (s.story, names)),
            ]
        out += [(f"{s.kind}.{name}", partial(fn, *args, locale=locale)) for name, fn, args in kinds]
    if not quick and game is None:
        rows = [_Standing(name, 12 - i, 6 - i, 1.5 + i / 4, 30.0 - i * 2.5) for i, name in enumerate(names)]
        title = t(games.get(next(iter(games.GAMES))).title_key, locale)
        out.append(("league.table", partial(leagues.standings_png, title, title, rows, rated=True, loc=locale)))
    return out


@dataclass(frozen=True)
class _Standing:
    name: str
    games: int
    wins: int
    average_place: float
    ordinal: float


def drawn(draw: Draw) -> tuple[bytes, list[c.DrawnText], float]:
    """The PNG, the strings drawn on it and the milliseconds it took, the recorder on."""
    with c.record_text() as recorder:
        t0 = time.perf_counter()
        png = draw()
        ms = (time.perf_counter() - t0) * 1000
    return png, recorder.picture(), ms


def words(text: str) -> list[str]:
    """The words that count: letter runs of two or more, and numbers, lower-cased."""
    return [w.lower() for w in WORD.findall(text) if len(w) >= 2 or w.isdigit()]


def same(word: str) -> str:
    """The form a word is matched in: lower-case (already), ``ё`` as ``е`` (Russian print often drops the
    diaeresis), and Cyrillic letters shaped like Latin ones as the Latin (:data:`CONFUSABLE`)."""
    return word.replace("ё", "е").translate(CONFUSABLE)


def overlaps(texts: Iterable[c.DrawnText], slack: int = 1) -> list[tuple[c.DrawnText, c.DrawnText]]:
    """Pairs of strings whose boxes overlap by more than ``slack`` pixels both ways."""
    boxes = sorted(texts, key=lambda d: d.box[0])
    found = []
    for i, a in enumerate(boxes):
        for b in boxes[i + 1 :]:
            if b.box[0] >= a.box[2] - slack:
                break
            if (
                min(a.box[2], b.box[2]) - max(a.box[0], b.box[0]) > slack
                and min(a.box[3], b.box[3]) - max(a.box[1], b.box[1]) > slack
            ):
                found.append((a, b))
    return found


def tesseract() -> str | None:
    return shutil.which("tesseract")


SCRIPT_MODELS = {"LATIN": "eng", "CYRILLIC": "rus"}
"""The model that reads a script, where a box is written in a script other than its language's own."""


def scripts(text: str) -> set[str]:
    """The scripts of the letters in ``text`` (``LATIN``, ``CYRILLIC``, ...), from their Unicode names."""
    return {unicodedata.name(ch, "?").split(" ")[0] for ch in text if ch.isalpha()}


def models(locale: str, text: str) -> str:
    """The tesseract models one drawn string of a picture in ``locale`` is read with: the language's own
    model with English's beside it (``hun+eng``; English's alone for English) for a string in the
    language's script, digits, or mixed scripts; the other script's own model for a string written only
    in it (a Latin game title or name in a Russian picture: ``eng``), as a reader knows at a glance which
    alphabet a label is in. Pictures legitimately carry Latin in every language (the game titles, grid
    coordinates A1-D4, a player's name in Latin letters)."""
    own = TESSERACT_LANGUAGES.get(locale, "eng")
    own_script = "CYRILLIC" if own == "rus" else "LATIN"
    found = scripts(text)
    if len(found) == 1 and own_script not in found and next(iter(found)) in SCRIPT_MODELS:
        return SCRIPT_MODELS[next(iter(found))]
    return own if own == "eng" else f"{own}+eng"


def psm(text: str) -> str:
    """The page segmentation a string is read with: a single line of text (``7``), a lone number or word
    included (``8``, a single word, read fewer of them back on these pictures)."""
    return "7"


def seen_at(png: bytes, width: int) -> Image.Image:
    """The picture as a phone shows it ``width`` pixels wide, enlarged back to its own size (bicubic)."""
    picture = Image.open(io.BytesIO(png)).convert("RGB")
    scaled = picture.resize((width, max(1, round(picture.height * width / picture.width))), Image.Resampling.LANCZOS)
    return scaled.resize(picture.size, Image.Resampling.BICUBIC)


def crop_of(picture: Image.Image, d: c.DrawnText) -> Image.Image:
    """The string's recorded box, set on a margin of half its font size in the box's own background (the
    commonest colour along the box's edge): OCR takes a neighbouring frame or mark for a letter where an
    eye does not, while anything drawn inside the box (a mark under the text) stays in the reading."""
    left, top, right, bottom = d.box
    box = picture.crop((max(0, left), max(0, top), min(picture.width, right), min(picture.height, bottom)))
    edge = [box.getpixel((x, y)) for x in range(box.width) for y in (0, box.height - 1)] + [
        box.getpixel((x, y)) for y in range(box.height) for x in (0, box.width - 1)
    ]
    background = Counter(edge).most_common(1)[0][0] if edge else (255, 255, 255)
    pad = max(6, d.size // 2)
    out = Image.new("RGB", (box.width + 2 * pad, box.height + 2 * pad), background)
    out.paste(box, (pad, pad))
    return out


def ocr(png: bytes, width: int, locale: str, texts: list[c.DrawnText]) -> list[Counter[str]]:
    """The words tesseract reads in each string's box of the picture scaled to ``width`` pixels wide (then
    enlarged back): one Counter per string of ``texts``. Each box is one page of a tesseract run over a
    list of images, one run per set of models and page segmentation (:func:`models`, :func:`psm`)."""
    pages: list[Counter[str]] = [Counter() for _ in texts]
    if not texts:
        return pages
    picture = seen_at(png, width)
    env = {**os.environ, "OMP_THREAD_LIMIT": "1"}
    runs: dict[tuple[str, str], list[int]] = {}
    for i, d in enumerate(texts):
        runs.setdefault((models(locale, d.text), psm(d.text)), []).append(i)
    with tempfile.TemporaryDirectory(prefix="legibility-") as folder:
        for n, ((model, mode), indices) in enumerate(runs.items()):
            paths = []
            for i in indices:
                path = os.path.join(folder, f"{i:05d}.png")
                crop_of(picture, texts[i]).save(path, format="PNG", compress_level=1)
                paths.append(path)
            listing = os.path.join(folder, f"pages{n}.txt")
            with open(listing, "w", encoding="utf-8") as f:
                f.write("\n".join(paths) + "\n")
            run = subprocess.run(
                ["tesseract", listing, "stdout", "-l", model, "--psm", mode, "--dpi", "300", "tsv"],
                capture_output=True,
                env=env,
                timeout=600,
                check=False,
            )
            for line in run.stdout.decode("utf-8", "replace").splitlines()[1:]:
                cells = line.split("\t")
                if len(cells) == 12 and cells[0] == "5" and cells[11].strip():
                    page = int(cells[1]) - 1
                    if 0 <= page < len(indices):
                        pages[indices[page]].update(same(w) for w in words(cells[11]))
    return pages


def read_share(texts: Iterable[c.DrawnText], read: list[Counter[str]]) -> tuple[float | None, int]:
    """The share of the strings' words read back, each in its own box (each read word matches once)."""
    total = found = 0
    for d, seen in zip(texts, read, strict=True):
        left = Counter(seen)
        for w in map(same, words(d.text)):
            total += 1
            if left[w] > 0:
                left[w] -= 1
                found += 1
    return (round(found / total, 3) if total else None), total


def _smallest(texts: Iterable[c.DrawnText], scale: float) -> float | None:
    sizes = [d.size for d in texts if words(d.text)]
    return round(min(sizes) * scale, 1) if sizes else None


@dataclass
class _Case:
    kind: str
    locale: str
    png: bytes
    texts: list[c.DrawnText]
    figures: dict[str, Any]


def _drawn_case(kind: str, locale: str, draw: Draw) -> _Case:
    png, texts, ms = drawn(draw)
    width = Image.open(io.BytesIO(png)).width
    key = [d for d in texts if d.key]
    figures_ = {
        "render_ms": round(ms, 1),
        "words": sum(len(words(d.text)) for d in texts),
        "key_words": sum(len(words(d.text)) for d in key),
        "key_min_px_400": _smallest(key, PHONE / width),
        "all_min_px_800": _smallest(texts, ZOOM / width),
        "shortened": sum(d.shortened for d in texts),
        "mid_word": sum(d.mid_word for d in texts),
    }
    return _Case(kind, locale, png, texts, figures_)


def figures(quick: bool = False, game: str | None = None) -> dict[str, Any]:
    """Per picture kind and language: the shares read back, the smallest sizes, the render time
    (``game``: that game's pictures only)."""
    read = tesseract() is not None
    out: dict[str, Any] = {}
    if not read:
        out["legibility.note"] = "tesseract not found: no words read back (apt-get install tesseract-ocr)"
    languages = LANGUAGES[:1] if quick else LANGUAGES
    for _, draw in pictures(languages[0], quick, game):
        drawn(draw)  # warm the caches (fonts, sprites) as a running bot has them
    cases = [_drawn_case(kind, lang, draw) for lang in languages for kind, draw in pictures(lang, quick, game)]
    if read:
        jobs = [(case, "key_read_400", PHONE, True) for case in cases]
        if not quick:
            jobs += [(case, "all_read_800", ZOOM, False) for case in cases]

        def run(job: tuple[_Case, str, int, bool]) -> None:
            case, name, width, key_only = job
            texts = [d for d in case.texts if d.key] if key_only else case.texts
            case.figures[name] = read_share(texts, ocr(case.png, width, case.locale, texts))[0]

        with ThreadPoolExecutor(max_workers=max(1, min(2, os.cpu_count() or 1))) as pool:
            list(pool.map(run, jobs))  # each OCR is a tesseract process of one thread
    for case in cases:
        for name, value in case.figures.items():
            out[f"legibility.{case.kind}.{case.locale}.{name}"] = value
    for name in ("key_read_400", "all_read_800", "key_min_px_400", "all_min_px_800", "render_ms"):
        values = [case.figures[name] for case in cases if case.figures.get(name) is not None]
        if values:
            out[f"legibility.mean.{name}"] = round(statistics.fmean(values), 3)
    out["legibility.cases"] = len(cases)
    return out


def table(figures_: dict[str, Any]) -> str:
    """The figures as a Markdown table (``python -m bot.benches.legibility``)."""
    rows: dict[tuple[str, str], dict[str, Any]] = {}
    for key, value in figures_.items():
        parts = key.split(".")
        if len(parts) == 5 and parts[0] == "legibility" and parts[3] in LANGUAGES:
            rows.setdefault((f"{parts[1]}.{parts[2]}", parts[3]), {})[parts[4]] = value
    columns = ("key_read_400", "all_read_800", "key_min_px_400", "all_min_px_800", "render_ms", "shortened", "mid_word")
    lines = ["| picture | lang | " + " | ".join(columns) + " |", "|---|---|" + "---|" * len(columns)]
    for (kind, lang), row in rows.items():
        lines.append(f"| {kind} | {lang} | " + " | ".join(str(row.get(col, "")) for col in columns) + " |")
    return "\n".join(lines)


if __name__ == "__main__":
    import json
    import sys

    argv = sys.argv[1:]
    game = next((a.split("=", 1)[1] for a in argv if a.startswith("--game=")), None)
    if "--game" in argv[:-1]:
        game = argv[argv.index("--game") + 1]
    result = figures("--quick" in argv, game)
    print(table(result) if "--table" in sys.argv else json.dumps(result, indent=2, ensure_ascii=False))
