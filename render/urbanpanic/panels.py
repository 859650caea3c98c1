"""Urban Panic: the phone sizes, the tracks, the players' strips, the legend, the titles and the plots a
turn changed."""

from __future__ import annotations

from collections.abc import Sequence

from PIL import Image, ImageDraw

from bot.i18n import t
from bot.rules.urbanpanic.viewtypes import UpAction, UpTileType
from render import common as c
from render.urbanpanic.base import MARGIN, TRACKS, VARIANTS, WIDTH, View, _key
from render.urbanpanic.city import tile_sprite

# ---------------------------------------------------------------------------------------------
# Phone sizes
# ---------------------------------------------------------------------------------------------

KEY = c.KEY_TEXT
"""A key fact (a name, a score, whose turn, the title) is drawn at least this size (11 px on a phone)."""
SMALL = c.MIN_TEXT
"""Every other word at least this size (11 px at 2x zoom)."""
NAME_SIZE = 38
VALUE_SIZE = 38
HEADING_SIZE = 30
TEXT_SIZE = 24


def _lines(
    draw: ImageDraw.ImageDraw,
    xy: tuple[float, float],
    text: str,
    width: int,
    size: int,
    bold: bool = False,
    fill: c.RGB = c.INK,
    *,
    key: bool,
    min_size: int = SMALL,
    max_lines: int = 4,
    anchor: str = "la",
) -> int:
    """``text`` wrapped under ``xy``; returns the y under the last line."""
    lines, fnt = c.fit_lines(text, width, size, bold, min_size, max_lines)
    x, y = xy
    step = round(fnt.size * 1.25)
    for line in lines:
        c.draw_text(draw, (x, y), line, fnt, fill, anchor, key=key)
        y += step
    return int(y)


def _heading(draw: ImageDraw.ImageDraw, xy: tuple[int, int], text: str, width: int) -> int:
    """A section heading (not a key fact, but read at a glance); returns the y under it."""
    return _lines(draw, xy, text, width, HEADING_SIZE, True, key=False, min_size=22, max_lines=2) + 4


# ---------------------------------------------------------------------------------------------
# Tracks
# ---------------------------------------------------------------------------------------------

TRACK_ROW = 84
"""A track's height: its icon and name on one line, its bar and value under them."""
TRACK_MARKS = 30


def tracks_height(lost: bool = False) -> int:
    return len(TRACKS) * TRACK_ROW + TRACK_MARKS + (56 if lost else 0)


