"""Between Two Cities' pictures: the turn (the hand and the acting player's cities), the board (every
city) and the end (the ranking and every city), each drawn on an estimated canvas. The end's ranking is
:mod:`render.btc.ranking`, re-exported here."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any, cast

from PIL import Image, ImageDraw

from bot.i18n import resolve, t
from bot.rules.btc.viewtypes import BtcCity, BtcPlayer, BtcTile
from render import common as c
from render.btc.base import (
    CAPTION_LINES,
    CAPTION_TEXT,
    CARD_CELL,
    CARD_SCORE,
    CHIP,
    CITY_GAP,
    GAP,
    HEADING_TEXT,
    MARGIN,
    NAME_TEXT,
    OWN_GRID,
    PAD,
    PHASES,
    STRIP,
    WIDTH,
    View,
    _tile_image,
    player_names,
)
from render.btc.city import (
    _city_name,
    _grid_width,
    _incoming,
    _loose,
    _notes,
    _score_grid,
    _score_pill,
    _wrapped,
    city_card,
    draw_city_grid,
)
from render.btc.players import _legend, _strips, _subtitle, _title, _title_bar
from render.btc.ranking import _paint_ranking as _paint_ranking
from render.btc.ranking import _provisional as _provisional
from render.btc.ranking import _ranked as _ranked
from render.btc.ranking import _ranking_bound as _ranking_bound

# ---------------------------------------------------------------------------------------------
# Images
# ---------------------------------------------------------------------------------------------


def _hand_section(img: Image.Image, top: int, view: View, seat: int, locale: str = "en") -> int:
    """The seat's own hand, chosen tiles and tiles to place, side by side (only from that seat's view)."""
    you = view.get("you")
    if not you or you.get("seat") != seat:
        return top
    draw = ImageDraw.Draw(img)
    groups: list[tuple[str, Sequence[BtcTile]]] = [
        (t("btc.render.hand.yours", locale), you.get("hand") or []),
        (t("btc.render.hand.chosen", locale), you.get("choice") or []),
        (t("btc.render.hand.to_place", locale), you.get("to_place") or []),
    ]
    cities = {cty.get("city"): _city_name(cty, locale) for cty in view.get("cities") or []}
    size = 104
    x, y = MARGIN, top
    line_h = 0
    for label, tiles in groups:
        if not tiles:
            continue
        images = [_tile_image(tile, size, locale) for tile in tiles]
        widths = [max(timg.width, 150) for timg in images]
        tiles_w = sum(widths) + 16 * (len(widths) - 1)
        label_w = max(tiles_w, min(c.text_width(label, c.font(HEADING_TEXT, True)), 480))
        group_w = min(max(tiles_w, label_w), WIDTH - 2 * MARGIN)
        if x > MARGIN and x + group_w > WIDTH - MARGIN:
            x, y = MARGIN, y + line_h + 10
            line_h = 0
        ty = _wrapped(draw, (x, y), label, group_w, HEADING_TEXT, True, c.INK, key=False, max_lines=3) + 4
        tx, row_top, row_h = x, ty, 0
        for tile, timg, cw in zip(tiles, images, widths, strict=True):
            if tx > x and tx + cw > WIDTH - MARGIN:
                tx, row_top, row_h = x, row_top + row_h + 10, 0
            c.paste(img, timg, (int(tx + (cw - timg.width) / 2), row_top))
            below = _wrapped(
                draw,
                (tx, row_top + timg.height + 6),
                str(resolve(tile.get("name", ""), locale)),
                cw,
                CAPTION_TEXT,
                True,
                c.INK,
                key=False,
                max_lines=CAPTION_LINES,
                centred=True,
            )
            target = tile.get("city")
            if isinstance(target, int):
                below = _wrapped(
                    draw,
                    (tx, below),
                    f"→ {cities.get(target, '?')}",
                    cw,
                    CAPTION_TEXT,
                    False,
                    c.MUTED,
                    key=False,
                    max_lines=CAPTION_LINES,
                    centred=True,
                )
            row_h = max(row_h, below - row_top)
            c.mark_region(img, f"tile:{tile.get('id')}", (int(tx), row_top, int(tx + cw), below))
            tx += cw + 16
        line_h = max(line_h, row_top + row_h - y)
        x = x + group_w + 44
    if line_h:
        draw.line((MARGIN, y + line_h + 8, WIDTH - MARGIN, y + line_h + 8), fill=c.PANEL_EDGE, width=2)
    return y + line_h + 18


def _own_city(img: Image.Image, top: int, city: BtcCity, heading: str, *, placing: bool, locale: str = "en") -> int:
    """One of the seat's cities across the picture: the heading (which city, built with whom), then the
    grid on the left and, on the right, the city's score, the category scores and the tiles coming to it."""
    draw = ImageDraw.Draw(img)
    y = (
        _wrapped(
            draw,
            (MARGIN + 4, top),
            heading,
            WIDTH - 2 * MARGIN - 8,
            NAME_TEXT - 2,
            True,
            c.INK,
            key=True,
            min_size=c.KEY_TEXT,
        )
        + 4
    )
    card_top = y
    x = MARGIN + PAD
    max_side = OWN_GRID
    if city.get("grid", True):
        gw, _ = _grid_width(city, max_side, placing)
        geo = draw_city_grid(img, (x, y + PAD), city, max_side, placing=placing, locale=locale)
        left_bottom = geo.box[3] + PAD
        info_x = x + gw + 28
    else:
        left_bottom = _loose(img, (x, y + PAD), max_side, city, locale) + PAD
        info_x = x + max_side + 28
    info_w = WIDTH - MARGIN - PAD - info_x
    iy = y + PAD
    chip = _score_pill(img, (info_x, iy), int(city.get("total", 0)), CHIP + 4, "lt")
    iy = chip[3] + 10
    iy = _wrapped(draw, (info_x, iy), _city_name(city, locale), info_w, 30, True, c.INK, key=False, max_lines=2)
    iy = _score_grid(img, (info_x, iy + 8), info_w, city, 44, locale)
    iy = _notes(draw, (info_x, iy + 2), info_w, city, locale)
    iy = _incoming(img, (info_x, iy + 8), info_w, city, 52, locale)
    bottom = max(left_bottom, iy + PAD)
    draw.rounded_rectangle((MARGIN, card_top, WIDTH - MARGIN, bottom), radius=14, outline=c.PANEL_EDGE, width=2)
    return bottom


