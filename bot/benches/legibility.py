"""Legibility on a phone: what the pen drew, read back by OCR at the sizes Discord shows a picture.

Discord shows a picture about 400 px wide on a phone (inline and full screen) and 800 px at 2x zoom.
For every picture kind (each game's turn, board, end pictures, and its city picture where it has one;
each game's story chart; a league table) in every language (``--game=<kind>``: one game's pictures
only), the picture is drawn with the pen's recorder on (:func:`render.common.record_text`), encoded as
the bot sends it, scaled to 400 px and to 800 px wide, then enlarged back to the picture's own width
(bicubic: no detail comes back, but tesseract reads small type far worse than large, and this way each
size is read at the same working size, so the figures differ only by what the scaling down lost), and
read by tesseract (``-l`` the language's model, automatic page segmentation). Figures per
``legibility.<kind>.<lang>``:

- ``key_read_400``: the share of key-fact words (whose turn, scores, names, headings) read back at 400 px;
- ``all_read_800``: the share of every drawn word read back at 800 px;
- ``key_min_px_400`` / ``all_min_px_800``: the smallest font size of a key fact at 400 px, and of any
  drawn word at 800 px (the font's pixels times the scale);
- ``render_ms``: drawing and encoding the picture, the recorder on (one run, caches warm); ``words`` /
  ``key_words``: how many words were drawn;
  ``shortened``: strings drawn shortened with "…" (``mid_word``: of them, cut inside a word).

A word is a run of letters or digits, compared case-insensitively; only words of two letters or more
count, and any number counts. Each drawn word is matched at most once against the words read.
``legibility.mean.*`` averages each share over every case. ``--quick``: English only, the turn picture
of each game, 400 px only; ``--game KIND``: only that game's pictures (no league table; the full run
measures every game); without the ``tesseract`` binary the shares are left out with a note.
"""

from __future__ import annotations

import io
import os
import re
import shutil
import statistics
import subprocess
import time
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
    from render import story as chart

    names = list(NAMES)
    out: list[tuple[str, Draw]] = []
    for s in samples():
        if game is not None and s.kind != game:
            continue
        renderer: Any = games.get(s.kind).renderer
        kinds: list[tuple[str, Callable[..., bytes], tuple[Any, ...]]] = [
            ("turn", renderer.render_turn, (s.turn, s.seat, names))]
        if not quick:
            if hasattr(renderer, "render_city"):
                kinds.append(("city", renderer.render_city, (s.board, s.seat, names)))
            kinds += [("board", renderer.render_board, (s.board, names)), ("end", renderer.render_end, (s.end, names)),
                      ("story", chart.chart_png, (s.story, names))]
        out += [(f"{s.kind}.{name}", partial(fn, *args, locale=locale)) for name, fn, args in kinds]
    if not quick and game is None:
        rows = [_Standing(name, 12 - i, 6 - i, 1.5 + i / 4, 30.0 - i * 2.5) for i, name in enumerate(NAMES)]
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


def overlaps(texts: Iterable[c.DrawnText], slack: int = 1) -> list[tuple[c.DrawnText, c.DrawnText]]:
    """Pairs of strings whose boxes overlap by more than ``slack`` pixels both ways."""
    boxes = sorted(texts, key=lambda d: d.box[0])
    found = []
    for i, a in enumerate(boxes):
        for b in boxes[i + 1:]:
            if b.box[0] >= a.box[2] - slack:
                break
            if min(a.box[2], b.box[2]) - max(a.box[0], b.box[0]) > slack and \
                    min(a.box[3], b.box[3]) - max(a.box[1], b.box[1]) > slack:
                found.append((a, b))
    return found


def tesseract() -> str | None:
    return shutil.which("tesseract")


def ocr(png: bytes, width: int, locale: str) -> Counter[str]:
    """The words tesseract reads in the picture scaled to ``width`` pixels wide (then enlarged back)."""
    picture = Image.open(io.BytesIO(png)).convert("RGB")
    scaled = picture.resize((width, max(1, round(picture.height * width / picture.width))), Image.Resampling.LANCZOS)
    scaled = scaled.resize(picture.size, Image.Resampling.BICUBIC)
    buf = io.BytesIO()
    scaled.save(buf, format="PNG")
    env = {**os.environ, "OMP_THREAD_LIMIT": "1"}
    run = subprocess.run(["tesseract", "stdin", "stdout", "-l", TESSERACT_LANGUAGES.get(locale, "eng"),
                          "--psm", "3", "--dpi", "300"],
                         input=buf.getvalue(), capture_output=True, env=env, timeout=300, check=False)
    return Counter(words(run.stdout.decode("utf-8", "replace")))


def read_share(texts: Iterable[c.DrawnText], read: Counter[str]) -> tuple[float | None, int]:
    """The share of the strings' words found among the words read (each read word matches once)."""
    left = Counter(read)
    total = found = 0
    for d in texts:
        for w in words(d.text):
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
            case.figures[name] = read_share(texts, ocr(case.png, width, case.locale))[0]

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
    columns = ("key_read_400", "all_read_800", "key_min_px_400", "all_min_px_800", "render_ms", "shortened",
               "mid_word")
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