def draw_tracks(
    img: Image.Image,
    box: c.Box,
    tracks: Sequence[int],
    floor: int = -5,
    lost: Sequence[int] | None = None,
    *,
    locale: str = "en",
) -> int:
    """The five tracks, each as its icon and name over a horizontal bar from zero with the value (a key
    fact, with its sign) at its right; the floor (−5) and zero marked under the bars. Returns the bottom y.

    The scale runs from below the floor to the largest value; the colour of a bar never carries meaning
    on its own (the number and its sign do). ``lost`` draws, as a hollow extension, what removal at
    scoring took off each track, explained under the marks.
    """
    draw = ImageDraw.Draw(img)
    x0, y0, x1, _ = box
    vf = c.font(VALUE_SIZE, True)
    value_w = c.text_width("+88", vf) + 24  # apart from the bar, so the sign reads as a sign
    lo = min(floor - 2, *(v for v in tracks))
    hi = max(12, *(v + (lost[i] if lost else 0) for i, v in enumerate(tracks)))
    bx0, bx1 = x0 + 4, x1 - value_w

    def xof(v: float) -> float:
        return bx0 + (v - lo) / (hi - lo) * (bx1 - bx0)

    zero, fl = xof(0), xof(floor)
    isz = 34
    bar_h = 36
    for i, track in enumerate(TRACKS):
        top = y0 + i * TRACK_ROW
        c.draw_icon(img, track, (x0, top, x0 + isz, top + isz))
        name = t(f"urbanpanic.render.track.{track}", locale)
        c.draw_fitted(
            draw, (x0 + isz + 8, top + isz / 2), name, x1 - x0 - isz - 8, 28, True, c.INK, "lm", 20, key=False
        )
        bt, bb = top + isz + 6, top + isz + 6 + bar_h
        mid = (bt + bb) / 2
        draw.rectangle((bx0, bt, bx1, bb), fill=(235, 232, 225))
        value = int(tracks[i]) if i < len(tracks) else 0
        colour = c.BLUISH_GREEN if value >= 0 else c.VERMILLION
        if lost and i < len(lost) and lost[i]:
            xa, xb = xof(value), xof(value + lost[i])
            draw.rectangle((min(xa, xb), bt + 4, max(xa, xb), bb - 4), outline=c.INK, width=3)
        if value:
            draw.rectangle(
                (min(zero, xof(value)), bt + 4, max(zero, xof(value)), bb - 4), fill=colour, outline=c.INK, width=2
            )
        text = f"{'+' if value > 0 else '-'}\u200a{abs(value)}" if value else "0"  # a hair space: OCR read "+1" as "41"
        c.draw_text(draw, (x1, mid), text, vf, c.INK, "rm", key=True)
    bottom = y0 + len(TRACKS) * TRACK_ROW
    for k in range(len(TRACKS)):
        top = y0 + k * TRACK_ROW + isz + 6
        draw.line((zero, top, zero, top + bar_h), fill=c.INK, width=3)
        for yy in range(top, top + bar_h, 9):
            draw.line((fl, yy, fl, yy + 5), fill=c.VERMILLION, width=3)
    mark = c.font(20, True)
    c.draw_text(draw, (zero, bottom - 8), "0", mark, c.INK, "ma", key=False)
    # the floor's dashes as a sample, then its words, right of the zero (the floor's own x is too near the edge)
    sx = zero + c.text_width("0", mark) / 2 + 16
    for yy in range(bottom - 8, bottom + 14, 9):
        draw.line((sx, yy, sx, yy + 5), fill=c.VERMILLION, width=3)
    floor_text = t("urbanpanic.render.floor", locale, floor=floor)
    c.draw_fitted(
        draw,
        (sx + 10, bottom - 8),
        floor_text,
        int(x1 - sx - 10),
        20,
        True,
        c.shade(c.VERMILLION, 0.2),
        "la",
        SMALL,
        key=False,
    )
    bottom += TRACK_MARKS - 8
    if lost and any(lost):
        bottom = _lines(
            draw, (x0, bottom), t("urbanpanic.render.lost", locale), x1 - x0, 21, False, c.MUTED, key=False, max_lines=2
        )
    return bottom


# ---------------------------------------------------------------------------------------------
# Strips and legend
# ---------------------------------------------------------------------------------------------


def _player_strip(img: Image.Image, box: c.Box, view: View, seat: int, name: str, locale: str = "en") -> int:
    """A player's strip: marker, name, then on the right the "to play" tag, the reserve, the first-finisher
    hat and the built count (the names and the count are key facts). A long name takes two lines at a key
    fact's size rather than shrinking. Returns the strip's height."""
    draw = ImageDraw.Draw(img)
    x0, y0, x1, _ = box
    player = (view.get("players") or [])[seat]
    active = view.get("current") == seat and not view.get("over")
    bf = c.font(34, True)
    built = t("urbanpanic.render.built", locale, count=player.get("tiles", 0))
    to_play = t("render.banner.to_play", locale)
    reserve = list(player.get("reserve") or [])
    tag_w = c.text_width(to_play, bf) + 78 if active else 0
    right_w = c.text_width(built, bf) + 16 + (46 if player.get("finisher") else 0) + len(reserve) * 51 + tag_w
    marker = 56
    room = int(x1 - x0 - marker - 36 - right_w - 16)
    lines, nf = c.fit_lines(name, max(120, room), NAME_SIZE, True, KEY, 2)
    h = max(66, 16 + len(lines) * round(nf.size * 1.3))
    y1 = y0 + h
    style = c.player_style(seat)
    draw.rounded_rectangle(
        (x0, y0, x1, y1),
        radius=18,
        fill=c.tint(style.colour, 0.88),
        outline=c.HIGHLIGHT if active else c.shade(style.colour, 0.2),
        width=6 if active else 2,
    )
    mid = (y0 + y1) / 2
    c.seat_marker(img, seat, (x0 + 10, int(mid - marker / 2), x0 + 10 + marker, int(mid + marker / 2)))
    right = x1 - 12
    if active:
        pill = (right - tag_w + 8, mid - 24, right, mid + 24)
        draw.rounded_rectangle(pill, radius=24, fill=c.HIGHLIGHT, outline=c.INK, width=2)
        c.draw_icon(img, "waiting", (int(pill[0] + 8), int(mid - 18), int(pill[0] + 44), int(mid + 18)))
        c.draw_text(draw, (right - 12, mid), to_play, bf, c.INK, "rm", key=True)
        right -= tag_w + 4
    c.draw_text(draw, (right, mid), built, bf, c.INK, "rm", key=True)
    right -= c.text_width(built, bf) + 16
    if player.get("finisher"):
        c.draw_icon(img, "first", (right - 40, int(mid - 20), right, int(mid + 20)))
        right -= 46
    for code in reversed(reserve):
        img.paste(tile_sprite(code, 48, locale), (right - 48, int(mid - 24)))
        right -= 51
    step = round(nf.size * 1.3)
    top = mid - step * len(lines) / 2 + step / 2
    for k, line in enumerate(lines):
        c.draw_text(draw, (x0 + marker + 36, top + k * step), line, nf, c.INK, "lm", key=True)
    return h