def turn_image(view: View, acting_seat: int, names: Sequence[str] | None = None, *, locale: str = "en") -> Image.Image:
    """One seat's turn: the phase, every player's strip (who is awaited, scores), their hand (own view only),
    their two cities (see module docstring)."""
    who = player_names(view, names, locale)
    players = view.get("players") or []
    me = players[acting_seat] if 0 <= acting_seat < len(players) else cast(BtcPlayer, {})
    city_ids = [i for i in (me.get("left_city"), me.get("right_city")) if isinstance(i, int)]
    cities = {cty.get("city"): cty for cty in view.get("cities") or []}
    estimate = (
        c.TITLE_HEIGHT
        + 200
        + len(players) * (STRIP + 8)
        + (800 if view.get("you") else 0)
        + sum(_own_bound(cities[i]) for i in city_ids if i in cities)
        + LEGEND_BOUND
    )
    return _sized(lambda img, draw: _paint_turn(img, draw, view, acting_seat, who, locale), estimate)


def _paint_turn(
    img: Image.Image, draw: ImageDraw.ImageDraw, view: View, acting_seat: int, who: list[str], locale: str
) -> int:
    players = view.get("players") or []
    me = players[acting_seat] if 0 <= acting_seat < len(players) else cast(BtcPlayer, {})
    city_ids = [i for i in (me.get("left_city"), me.get("right_city")) if isinstance(i, int)]
    cities = {cty.get("city"): cty for cty in view.get("cities") or []}
    placing = view.get("phase") in ("play", "place", "assign")
    rest = _title_bar(draw, _title(view, locale), _subtitle(view, locale))
    y = c.TITLE_HEIGHT + GAP
    phase_id = str(view.get("phase", ""))
    phase = t(f"btc.render.phase.{phase_id}", locale) if phase_id in PHASES else phase_id
    for line in (rest, t("btc.render.now", locale, phase=phase)):
        if line:
            y = (
                _wrapped(
                    draw, (MARGIN, y), line, WIDTH - 2 * MARGIN, HEADING_TEXT, False, c.INK, key=False, max_lines=2
                )
                + 2
            )
    y = _strips(img, y + 6, view, who, locale) + 6
    y = _hand_section(img, y, view, acting_seat, locale)
    labels = {
        me.get("left_city"): t("btc.render.left_city", locale),
        me.get("right_city"): t("btc.render.right_city", locale),
    }
    for cid in city_ids:
        if cid not in cities:
            continue
        partner = _partner(cities[cid], acting_seat, who, locale)
        label = labels.get(cid, "")
        if partner:
            heading = t("btc.render.heading.with", locale, city=label, partner=partner)
        else:
            heading = t("btc.render.heading.alone", locale, city=label)
        y = _own_city(img, y, cities[cid], heading, placing=placing, locale=locale) + GAP + 4
    return _legend(img, y, locale)


LEGEND_BOUND = 280
"""At most the legend's height (ten entries on up to four lines)."""


