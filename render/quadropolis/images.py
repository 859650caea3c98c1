"""Quadropolis' pictures: the turn, a player's city, the board (every city) and the end (every city with
its optimal activation, then the score table)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, cast

from PIL import Image, ImageDraw

from bot.i18n import t
from bot.rules.quadropolis.viewtypes import QuadCity, QuadPending, QuadScore
from render import common as c
from render.quadropolis.base import (
    BOARD_CELL,
    CATEGORIES,
    EXPERT_SITE_CELL,
    GAP,
    LABEL_SPACE,
    LEGEND_ROOM,
    MARGIN,
    NOTE_SIZE,
    SCORE_SIZE,
    SITE_CELL,
    WIDTH,
    View,
    _city_of,
    _gives_chips,
    _heading,
    _names,
    _round_text,
    _subtitle,
    _tile_key,
    turn_in_round,
)
from render.quadropolis.city import _cell_for, city_block_size, draw_city, draw_site, site_size
from render.quadropolis.strips import _legend, _player_strip, _strips
from render.scores import SOFT_HYPHEN, decided_note, score_table_from_result

# ---------------------------------------------------------------------------------------------
# Images
# ---------------------------------------------------------------------------------------------


def _turn_title(view: View, locale: str) -> str:
    turn = view.get("turn") or {}
    if view.get("over"):
        return t("quadropolis.render.title.over", locale)
    if turn.get("number"):
        number, of = turn_in_round(view)
        return t("quadropolis.render.title.round_turn", locale, round=_round_text(view, locale), number=number, of=of)
    return t("quadropolis.render.title.round", locale, round=_round_text(view, locale))


turn_title = _turn_title
"""The turn counter this module draws in a turn picture's title (the web page's slider shows the same)."""


def _pending_block(img: Image.Image, xy: tuple[int, int], pending: QuadPending, locale: str) -> int:
    """The tile just taken, large, with what it gives, after the architect that took it (its owner's
    marker); the squares it may go to are outlined on the city. Returns the bottom y."""
    x, y = xy
    tsz, msz = 128, 64
    style = c.player_style(int(pending.get("seat", 0)))
    c.draw_marker(
        img,
        style.shape,
        (x, y + (tsz - msz) // 2, x + msz, y + (tsz + msz) // 2),
        style.colour,
        str(pending.get("architect", "?")),
    )
    asz = 40
    c.draw_icon(img, "here", (x + msz + 10, y + (tsz - asz) // 2, x + msz + 10 + asz, y + (tsz + asz) // 2))
    tx = x + msz + 20 + asz + 10
    box = (tx, y, tx + tsz, y + tsz)
    c.draw_glyph(img, _tile_key(pending["tile"]), box, locale=locale)
    _gives_chips(img, box, pending["tile"], 28)
    return y + tsz


def _pool_block(img: Image.Image, xy: tuple[int, int], width: int, pool: Mapping[str, int], locale: str) -> int:
    """Expert's shared pool of architects: each value with how many are left. Returns the bottom y."""
    draw = ImageDraw.Draw(img)
    x, y = xy
    label = t("quadropolis.render.pool", locale)
    lfont = c.font(NOTE_SIZE + 2, True)
    msz = 46
    c.draw_text(draw, (x, y + msz / 2), label, lfont, c.INK, "lm", key=False)
    px = x + c.text_width(label, lfont) + 14
    vfont = c.font(NOTE_SIZE + 2, True)
    for value, count in sorted(pool.items(), key=lambda kv: int(kv[0])):
        step = msz + 6 + c.text_width(f"×{count}", vfont) + 16
        if px + step > x + width:
            px, y = x, y + msz + 8
        c.draw_marker(img, "circle", (px, y, px + msz, y + msz), (215, 215, 215) if count else c.EMPTY_CELL, str(value))
        c.draw_text(draw, (px + msz + 6, y + msz / 2), f"×{count}", vfont, c.INK if count else c.MUTED, "lm", key=False)
        px += step
    return y + msz


