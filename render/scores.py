"""The end-of-game score table, shared by every game.

Rows are players (best rank first, with rank, marker and total), columns are scoring categories
(each headed by its building glyph or icon and a label). The winner's row carries a crown and the
word "Winner" as well as the highlight colour; negative numbers carry their minus sign. Every
word comes from the message catalogue (``render.score.*``) in the ``locale`` passed.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from PIL import Image

from bot.i18n import t
from bot.results import decided_sentence
from render import common as c

TABLE_WIDTH = c.IMAGE_WIDTH
ROW_HEIGHT = 58
HEADER_HEIGHT = 96
MARGIN = 20
RANK_WIDTH = 80
TOTAL_WIDTH = 112
NAME_MIN, NAME_MAX = 270, 380
CATEGORY_MIN = 64
CATEGORY_PREFERRED = 100
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
    """An end-of-game table as an image.

    ``players[i]`` has ``rows[i][j]`` points in ``categories[j]``; ``totals`` default to the row
    sums and ``ranks`` to competition ranks of the totals (pass the rules' ranks, which apply the
    game's tie-breaks). ``seats[i]`` picks the player's marker (default ``i``). ``category_keys``
    puts a glyph (``"<game>.park"``) or icon (``"points"``) above each category. ``note`` is printed
    under the table (e.g. what decided a tie). ``labels`` overrides the words "Total", "Winner",
    "Rank" and "Shared first place" (keys ``total``, ``winner``, ``rank``, ``shared``), which
    otherwise come from the catalogue in ``locale``. A soft hyphen in a category label marks where
    the header may break the word.
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
    name_w = max(NAME_MIN, min(NAME_MAX, inner - RANK_WIDTH - TOTAL_WIDTH - n * CATEGORY_PREFERRED))
    cat_w = (inner - RANK_WIDTH - TOTAL_WIDTH - name_w) / max(1, n)
    if cat_w < CATEGORY_MIN:  # many categories: grow the image rather than squash the numbers
        cat_w = CATEGORY_MIN
        width = int(2 * MARGIN + RANK_WIDTH + TOTAL_WIDTH + name_w + n * cat_w)
    order = sorted(range(len(players)), key=lambda i: (rks[i], sts[i]))
    winners = [i for i in order if rks[i] == 1]
    note_lines = c.wrap(note, c.font(20), width - 2 * MARGIN) if note else []
    footer_h = 56 + 28 * len(note_lines)
    height = c.TITLE_HEIGHT + MARGIN + HEADER_HEIGHT + ROW_HEIGHT * len(players) + footer_h
    img, draw = c.canvas(width, height)
    c.title_bar(draw, width, title, subtitle)

    top = c.TITLE_HEIGHT + MARGIN
    table_box = (MARGIN, top, width - MARGIN, top + HEADER_HEIGHT + ROW_HEIGHT * len(players))
    c.panel(draw, table_box, radius=10)
    x_rank = MARGIN
    x_name = x_rank + RANK_WIDTH
    x_cats = x_name + name_w
    x_total = x_cats + n * cat_w

    # Header
    c.draw_text(
        draw,
        (x_rank + RANK_WIDTH / 2, top + HEADER_HEIGHT - 24),
        words["rank"],
        c.fit_font(words["rank"], RANK_WIDTH - 8, 20, True),
        c.MUTED,
        "mm",
    )
    icon = 38
    for j, label in enumerate(categories):
        cx = x_cats + j * cat_w + cat_w / 2
        _draw_header_key(img, keys[j], (int(cx - icon / 2), top + 8, int(cx + icon / 2), top + 8 + icon), locale)
        label_size = 15 if n > 5 else 19
        label = label.replace(SOFT_HYPHEN, "- ")
        longest = max(label.split(), key=lambda w: c.text_width(w, c.font(label_size, True)), default="")
        lfont = c.fit_font(longest, int(cat_w - 6), label_size, True, 11)
        lines = c.wrap(label, lfont, int(cat_w - 6))
        while len(lines) > 2 and lfont.size > 11:  # a smaller font before a cut
            lfont = c.font(lfont.size - 1, True)
            lines = c.wrap(label, lfont, int(cat_w - 6))
        if len(lines) > 2:
            lines = [lines[0], c.ellipsize(" ".join(lines[1:]), lfont, int(cat_w - 6))]
        lines = [c.ellipsize(line, lfont, int(cat_w - 6)) for line in lines]
        for k, line in enumerate(lines):
            c.draw_text(draw, (cx, top + 8 + icon + 14 + k * (lfont.size + 3)), line, lfont, c.INK, "mm")
    c.draw_icon(
        img,
        "points",
        (
            int(x_total + TOTAL_WIDTH / 2 - icon / 2),
            top + 8,
            int(x_total + TOTAL_WIDTH / 2 + icon / 2),
            top + 8 + icon,
        ),
    )
    total_font = c.fit_font(words["total"], TOTAL_WIDTH - 8, 22, True)
    c.draw_text(
        draw, (x_total + TOTAL_WIDTH / 2, top + 8 + icon + 16), words["total"], total_font, c.INK, "mm"
    )
    draw.line((MARGIN + 4, top + HEADER_HEIGHT, width - MARGIN - 4, top + HEADER_HEIGHT), fill=c.INK, width=2)

    # Rows
    nfont = c.font(24, True)
    vfont = c.font(24)
    tfont = c.font(28, True)
    for pos, i in enumerate(order):
        y0 = top + HEADER_HEIGHT + pos * ROW_HEIGHT
        y1 = y0 + ROW_HEIGHT
        cy = (y0 + y1) / 2
        if rks[i] == 1:
            draw.rectangle((MARGIN + 2, y0 + 1, width - MARGIN - 2, y1 - 1), fill=c.tint(c.HIGHLIGHT, 0.6))
        elif pos % 2:
            draw.rectangle((MARGIN + 2, y0 + 1, width - MARGIN - 2, y1 - 1), fill=(247, 245, 240))
        if rks[i] == 1:
            c.draw_icon(img, "winner", (x_rank + 6, int(cy - 16), x_rank + 38, int(cy + 16)))
            c.draw_text(draw, (x_rank + 58, cy), str(rks[i]), tfont, c.INK, "mm")
        else:
            c.draw_text(draw, (x_rank + RANK_WIDTH / 2, cy), str(rks[i]), tfont, c.INK, "mm")
        msize = ROW_HEIGHT - 16
        c.seat_marker(img, sts[i], (x_name + 4, int(cy - msize / 2), x_name + 4 + msize, int(cy + msize / 2)))
        room = name_w - msize - 16
        if c.text_width(players[i], nfont) <= room:
            c.draw_text(draw, (x_name + msize + 12, cy), players[i], nfont, c.INK, "lm")
        else:  # a long name: two lines of a smaller font, then an ellipsis
            small = c.font(19, True)
            lines = c.wrap(players[i], small, room)
            if len(lines) == 1 or any(c.text_width(line, small) > room for line in lines):
                name_text, f = c.fit_text(players[i], room, 24, True, 16)
                c.draw_text(draw, (x_name + msize + 12, cy), name_text, f, c.INK, "lm")
            else:
                lines = [lines[0], c.ellipsize(" ".join(lines[1:]), small, room)]
                for k, line in enumerate(lines):
                    c.draw_text(draw, (x_name + msize + 12, cy + (k - 0.5) * 22), line, small, c.INK, "lm")
        for j in range(n):
            value = rows[i][j] if j < len(rows[i]) else None
            text = "–" if value is None else str(value)
            colour = (
                c.shade(c.VERMILLION, 0.2)
                if isinstance(value, int) and value < 0
                else (c.MUTED if value == 0 else c.INK)
            )
            c.draw_text(draw, (x_cats + j * cat_w + cat_w / 2, cy), text, vfont, colour, "mm")
        c.draw_text(draw, (x_total + TOTAL_WIDTH / 2, cy), str(tots[i]), tfont, c.INK, "mm")
        if pos:
            draw.line((MARGIN + 6, y0, width - MARGIN - 6, y0), fill=c.PANEL_EDGE, width=1)
    # column separators: categories | total
    draw.line((x_cats, top + 6, x_cats, table_box[3] - 6), fill=c.PANEL_EDGE, width=1)
    draw.line((x_total, top + 6, x_total, table_box[3] - 6), fill=c.INK, width=2)

    # Footer: the winner in words
    fy = table_box[3] + 14
    if len(winners) == 1:
        text = t("render.score.winner_line", locale, label=words["winner"], name=players[winners[0]])
    else:
        names = c.join_names((players[i] for i in winners), locale)
        text = t("render.score.shared_line", locale, label=words["shared"], names=names)
    c.draw_icon(img, "winner", (MARGIN, fy, MARGIN + 30, fy + 30))
    line, f = c.fit_text(text, width - 2 * MARGIN - 40, 26, True, 14)
    c.draw_text(draw, (MARGIN + 40, fy + 15), line, f, c.INK, "lm")
    for k, line in enumerate(note_lines):
        c.draw_text(draw, (MARGIN, fy + 44 + k * 28), line, c.font(20), c.MUTED, "la")
    return img


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

