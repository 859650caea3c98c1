"""Quadropolis: the players' strips (resources, architects, score) and the legend."""

from __future__ import annotations

from collections.abc import Callable
from typing import cast

from PIL import Image, ImageDraw

from bot.i18n import t
from bot.rules.quadropolis.viewtypes import QuadCity
from render import common as c
from render.quadropolis.base import (
    CLASSIC_KINDS,
    EXPERT_KINDS,
    LEGEND_ICONS,
    LEGEND_SIZE,
    MARGIN,
    NAME_SIZE,
    RESOURCE_ICON,
    RESOURCE_SIZE,
    SCORE_SIZE,
    STRIP_GAP,
    STRIP_ITEM,
    STRIP_MARK,
    STRIP_PAD,
    WIDTH,
    View,
)

# ---------------------------------------------------------------------------------------------
# Player strips
# ---------------------------------------------------------------------------------------------

StripItem = tuple[int, Callable[[Image.Image, int, float], None]]
"""(width, draw at (left x, middle y)) of one thing on a strip's second row."""


def _strip_items(view: View, seat: int, city: QuadCity, active: bool, locale: str) -> list[StripItem]:
    """The 'to play' label (a key fact, with an hourglass), inhabitants, energy, architects left, and the
    first player's hat."""
    items: list[StripItem] = []
    if active:
        label = t("render.banner.to_play", locale)
        lfont = c.font(c.KEY_TEXT, True)
        isz = STRIP_ITEM - 14
        width = 10 + isz + 8 + c.text_width(label, lfont) + 14

        def to_play(img: Image.Image, x: int, cy: float) -> None:
            draw = ImageDraw.Draw(img)
            box = (x, int(cy - STRIP_ITEM / 2), x + width, int(cy + STRIP_ITEM / 2))
            draw.rounded_rectangle(box, radius=STRIP_ITEM // 2, fill=c.HIGHLIGHT, outline=c.INK, width=2)
            c.draw_icon(img, "waiting", (x + 10, int(cy - isz / 2), x + 10 + isz, int(cy + isz / 2)))
            c.draw_text(draw, (x + 10 + isz + 8, cy), label, lfont, c.INK, "lm", key=True)

        items.append((width, to_play))
    rfont = c.font(RESOURCE_SIZE, True)
    for icon, key in (("inhabitant", "inhabitants"), ("energy", "energy")):
        text = str(city.get(key, 0))

        def resource(img: Image.Image, x: int, cy: float, icon: str = icon, text: str = text) -> None:
            c.draw_icon(img, icon, (x, int(cy - RESOURCE_ICON / 2), x + RESOURCE_ICON, int(cy + RESOURCE_ICON / 2)))
            c.draw_text(ImageDraw.Draw(img), (x + RESOURCE_ICON + 8, cy), text, rfont, c.INK, "lm", key=False)

        items.append((RESOURCE_ICON + 8 + c.text_width(text, rfont), resource))
    per_seat = (view.get("architects") or {}).get("per_seat")
    if per_seat and seat < len(per_seat) and per_seat[seat]:
        values = list(per_seat[seat])
        msz = 40
        style = c.player_style(seat)

        def architects(img: Image.Image, x: int, cy: float) -> None:
            for k, value in enumerate(values):
                left = x + k * (msz + 4)
                c.draw_marker(
                    img, style.shape, (left, int(cy - msz / 2), left + msz, int(cy + msz / 2)), style.colour, str(value)
                )

        items.append((len(values) * (msz + 4) - 4, architects))
    if view.get("first_player") == seat:
        hsz = 40

        def first(img: Image.Image, x: int, cy: float) -> None:
            c.draw_icon(img, "first", (x, int(cy - hsz / 2), x + hsz, int(cy + hsz / 2)))

        items.append((hsz, first))
    return items


def _player_strip(
    img: Image.Image,
    xy: tuple[int, int],
    width: int,
    view: View,
    seat: int,
    name: str,
    active: bool,
    locale: str = "en",
    *,
    dry: bool = False,
) -> int:
    """One player: marker, name (a key fact, up to two lines) and score (a key fact) on the first row;
    'to play', inhabitants, energy, architects left and the first player's hat beside the name when they
    fit, else on rows under the name. Returns the strip's height (``dry``: only that)."""
    x, y = xy
    pad, mark = STRIP_PAD, STRIP_MARK
    cities = view.get("cities") or []
    city = cities[seat] if seat < len(cities) else cast(QuadCity, {})
    total = (city.get("score") or {}).get("total")
    sfont = c.font(SCORE_SIZE, True)
    score = "" if total is None else str(total)
    ssz = 40
    score_w = ssz + 10 + c.text_width(score, sfont) if score else 0
    left = x + pad + mark + 12
    right = x + width - pad - (score_w + 16 if score else 0)
    lines, nfont = c.fit_lines(name, right - left, NAME_SIZE, True, c.KEY_TEXT)
    step = int(nfont.size) + 8
    row1 = max(mark, len(lines) * step)
    name_w = max(c.text_width(line, nfont) for line in lines)
    items = _strip_items(view, seat, city, active, locale)
    gap = 22
    along = sum(w for w, _ in items) + gap * max(0, len(items) - 1)
    placed: list[tuple[int, float, Callable[[Image.Image, int, float], None]]] = []
    if len(lines) == 1 and left + name_w + 24 + along <= right:
        px = right - along
        for w, fn in items:
            placed.append((px, y + pad + row1 / 2, fn))
            px += w + gap
        h = 2 * pad + row1
    else:
        px, row = left, 0
        for w, fn in items:
            if px > left and px + w > x + width - pad:
                px, row = left, row + 1
            placed.append((px, y + pad + row1 + 6 + row * (STRIP_ITEM + 6) + STRIP_ITEM / 2, fn))
            px += w + gap
        h = 2 * pad + row1 + ((row + 1) * (STRIP_ITEM + 6) if items else 0)
    if dry:
        return h
    draw = ImageDraw.Draw(img)
    style = c.player_style(seat)
    draw.rounded_rectangle(
        (x, y, x + width, y + h),
        radius=18,
        fill=c.tint(style.colour, 0.84),
        outline=c.HIGHLIGHT if active else c.shade(style.colour, 0.2),
        width=6 if active else 2,
    )
    if active:
        draw.rounded_rectangle((x + 6, y + 6, x + width - 6, y + h - 6), radius=14, outline=c.INK, width=1)
    mid = y + pad + row1 / 2
    c.seat_marker(img, seat, (x + pad, int(mid - mark / 2), x + pad + mark, int(mid + mark / 2)))
    for k, line in enumerate(lines):
        c.draw_text(draw, (left, mid + (k - (len(lines) - 1) / 2) * step), line, nfont, c.INK, "lm", key=True)
    if score:
        sx = x + width - pad - score_w
        c.draw_icon(img, "points", (sx, int(mid - ssz / 2), sx + ssz, int(mid + ssz / 2)))
        c.draw_text(draw, (x + width - pad, mid), score, sfont, c.INK, "rm", key=True)
    for px, cy, fn in placed:
        fn(img, px, cy)
    return h


def _strips(
    img: Image.Image,
    top: int,
    view: View,
    names: list[str],
    active: int | None,
    locale: str = "en",
    *,
    dry: bool = False,
) -> int:
    """All players' strips, one per row across the picture; returns the y below them."""
    y = top
    for seat, name in enumerate(names):
        y += (
            _player_strip(img, (MARGIN, y), WIDTH - 2 * MARGIN, view, seat, name, seat == active, locale, dry=dry)
            + STRIP_GAP
        )
    return y


def _legend(
    img: Image.Image,
    top: int,
    view: View,
    *,
    site: bool = False,
    inactive: bool = False,
    strips: bool = True,
    locale: str = "en",
) -> int:
    """The buildings and icons drawn, each named (``site``: the urbanist and a closed slot too; ``inactive``:
    the cross on a building left inactive; ``strips``: the first player's hat, which only strips show)."""
    kinds = EXPERT_KINDS if view.get("mode") == "expert" else CLASSIC_KINDS
    entries = [(f"quadropolis.{k}", c.glyph_name(f"quadropolis.{k}", locale)) for k in kinds]
    icon_keys = [(icon, key) for icon, key in LEGEND_ICONS if strips or icon != "first"]
    if site:
        icon_keys += [("pawn", "quadropolis.render.legend.urbanist"), ("removed", "quadropolis.render.legend.closed")]
    if inactive:
        icon_keys.append(("removed", "quadropolis.render.legend.inactive"))
    icons = [(icon, t(key, locale)) for icon, key in icon_keys]
    draw = ImageDraw.Draw(img)
    draw.line((MARGIN, top, WIDTH - MARGIN, top), fill=c.PANEL_EDGE, width=2)
    return c.legend(img, (MARGIN, top + 12), entries, WIDTH - 2 * MARGIN, LEGEND_SIZE, icons, locale) + 8