def turn_image(view: View, acting_seat: int, names: Sequence[str] | None = None, *, locale: str = "en") -> Image.Image:
    """Every player's strip (whose turn it is, names, scores), then the construction site beside the
    acting player's city, then the legend (see module docstring)."""
    who = _names(view, names, locale)
    cities = view.get("cities") or []
    city = cities[acting_seat] if 0 <= acting_seat < len(cities) else (cities[0] if cities else cast(QuadCity, {}))
    cols = int(city.get("columns", 4))
    expert = view.get("mode") == "expert" or cols > 4
    site_cell = EXPERT_SITE_CELL if expert else SITE_CELL
    site_w = site_size(site_cell)
    city_w = WIDTH - 2 * MARGIN - site_w - 2 * GAP
    cell = _cell_for(city, city_w, 150)
    _, city_h = city_block_size(city, cell)
    pending = view.get("pending")
    mine = pending if pending and pending.get("seat") == acting_seat else None
    turn = view.get("turn") or {}
    pool = (view.get("architects") or {}).get("pool")
    scratch = ImageDraw.Draw(Image.new("RGB", (1, 1)))
    cx = MARGIN + site_w + 2 * GAP
    head_h = (
        max(
            _heading(scratch, (0, 0), t("quadropolis.render.site", locale), site_w, key=False, dry=True),
            _heading(scratch, (0, 0), _city_of(who, acting_seat, locale), city_w, key=True, dry=True),
        )
        + 4
    )
    strips_h = _strips(Image.new("RGB", (1, 1)), 0, view, who, turn.get("seat"), locale, dry=True)
    info_h = (128 + 2 * GAP) if mine else (3 * 54 + 2 * GAP if pool else 0)
    main_h = head_h + max(site_w, city_h + info_h)
    height = c.TITLE_HEIGHT + GAP + strips_h + GAP + main_h + GAP + LEGEND_ROOM
    img, draw = c.canvas(WIDTH, height)
    c.title_bar(draw, WIDTH, _turn_title(view, locale))
    y = _strips(img, c.TITLE_HEIGHT + GAP, view, who, turn.get("seat"), locale) + GAP
    site_head = t("quadropolis.render.site", locale)
    _heading(
        draw,
        (MARGIN, y + head_h - 4 - _heading(draw, (0, 0), site_head, site_w, key=False, dry=True)),
        site_head,
        site_w,
        key=False,
    )
    _heading(draw, (cx, y), _city_of(who, acting_seat, locale), city_w, key=True)
    draw_site(img, (MARGIN, y + head_h), view, site_cell, locale=locale)
    geo = draw_city(img, (cx, y + head_h), city, cell, show_allocation=False, pending=mine, locale=locale)
    iy = geo.box[3] + 2 * GAP
    if mine:
        _pending_block(img, (cx + LABEL_SPACE, iy), mine, locale)
    elif pool:
        _pool_block(img, (cx, iy), city_w, pool, locale)
    end = _legend(img, y + main_h + GAP, view, site=True, locale=locale)
    return img.crop((0, 0, WIDTH, end))


def city_image(view: View, seat: int, names: Sequence[str] | None = None, *, locale: str = "en") -> Image.Image:
    """One city, large, with its best allocation now and its score by category."""
    who = _names(view, names, locale)
    cities = view.get("cities") or []
    city = cities[seat] if 0 <= seat < len(cities) else cast(QuadCity, {})
    side_w = 420
    grid_w = WIDTH - 2 * MARGIN - side_w - 2 * GAP
    cell = _cell_for(city, grid_w, 170)
    _, city_h = city_block_size(city, cell)
    name = who[seat] if seat < len(who) else "?"
    active = (view.get("turn") or {}).get("seat") == seat and not view.get("over")
    strip_h = _player_strip(
        Image.new("RGB", (1, 1)), (0, 0), WIDTH - 2 * MARGIN, view, seat, name, active, locale, dry=True
    )
    height = c.TITLE_HEIGHT + GAP + strip_h + GAP + max(city_h, 720) + 2 * GAP + LEGEND_ROOM
    img, draw = c.canvas(WIDTH, height)
    c.title_bar(
        draw,
        WIDTH,
        _city_of(who, seat, locale),
        t("quadropolis.render.city_subtitle", locale, round=_round_text(view, locale)),
    )
    y = c.TITLE_HEIGHT + GAP
    y += _player_strip(img, (MARGIN, y), WIDTH - 2 * MARGIN, view, seat, name, active, locale) + GAP
    geo = draw_city(img, (MARGIN, y), city, cell, show_allocation=True, locale=locale)
    sx = geo.box[2] + 2 * GAP
    bottom = _score_column(
        img,
        (sx, y + LABEL_SPACE),
        WIDTH - MARGIN - sx,
        city.get("score") or {},
        bool(view.get("over")),
        view.get("mode") == "expert",
        locale,
    )
    end = _legend(img, max(geo.box[3], bottom) + GAP, view, inactive=True, locale=locale)
    return img.crop((0, 0, WIDTH, end))


