"""The end-of-game score table, shared by every game.

Rows are players (best rank first, with rank, marker and total, drawn large for a phone), columns are
scoring categories (each headed by its building glyph or icon, named in a key under the table). The
winner's row carries a crown and the word "Winner" as well as the highlight colour; negative numbers
carry their minus sign. Every word comes from the message catalogue (``render.score.*``) in the ``locale`` passed.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from PIL import Image

from bot.i18n import t
from bot.results import decided_sentence
from render import common as c

TABLE_WIDTH = c.IMAGE_WIDTH
ROW_HEIGHT = 64
HEADER_HEIGHT = 94
"""The header's height (the column heads and the word Total under the total's star), unless labels wrap."""
VALUE_TEXT = 24
NOTE_TEXT = 20
MARGIN = 20
RANK_WIDTH = 80
TOTAL_WIDTH = 112
NAME_MIN, NAME_MAX = 270, 440
TWO_LINE_ROW = 96
"""A row's height when a name takes two lines."""
CATEGORY_MIN = 64
SOFT_HYPHEN = "\u00ad"
"""A category label may carry soft hyphens: where the header may break a long word (shown as "-")."""

Cell = int | str | None


def _competition_ranks(totals: Sequence[int]) -> list[int]:
    order = sorted(range(len(totals)), key=lambda i: -totals[i])
    ranks = [0] * len(totals)
    for pos, i in enumerate(order):
        ranks[i] = ranks[order[pos - 1]] if pos and totals[order[pos - 1]] == totals[i] else pos + 1
    return ranks


def _numeric(value: Cell) -> int:
    return value if isinstance(value, int) else 0


def _draw_header_key(img: Image.Image, key: str | None, box: c.Box, locale: str) -> None:
    if not key:
        return
    if key in c.ICONS:
        c.draw_icon(img, key, box)
    else:
        c.draw_glyph(img, key, box, locale=locale)