def _strips(img: Image.Image, top: int, view: View, who: list[str], locale: str = "en") -> int:
    """One strip per player, one per row."""
    y = top
    for seat, name in enumerate(who):
        y += _player_strip(img, (MARGIN, y, WIDTH - MARGIN, y), view, seat, name, locale) + 8
    return y


def _effects(deltas: Sequence[int], letters: Sequence[str]) -> str:
    return " ".join(f"{letters[i]}{d:+d}" for i, d in enumerate(deltas) if d)


def _type_name(tp: UpTileType, locale: str) -> str:
    """A tile type's name: the catalogue's for the six known types, else the view's, capitalised."""
    key = _key(str(tp.get("id", "")))
    if key in c.GLYPHS:
        return c.glyph_name(key, locale)
    return str(tp.get("name", "")).capitalize()


def _legend(img: Image.Image, top: int, view: View, locale: str = "en") -> int:
    """Each tile type with what it does to the tracks, the track letters, and what the cross means."""
    draw = ImageDraw.Draw(img)
    draw.line((MARGIN, top, WIDTH - MARGIN, top), fill=c.PANEL_EDGE, width=2)
    legend = view.get("legend") or {}
    # The reader's letters (the catalogue's, e.g. Hungarian L M Ö B E); the rules' own only if a track is unknown.
    letters = [t(f"urbanpanic.render.letter.{track}", locale) for track in TRACKS] or legend.get("letters") or []
    entries = [
        (
            _key(str(tp["id"])),
            t(
                "urbanpanic.render.legend.type",
                locale,
                name=_type_name(tp, locale),
                effects=_effects(tp.get("deltas") or [], letters),
            ),
        )
        for tp in legend.get("types") or []
    ]
    y = c.legend(img, (MARGIN, top + 10), entries, WIDTH - 2 * MARGIN, 42, locale=locale)
    icons = [
        (track, t(f"urbanpanic.render.legend.track.{track}", locale, letter=letters[i]))
        for i, track in enumerate(TRACKS)
    ]
    icons += [("removed", t("urbanpanic.render.legend.cut_off", locale))]
    return c.legend(img, (MARGIN, y), [], WIDTH - 2 * MARGIN, 40, icons) + 4


def _title(view: View, locale: str = "en") -> str:
    if view.get("over"):
        return t("urbanpanic.render.title.over", locale)
    if view.get("variant") == "party":
        return t("urbanpanic.render.title.party", locale)
    return t("urbanpanic.render.title.turn", locale, turn=int(view.get("turn", 0)) + 1)


turn_title = board_title = _title
"""The turn counter this module draws in a turn or board picture's title (the web page's slider shows the same)."""


def _subtitle(view: View, locale: str = "en") -> str:
    variant = str(view.get("variant", ""))
    name = t(f"urbanpanic.render.variant.{variant}", locale) if variant in VARIANTS else variant
    return t("urbanpanic.render.subtitle", locale, variant=name, players=len(view.get("players") or []))


def changed_plots(view: View, seat: int) -> list[str]:
    """The plots of ``seat``'s city that its latest turn built on or changed (this turn's actions while it
    plays, else its previous turn's when it was the last to play): what the pictures outline."""
    actions: Sequence[UpAction] = ()
    if view.get("current") == seat and view.get("turn_log"):
        actions = view.get("turn_log") or []
    else:
        previous = view.get("previous_turn")
        if previous and previous.get("seat") == seat:
            actions = previous.get("actions") or []
    plots = []
    for action in actions:
        if action.get("kind") in ("planner", "engineer_board", "engineer_reserve", "spy"):
            plots += [str(p) for p in (action.get("plot"), action.get("other")) if p]
    return plots