def _score_column(
    img: Image.Image, xy: tuple[int, int], width: int, score: QuadScore, over: bool, expert: bool, locale: str = "en"
) -> int:
    """Category scores as a list: glyph, label, points; then the total (a key fact); returns the bottom."""
    draw = ImageDraw.Draw(img)
    x, y = xy
    cats = score.get("categories") or {}
    vf = c.font(26, True)
    heading = t("quadropolis.render.final_score" if over else "quadropolis.render.score_if_now", locale)
    hl, hf = c.fit_lines(heading, width - 6, NOTE_SIZE, True, c.MIN_TEXT + 1)
    for k, line in enumerate(hl):
        c.draw_text(draw, (x, y + k * (int(hf.size) + 6)), line, hf, c.MUTED, "la", key=False)
    y += len(hl) * (int(hf.size) + 6) + 8
    row = 46
    for cid, label_id, key in CATEGORIES:
        if cid not in cats:
            continue
        value = int(cats[cid])
        if not expert and cid in ("offices", "monuments"):
            continue
        box = (x, y + 4, x + 38, y + 42)
        if key in c.ICONS:
            c.draw_icon(img, key, box)
        elif key:
            c.draw_glyph(img, key, box, locale=locale)
        label = t("quadropolis.render.cat.penalty_long" if cid == "penalty" else label_id, locale).replace(
            SOFT_HYPHEN, ""
        )
        lines, lf = c.fit_lines(label, width - 48 - 60, NOTE_SIZE, False, c.MIN_TEXT + 1)
        for k, line in enumerate(lines):
            c.draw_text(
                draw,
                (x + 48, y + row / 2 + (k - (len(lines) - 1) / 2) * (int(lf.size) + 3)),
                line,
                lf,
                c.INK,
                "lm",
                key=False,
            )
        colour = c.shade(c.VERMILLION, 0.2) if value < 0 else (c.MUTED if value == 0 else c.INK)
        c.draw_text(draw, (x + width - 6, y + row / 2), str(value), vf, colour, "rm", key=False)
        y += max(row, len(lines) * (int(lf.size) + 3) + 8)
    draw.line((x, y + 2, x + width - 6, y + 2), fill=c.INK, width=2)
    c.draw_icon(img, "points", (x, y + 10, x + 40, y + 50))
    tf = c.font(SCORE_SIZE, True)
    total = str(score.get("total", 0))
    c.draw_fitted(
        draw,
        (x + 48, y + 30),
        t("render.score.total", locale),
        width - 48 - c.text_width(total, tf) - 20,
        NOTE_SIZE + 4,
        True,
        c.INK,
        "lm",
        c.MIN_TEXT,
        key=False,
    )
    c.draw_text(draw, (x + width - 6, y + 30), total, tf, c.INK, "rm", key=True)
    y += 64
    alloc_note = []
    if score.get("unused_inhabitants"):
        alloc_note.append(t("quadropolis.render.unused_inhabitants", locale, count=score["unused_inhabitants"]))
    if score.get("unused_energy"):
        alloc_note.append(t("quadropolis.render.unused_energy", locale, count=score["unused_energy"]))
    note = c.join_names(alloc_note, locale)
    nf = c.font(20)
    for line in c.wrap(note, nf, width - 6) if alloc_note else []:
        c.draw_text(draw, (x, y), line, nf, c.MUTED, "la", key=False)
        y += 26
    return y


def _city_header(
    img: Image.Image, xy: tuple[int, int], width: int, seat: int, name: str, *, height: int = 0, dry: bool = False
) -> int:
    """Whose city: the owner's marker and name (a key fact, up to two lines); returns its height."""
    x, y = xy
    mark = 44
    lines, nfont = c.fit_lines(name, width - mark - 12, c.KEY_TEXT, True, c.KEY_TEXT)
    step = int(nfont.size) + 8
    h = max(height, mark, len(lines) * step)
    if not dry:
        mid = y + h / 2
        c.seat_marker(img, seat, (x, int(mid - mark / 2), x + mark, int(mid + mark / 2)))
        draw = ImageDraw.Draw(img)
        for k, line in enumerate(lines):
            c.draw_text(
                draw, (x + mark + 12, mid + (k - (len(lines) - 1) / 2) * step), line, nfont, c.INK, "lm", key=True
            )
    return h


def _unlabelled(view: View) -> int:
    """How much of a city's label band a finished game's cities (drawn without labels) leave out."""
    return LABEL_SPACE - 8 if view.get("over") else 0


def _cities_layout(view: View, names: list[str]) -> tuple[int, int, list[tuple[int, int]]]:
    """Cities two to a row (one when alone): (card width, square size, [(header height, row height)])."""
    cities = view.get("cities") or []
    count = len(cities)
    per_row = 1 if count == 1 else 2
    w = (WIDTH - 2 * MARGIN - (per_row - 1) * 2 * GAP) // per_row
    cell = min((_cell_for(city, w, BOARD_CELL if per_row == 2 else 170) for city in cities), default=100)
    scratch = Image.new("RGB", (1, 1))
    unlabelled = _unlabelled(view)
    rows = []
    for r in range(0, count, per_row):
        seats = range(r, min(count, r + per_row))
        head_h = max(_city_header(scratch, (0, 0), w, seat, names[seat], dry=True) for seat in seats)
        city_h = max(city_block_size(cities[seat], cell)[1] for seat in seats) - unlabelled
        rows.append((head_h, head_h + 4 + city_h + 2 * GAP))
    return w, cell, rows