def score_table(
    title: str,
    players: Sequence[str],
    categories: Sequence[str],
    rows: Sequence[Sequence[Cell]],
    *,
    totals: Sequence[int] | None = None,
    ranks: Sequence[int] | None = None,
    seats: Sequence[int] | None = None,
    category_keys: Sequence[str | None] | None = None,
    subtitle: str = "",
    note: str = "",
    width: int = TABLE_WIDTH,
    labels: Mapping[str, str] | None = None,
    locale: str = "en",
) -> Image.Image:
    """An end-of-game table as an image, designed for a phone.

    ``players[i]`` has ``rows[i][j]`` points in ``categories[j]``; ``totals`` default to the row
    sums and ``ranks`` to competition ranks of the totals (pass the rules' ranks, which apply the
    game's tie-breaks). ``seats[i]`` picks the player's marker (default ``i``). ``category_keys``
    heads each category with a glyph (``"<game>.park"``) or icon (``"points"``), named in a key under
    the table; a category without one is headed by its label. ``note`` is printed under the table
    (e.g. what decided a tie). ``labels`` overrides the words "Total", "Winner", "Rank" and "Shared
    first place" (keys ``total``, ``winner``, ``rank``, ``shared``), which otherwise come from the
    catalogue in ``locale``. A soft hyphen in a category label marks where the word may break.

    The key facts (names, ranks, totals, the winner) are drawn at :data:`render.common.KEY_TEXT` and
    every other word at least at :data:`render.common.MIN_TEXT`, so a phone reads them.
    """
    if len(rows) != len(players):
        raise ValueError("one row of scores per player")
    words = {key: t(f"render.score.{key}", locale) for key in ("total", "winner", "rank", "shared")}
    words.update(labels or {})
    n = len(categories)
    tots = list(totals) if totals is not None else [sum(_numeric(v) for v in row) for row in rows]
    rks = list(ranks) if ranks is not None else _competition_ranks(tots)
    sts = list(seats) if seats is not None else list(range(len(players)))
    keys = list(category_keys) if category_keys is not None else [None] * n

    width = max(width, c.MIN_WIDTH)
    inner = width - 2 * MARGIN
    name_w = max(NAME_MIN, min(NAME_MAX, inner - RANK_WIDTH - TOTAL_WIDTH - n * CATEGORY_MIN))
    cat_w = (inner - RANK_WIDTH - TOTAL_WIDTH - name_w) / max(1, n)
    if cat_w < CATEGORY_MIN:  # many categories: grow the image rather than squash the numbers
        cat_w = CATEGORY_MIN
        width = int(2 * MARGIN + RANK_WIDTH + TOTAL_WIDTH + name_w + n * cat_w)
    order = sorted(range(len(players)), key=lambda i: (rks[i], sts[i]))
    winners = [i for i in order if rks[i] == 1]
    label_font = c.font(c.MIN_TEXT, True)
    header_lines = [
        [] if keys[j] else c.wrap(categories[j].replace(SOFT_HYPHEN, "- "), label_font, int(cat_w - 6))
        for j in range(n)
    ]
    icon = 44
    header_h = 14 + (icon + 8 if any(keys) else 0) + max([len(x) for x in header_lines] + [0]) * (c.MIN_TEXT + 4)
    header_h = max(header_h, HEADER_HEIGHT)
    nfont = c.font(c.KEY_TEXT, True)
    msize = ROW_HEIGHT - 22
    room = name_w - msize - 16
    name_lines = [_two_lines(name, nfont, room) for name in players]
    row_h = ROW_HEIGHT if all(len(x) == 1 for x in name_lines) else TWO_LINE_ROW
    note_font = c.font(NOTE_TEXT)
    note_lines = c.wrap(note, note_font, width - 2 * MARGIN) if note else []
    key_entries = [(str(keys[j]), categories[j].replace(SOFT_HYPHEN, "")) for j in range(n) if keys[j]]
    height = c.TITLE_HEIGHT + MARGIN + header_h + row_h * len(players) + 96 + (NOTE_TEXT + 8) * len(note_lines)
    height += 60 * max(1, len(key_entries))  # the key's rows at most; cropped below
    img, draw = c.canvas(width, height)
    c.title_bar(draw, width, title, subtitle)

    top = c.TITLE_HEIGHT + MARGIN
    table_box = (MARGIN, top, width - MARGIN, top + header_h + row_h * len(players))
    c.panel(draw, table_box, radius=10)
    x_rank = MARGIN
    x_name = x_rank + RANK_WIDTH
    x_cats = x_name + name_w
    x_total = x_cats + n * cat_w

    # Header: each category's glyph or icon (named in the key under the table), or its label
    for j in range(n):
        cx = x_cats + j * cat_w + cat_w / 2
        y = top + 10
        if keys[j]:
            _draw_header_key(img, keys[j], (int(cx - icon / 2), y, int(cx + icon / 2), y + icon), locale)
        for k, line in enumerate(header_lines[j]):
            c.draw_text(
                draw,
                (cx, y + (c.MIN_TEXT + 4) * k),
                c.ellipsize(line, label_font, int(cat_w - 6)),
                label_font,
                c.INK,
                "ma",
                key=False,
            )
    c.draw_icon(
        img,
        "points",
        (
            int(x_total + TOTAL_WIDTH / 2 - icon / 2),
            top + 10,
            int(x_total + TOTAL_WIDTH / 2 + icon / 2),
            top + 10 + icon,
        ),
    )
    total_font = c.fit_font(words["total"], TOTAL_WIDTH - 8, 20, True, c.MIN_TEXT)
    c.draw_text(
        draw,
        (x_total + TOTAL_WIDTH / 2, top + 14 + icon),
        c.ellipsize(words["total"], total_font, TOTAL_WIDTH - 8),
        total_font,
        c.INK,
        "ma",
        key=False,
    )
    draw.line((MARGIN + 4, top + header_h, width - MARGIN - 4, top + header_h), fill=c.INK, width=2)

    # Rows: rank, marker and name, the categories, the total
    tfont = c.font(c.KEY_TEXT + 1, True)
    for pos, i in enumerate(order):
        y0 = top + header_h + pos * row_h
        y1 = y0 + row_h
        cy = (y0 + y1) / 2
        if rks[i] == 1:
            draw.rectangle((MARGIN + 2, y0 + 1, width - MARGIN - 2, y1 - 1), fill=c.tint(c.HIGHLIGHT, 0.6))
        elif pos % 2:
            draw.rectangle((MARGIN + 2, y0 + 1, width - MARGIN - 2, y1 - 1), fill=(247, 245, 240))
        if rks[i] == 1:
            c.draw_icon(img, "winner", (x_rank + 6, int(cy - 15), x_rank + 36, int(cy + 15)))
            c.draw_text(draw, (x_rank + 56, cy), str(rks[i]), tfont, c.INK, "mm", key=True)
        else:
            c.draw_text(draw, (x_rank + RANK_WIDTH / 2, cy), str(rks[i]), tfont, c.INK, "mm", key=True)
        c.seat_marker(img, sts[i], (x_name + 4, int(cy - msize / 2), x_name + 4 + msize, int(cy + msize / 2)))
        lines = name_lines[i]
        for k, line in enumerate(lines):
            ly = cy + (k - (len(lines) - 1) / 2) * (c.KEY_TEXT + 6)
            c.draw_text(draw, (x_name + msize + 12, ly), line, nfont, c.INK, "lm", key=True)
        for j in range(n):
            value = rows[i][j] if j < len(rows[i]) else None
            text = "–" if value is None else str(value)
            colour = (
                c.shade(c.VERMILLION, 0.2)
                if isinstance(value, int) and value < 0
                else (c.MUTED if value == 0 else c.INK)
            )
            text, f = c.fit_text(text, int(cat_w - 10), VALUE_TEXT, False, c.MIN_TEXT)
            c.draw_text(draw, (x_cats + j * cat_w + cat_w / 2, cy), text, f, colour, "mm", key=False)
        c.draw_text(draw, (x_total + TOTAL_WIDTH / 2, cy), str(tots[i]), tfont, c.INK, "mm", key=True)
        if pos:
            draw.line((MARGIN + 6, y0, width - MARGIN - 6, y0), fill=c.PANEL_EDGE, width=1)
    # column separators: categories | total
    draw.line((x_cats, top + 6, x_cats, table_box[3] - 6), fill=c.PANEL_EDGE, width=1)
    draw.line((x_total, top + 6, x_total, table_box[3] - 6), fill=c.INK, width=2)

    # Footer: the winner in words, the note, then the key of the column heads
    fy = table_box[3] + 14
    if len(winners) == 1:
        text = t("render.score.winner_line", locale, label=words["winner"], name=players[winners[0]])
    else:
        names = c.join_names((players[i] for i in winners), locale)
        text = t("render.score.shared_line", locale, label=words["shared"], names=names)
    c.draw_icon(img, "winner", (MARGIN, fy + 2, MARGIN + 36, fy + 38))
    wfont = c.font(c.KEY_TEXT, True)
    c.draw_text(
        draw, (MARGIN + 46, fy + 20), c.ellipsize(text, wfont, width - 2 * MARGIN - 46), wfont, c.INK, "lm", key=True
    )
    y = fy + 52
    for line in note_lines:
        c.draw_text(draw, (MARGIN, y), line, note_font, c.MUTED, "la", key=False)
        y += NOTE_TEXT + 8
    if key_entries:
        glyphs = [(k, text) for k, text in key_entries if k not in c.ICONS]
        icons = [(k, text) for k, text in key_entries if k in c.ICONS]
        y = c.legend(img, (MARGIN, y + 6), glyphs, width - 2 * MARGIN, 34, icons, locale)
    return img.crop((0, 0, width, y + 10))