BOUND_SHARE = 0.8
"""The share of the summed bounds the canvas starts at: over 105 sample views (1-7 seats, three seeds, early,
mid-game and finished; turn, board and end pictures) the pictures came out 46-76 % of it, so a canvas of
the whole bound was filled and copied for nothing."""


def _sized(paint: Callable[[Image.Image, ImageDraw.ImageDraw], int], height: int) -> Image.Image:
    """What ``paint`` draws, on a canvas :data:`BOUND_SHARE` of ``height`` (the sum of the parts' bounds),
    drawn again taller in the rare case that falls short (:func:`render.common.sized`)."""
    return c.sized(WIDTH, int(height * BOUND_SHARE), paint)


def _own_bound(city: BtcCity) -> int:
    """At most the height of :func:`_own_city`."""
    return 200 + max(OWN_GRID + 2 * PAD, 400 + 120 * len(city.get("incoming") or []))


def _card_bound(city: BtcCity) -> int:
    """At most the height of :func:`city_card` on the table (a grid's scores beside it: a 4 x 4 grid in half
    the picture's width leaves room for them)."""
    h = 2 * PAD + CHIP + 40 + 52 * len(city.get("builders") or []) + 170
    if city.get("grid", True):
        h += 4 * (CARD_CELL + CITY_GAP) + 12
    else:
        h += (len(city.get("loose") or []) // 7 + 1) * 66 + 8 + 2 * (CARD_SCORE + 8)
    incoming = city.get("incoming") or []
    return h + (60 + 110 * len(incoming) if incoming else 0)


def _table_bound(view: View) -> int:
    cities = view.get("cities") or []
    return sum(max(_card_bound(cty) for cty in cities[r : r + 2]) + GAP for r in range(0, len(cities), 2))


def _partner(city: BtcCity, seat: int, who: list[str], locale: str = "en") -> str:
    others = [b for b in city.get("builders") or [] if b != seat]
    return c.join_names((who[b] if 0 <= b < len(who) else "?" for b in others), locale)


def _table(img: Image.Image, top: int, view: View, who: list[str], winners: frozenset[int], locale: str = "en") -> int:
    """Every city, two per row, in table order; returns the bottom y."""
    cities = view.get("cities") or []
    per_row = 2
    w = (WIDTH - 2 * MARGIN - (per_row - 1) * GAP) // per_row
    y = top
    for r in range(0, len(cities), per_row):
        row = cities[r : r + per_row]
        bottom = max(
            city_card(img, (MARGIN + k * (w + GAP), y), w, city, who, winners=winners, locale=locale, frame=False)
            for k, city in enumerate(row)
        )
        draw = ImageDraw.Draw(img)
        for k in range(len(row)):
            x = MARGIN + k * (w + GAP)
            draw.rounded_rectangle((x, y, x + w, bottom), radius=14, outline=c.PANEL_EDGE, width=2)
        y = bottom + GAP
    return y


def _winners(view: View) -> frozenset[int]:
    result: Mapping[str, Any] = view.get("result") or {}
    ranked = [*(result.get("seats") or []), *((result.get("details") or {}).get("automas") or [])]
    return frozenset(s["seat"] for s in ranked if s.get("rank") == 1)


def board_image(view: View, names: Sequence[str] | None = None, *, locale: str = "en") -> Image.Image:
    """The whole table: every player's strip (status and score), then every city with its builders and
    scores."""
    who = player_names(view, names, locale)

    def paint(img: Image.Image, draw: ImageDraw.ImageDraw) -> int:
        rest = _title_bar(draw, _title(view, locale), _subtitle(view, locale))
        y = c.TITLE_HEIGHT + GAP
        if rest:
            y = _wrapped(draw, (MARGIN, y), rest, WIDTH - 2 * MARGIN, HEADING_TEXT, False, c.INK, key=False) + 2
        y = _strips(img, y + 6, view, who, locale) + 6
        y = _table(img, y, view, who, _winners(view), locale)
        return _legend(img, y, locale)

    players = len(view.get("players") or [])
    return _sized(paint, c.TITLE_HEIGHT + 140 + players * (STRIP + 8) + _table_bound(view) + LEGEND_BOUND)


def end_image(view: View, names: Sequence[str] | None = None, *, locale: str = "en") -> Image.Image:
    """The final scores first (ranks, names, the score that counts, the winner), then every city."""
    who = player_names(view, names, locale)
    result: Mapping[str, Any] = view.get("result") or _provisional(view)
    seats = _ranked(result)

    def paint(img: Image.Image, draw: ImageDraw.ImageDraw) -> int:
        y = _paint_ranking(img, draw, view, result, seats, who, locale)
        return _legend(img, _table(img, y + GAP, view, who, _winners(view), locale), locale)

    return _sized(paint, _ranking_bound(seats) + GAP + _table_bound(view) + LEGEND_BOUND)