def _cities_grid(
    img: Image.Image, top: int, view: View, names: list[str], show_allocation: bool, locale: str = "en"
) -> int:
    """Each city under its owner's marker and name, two to a row; returns the y below them."""
    cities = view.get("cities") or []
    count = len(cities)
    per_row = 1 if count == 1 else 2
    w, cell, rows = _cities_layout(view, names)
    over = bool(view.get("over"))
    y = top
    for r, (head_h, row_h) in zip(range(0, count, per_row), rows, strict=True):
        for k in range(per_row):
            seat = r + k
            if seat >= count:
                break
            x = MARGIN + k * (w + 2 * GAP)
            _city_header(img, (x, y), w, seat, names[seat], height=head_h)
            bw, _ = city_block_size(cities[seat], cell)
            draw_city(
                img,
                (x + (w - bw) // 2, y + head_h + 4 - _unlabelled(view)),
                cities[seat],
                cell,
                show_allocation=show_allocation,
                fields=False,
                labels=not over,
                locale=locale,
            )
        y += row_h
    return y


def _cities_height(view: View, names: list[str]) -> int:
    return sum(h for _, h in _cities_layout(view, names)[2])


def board_title(view: View, locale: str = "en") -> str:
    """The board picture's title (its round while the game runs; the web page's slider shows the same)."""
    if view.get("over"):
        return t("quadropolis.render.title.board", locale)
    return t("quadropolis.render.title.board_round", locale, round=_round_text(view, locale))


def board_image(view: View, names: Sequence[str] | None = None, *, locale: str = "en") -> Image.Image:
    """Every player's strip (whose turn it is, names, scores, resources, architects left), then every city
    under its owner's name."""
    who = _names(view, names, locale)
    turn_seat = None if view.get("over") else (view.get("turn") or {}).get("seat")
    strips_h = _strips(Image.new("RGB", (1, 1)), 0, view, who, turn_seat, locale, dry=True)
    height = c.TITLE_HEIGHT + GAP + strips_h + GAP + _cities_height(view, who) + LEGEND_ROOM
    img, draw = c.canvas(WIDTH, height)
    over = bool(view.get("over"))
    c.title_bar(draw, WIDTH, board_title(view, locale))
    y = _strips(img, c.TITLE_HEIGHT + GAP, view, who, turn_seat, locale) + GAP
    y = _cities_grid(img, y, view, who, over, locale)
    end = _legend(img, y, view, inactive=over, locale=locale)
    return img.crop((0, 0, WIDTH, end))


def end_image(view: View, names: Sequence[str] | None = None, *, locale: str = "en") -> Image.Image:
    """The final scores first (ranks, names, totals, each category, the winner), then every city with its
    optimal activation."""
    who = _names(view, names, locale)
    result: Mapping[str, Any] = view.get("result") or _provisional_result(view)
    mode_cats = [
        (cid, t(label_id, locale), key)
        for cid, label_id, key in CATEGORIES
        if view.get("mode") == "expert" or cid not in ("offices", "monuments")
    ]
    table = score_table_from_result(
        t("quadropolis.render.title.final_scores", locale),
        who,
        result,
        mode_cats,
        subtitle=_subtitle(view, locale),
        note=decided_note(str(result.get("decided_by", "score")), locale),
        locale=locale,
    )
    cities_h = c.TITLE_HEIGHT + GAP + _cities_height(view, who) + LEGEND_ROOM
    img, draw = c.canvas(WIDTH, cities_h)
    c.title_bar(draw, WIDTH, t("quadropolis.render.title.final_cities", locale))
    y = _cities_grid(img, c.TITLE_HEIGHT + GAP, view, who, True, locale)
    y = _legend(img, y, view, inactive=True, strips=False, locale=locale)
    cities = img.crop((0, 0, WIDTH, y))
    return c.stack_vertical([table, cities], 0)


def _provisional_result(view: View) -> dict[str, Any]:
    """A Result-shaped dict from the cities' current scores (for a view before the end)."""
    seats = []
    totals = [int((city.get("score") or {}).get("total", 0)) for city in view.get("cities") or []]
    for i, city in enumerate(view.get("cities") or []):
        score = city.get("score") or {}
        seats.append(
            {
                "seat": i,
                "total": totals[i],
                "breakdown": dict(score.get("categories") or {}),
                "rank": 1 + sum(1 for t in totals if t > totals[i]),
            }
        )
    return {"seats": seats, "decided_by": "score"}