def _two_lines(name: str, fnt: c.Font, room: int) -> list[str]:
    """A player's name on one line, or two when it is too long (then shortened at a word)."""
    if c.text_width(name, fnt) <= room:
        return [name]
    lines = c.wrap(name, fnt, room)
    if len(lines) <= 1:
        return [c.ellipsize(name, fnt, room)]
    return [c.ellipsize(lines[0], fnt, room), c.ellipsize(" ".join(lines[1:]), fnt, room)]


def score_table_from_result(
    title: str,
    players: Sequence[str],
    result: Mapping[str, Any],
    categories: Sequence[tuple[str, str, str | None]],
    **kwargs: Any,
) -> Image.Image:
    """:func:`score_table` fed from a ``Result.to_json()`` dict.

    ``categories`` lists ``(category id, label, glyph or icon key)`` in column order; ids missing
    from a seat's breakdown show as "–". Totals and ranks come from the result (so its tie-breaks
    count). ``players`` is indexed by seat. ``locale`` (in ``kwargs``) picks the catalogue.
    """
    locale = str(kwargs.get("locale", "en"))
    seats = sorted(result["seats"], key=lambda s: s["seat"])
    rows: list[list[Cell]] = [[s["breakdown"].get(cid) for cid, _, _ in categories] for s in seats]
    return score_table(
        title,
        [
            players[s["seat"]] if s["seat"] < len(players) else t("render.seat_n", locale, n=s["seat"] + 1)
            for s in seats
        ],
        [label for _, label, _ in categories],
        rows,
        totals=[s["total"] for s in seats],
        ranks=[s["rank"] for s in seats],
        seats=[s["seat"] for s in seats],
        category_keys=[key for _, _, key in categories],
        **kwargs,
    )


def decided_note(decided_by: str, locale: str = "en", score_ids: Sequence[str] = ("score",)) -> str:
    """What separated the winner from the runner-up, as a sentence ("" when the score did)."""
    return decided_sentence(decided_by, locale, score_ids)
