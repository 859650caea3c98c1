"""Layout: the canvas (tagged for the pen's recorder), the title bar, panels, labelled grids, legends, a
player's banner, wrapped lines, :func:`sized` (draw on an estimated canvas, again taller if short, cropped
once; ``under=`` puts a score table on the same canvas), stacking, and a game's tile sheet.

The look (issue 4): images a person reads at a glance on a phone, at least 1000 px wide; every building
type has its own **shape and letter** as well as its colour, so nothing depends on colour alone; the same
look in every view of every game. What stays as code: the one-letter marks of tiles and seats, grid
coordinates, numbers and symbols.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass

from PIL import Image, ImageDraw

from bot.i18n import t
from render.colour import (
    BACKGROUND,
    EMPTY_CELL,
    GRID_LINE,
    HIGHLIGHT,
    INK,
    MUTED,
    PANEL,
    PANEL_EDGE,
    RGB,
    WHITE,
    Box,
    player_style,
    shade,
    tint,
)
from render.glyphs import GLYPHS, draw_glyph, glyph
from render.icons import draw_icon
from render.shapes import seat_marker
from render.text import (
    _RECORDER,
    KEY_TEXT,
    MIN_TEXT,
    Font,
    draw_fitted,
    draw_text,
    ellipsize,
    fit_text,
    font,
    text_width,
)

IMAGE_WIDTH = 1200
"""Default width of every image (issue 4: at least 1000 px, so it stays sharp on a phone)."""
PHONE_WIDTH = 400
"""How wide Discord shows a picture on a phone, inline and full screen; 2x zoom shows it twice as wide."""
MIN_WIDTH = 1000

# ---------------------------------------------------------------------------------------------
# Layout helpers
# ---------------------------------------------------------------------------------------------


def canvas(width: int, height: int, colour: RGB = BACKGROUND) -> tuple[Image.Image, ImageDraw.ImageDraw]:
    """A new RGB image and its drawing context."""
    img = Image.new("RGB", (max(width, MIN_WIDTH), max(1, height)), colour)
    recorder = _RECORDER.get()
    if recorder is not None:
        recorder.tag(img)
    return img, ImageDraw.Draw(img)


TITLE_HEIGHT = 64


def title_bar(
    draw: ImageDraw.ImageDraw,
    width: int,
    title: str,
    subtitle: str = "",
    height: int = TITLE_HEIGHT,
    colour: RGB = INK,
    *,
    top: int = 0,
) -> int:
    """A dark band across the top (at ``top``) with the title (left) and a subtitle (right); returns its
    height. The title is a key fact: the subtitle is left out rather than shrink it below :data:`KEY_TEXT`."""
    draw.rectangle((0, top, width, top + height), fill=colour)
    sub_font = font(22)
    sub_w = min(text_width(subtitle, sub_font), width // 2) if subtitle else 0
    if subtitle and text_width(title, font(KEY_TEXT, True)) > width - sub_w - 60:
        subtitle, sub_w = "", 0
    text, fnt = fit_text(title, width - sub_w - 60, 34, True, KEY_TEXT)
    draw_text(draw, (20, top + height / 2), text, fnt, WHITE, "lm", key=True)
    if subtitle:
        sub = ellipsize(subtitle, sub_font, width // 2)
        draw_text(draw, (width - 20, top + height / 2), sub, sub_font, tint(HIGHLIGHT, 0.2), "rm")
    return height


def panel(
    draw: ImageDraw.ImageDraw, box: Box, fill: RGB = PANEL, edge: RGB = PANEL_EDGE, width: int = 2, radius: int = 12
) -> None:
    """A rounded white panel."""
    draw.rounded_rectangle(box, radius=radius, fill=fill, outline=edge, width=width)


def row_letters(n: int) -> list[str]:
    """Row labels A, B, C ..."""
    return [chr(ord("A") + i) for i in range(n)]


def col_numbers(n: int) -> list[str]:
    """Column labels 1, 2, 3 ..."""
    return [str(i + 1) for i in range(n)]


@dataclass(frozen=True)
class GridGeometry:
    """Where a labelled grid landed: the cell boxes and the outer box."""

    origin: tuple[int, int]
    cell: int
    rows: int
    cols: int
    gap: int

    def cell_box(self, r: int, c: int) -> Box:
        x = self.origin[0] + c * (self.cell + self.gap)
        y = self.origin[1] + r * (self.cell + self.gap)
        return (x, y, x + self.cell, y + self.cell)

    @property
    def box(self) -> Box:
        last = self.cell_box(self.rows - 1, self.cols - 1)
        return (self.origin[0], self.origin[1], last[2], last[3])


def labelled_grid(
    draw: ImageDraw.ImageDraw,
    xy: tuple[int, int],
    rows: int,
    cols: int,
    cell: int,
    row_labels: Sequence[str] | None = None,
    col_labels: Sequence[str] | None = None,
    gap: int = 4,
    label_size: int | None = None,
    fill: RGB | Callable[[int, int], RGB | None] | None = EMPTY_CELL,
    label_space: int | None = None,
) -> GridGeometry:
    """Draw empty cells with row labels on the left and column labels on top.

    ``xy`` is the top-left corner of the whole block including the labels; the cells start
    ``label_space`` pixels right of and below it. Returns the geometry so the caller can fill cells.
    ``fill`` may be a function of (row, col) returning a colour or None (cell left undrawn).
    """
    lsize = label_size or max(14, cell // 5)
    space = label_space if label_space is not None else lsize + 10
    rl = list(row_labels) if row_labels is not None else row_letters(rows)
    cl = list(col_labels) if col_labels is not None else col_numbers(cols)
    geo = GridGeometry((xy[0] + space, xy[1] + space), cell, rows, cols, gap)
    fnt = font(lsize, True)
    for c in range(cols):
        x0, y0, x1, _ = geo.cell_box(0, c)
        if cl:
            draw_text(draw, ((x0 + x1) / 2, y0 - space / 2), cl[c], fnt, MUTED, "mm", key=False)
    for r in range(rows):
        x0, y0, _, y1 = geo.cell_box(r, 0)
        if rl:
            draw_text(draw, (x0 - space / 2, (y0 + y1) / 2), rl[r], fnt, MUTED, "mm", key=False)
    for r in range(rows):
        for c in range(cols):
            colour = fill(r, c) if callable(fill) else fill
            if colour is not None:
                draw.rounded_rectangle(
                    geo.cell_box(r, c), radius=max(3, cell // 14), fill=colour, outline=GRID_LINE, width=1
                )
    return geo


def legend(
    img: Image.Image,
    xy: tuple[int, int],
    entries: Sequence[tuple[str, str]],
    max_width: int,
    size: int = 34,
    icon_entries: Sequence[tuple[str, str]] = (),
    locale: str = "en",
) -> int:
    """A wrapped row of "[tile] label" entries (glyph keys) then "[icon] label" ones; returns the bottom y.
    The tiles' badges are drawn in ``locale``."""
    draw = ImageDraw.Draw(img)
    fnt = font(max(MIN_TEXT, round(size * 0.55)))
    x, y = xy
    line_h = size + 8
    items: list[tuple[str, str, bool]] = [(k, t, True) for k, t in entries] + [(k, t, False) for k, t in icon_entries]
    for key, text, is_glyph in items:
        w = size + 6 + text_width(text, fnt) + 18
        if x + w > xy[0] + max_width and x > xy[0]:
            x = xy[0]
            y += line_h
        box = (x, y, x + size, y + size)
        if is_glyph:
            draw_glyph(img, key, box, locale=locale)
        else:
            draw_icon(img, key, box)
        draw_text(draw, (x + size + 6, y + size / 2), text, fnt, INK, "lm")
        x += w
    return y + line_h


def player_banner(
    img: Image.Image,
    box: Box,
    seat: int,
    name: str,
    detail: str = "",
    active: bool = False,
    active_label: str | None = None,
    *,
    locale: str = "en",
) -> None:
    """A strip naming a player: marker (shape + letter), name, a detail text on the right.

    ``active`` frames it in the highlight colour and adds ``active_label`` (default: "to play" in
    ``locale``) with an hourglass, so the acting player is marked by words and an icon, not by
    colour alone.
    """
    if active_label is None:
        active_label = t("render.banner.to_play", locale)
    draw = ImageDraw.Draw(img)
    x0, y0, x1, y1 = box
    h = y1 - y0
    style = player_style(seat)
    draw.rounded_rectangle(
        box,
        radius=h // 4,
        fill=tint(style.colour, 0.82),
        outline=HIGHLIGHT if active else shade(style.colour, 0.2),
        width=max(3, h // 10) if active else 2,
    )
    pad = max(4, h // 8)
    seat_marker(img, seat, (x0 + pad, y0 + pad, x0 + h - pad, y1 - pad))
    right = x1 - pad * 2
    if active:
        label_font = font(max(12, round(h * 0.48)), True)
        lw = text_width(active_label, label_font)
        lbox = (right - lw - h * 0.7 - pad, y0 + pad, right, y1 - pad)
        draw.rounded_rectangle(lbox, radius=(lbox[3] - lbox[1]) // 2, fill=HIGHLIGHT, outline=INK, width=2)
        isz = int((lbox[3] - lbox[1]) * 0.7)
        draw_icon(
            img,
            "waiting",
            (int(lbox[0] + pad), int(y0 + (h - isz) / 2), int(lbox[0] + pad + isz), int(y0 + (h + isz) / 2)),
        )
        draw_text(draw, (right - pad, (y0 + y1) / 2), active_label, label_font, INK, "rm", key=True)
        right = int(lbox[0]) - pad
    if detail:
        dfont = font(max(12, round(h * 0.48)))
        detail = ellipsize(detail, dfont, max(40, (right - x0) // 2))
        draw_text(draw, (right, (y0 + y1) / 2), detail, dfont, INK, "rm", key=True)
        right -= text_width(detail, dfont) + pad * 2
    name_text, nfont = fit_text(name, right - (x0 + h + pad), round(h * 0.5), True, 12)
    draw_text(draw, (x0 + h + pad, (y0 + y1) / 2), name_text, nfont, INK, "lm", key=True)


def wrap(text: str, fnt: Font, max_width: int) -> list[str]:
    """Greedy word wrap."""
    words = text.split()
    lines: list[str] = []
    line = ""
    for word in words:
        trial = f"{line} {word}".strip()
        if text_width(trial, fnt) <= max_width or not line:
            line = trial
        else:
            lines.append(line)
            line = word
    if line:
        lines.append(line)
    return lines


def fit_lines(
    text: str, width: int, size: int, bold: bool = False, min_size: int = MIN_TEXT, max_lines: int = 2
) -> tuple[list[str], Font]:
    """``text`` in the largest font from ``size`` down to ``min_size`` on one line, else wrapped onto at
    most ``max_lines`` lines; past that the last line ends after a whole word with "…". A name or heading
    that must stay a key fact passes ``min_size=KEY_TEXT``: it wraps rather than shrinks below it."""
    for s in range(size, min_size - 1, -1):
        f = font(s, bold)
        if text_width(text, f) <= width:
            return [text], f
    for s in range(size, min_size - 1, -1):
        f = font(s, bold)
        lines = wrap(text, f, width)
        if len(lines) <= max_lines and all(text_width(line, f) <= width for line in lines):
            return lines, f
    f = font(min_size, bold)
    lines = wrap(text, f, width)
    head = [ellipsize(line, f, width) for line in lines[: max_lines - 1]]
    return [*head, ellipsize(" ".join(lines[max_lines - 1 :]), f, width)], f


def join_names(items: Iterable[str], locale: str = "en") -> str:
    """Names (or phrases) as one list in ``locale`` ("Ann, Bob")."""
    return t("render.list.separator", locale).join(items)


def sized(
    width: int, height: int, paint: Callable[[Image.Image, ImageDraw.ImageDraw], int], under: Image.Image | None = None
) -> Image.Image:
    """What ``paint`` draws (it returns its bottom y) on a canvas ``height`` tall, an estimate, cropped to
    the drawing (not copied when it fills the canvas exactly); drawn again taller when the estimate fell
    short. ``under``: a picture pasted at the top first (``paint`` then starts below it), so a table
    and what follows it are drawn on one canvas instead of two stacked ones."""
    recorder = _RECORDER.get()
    top = under.height if under is not None else 0
    while True:
        img, draw = canvas(width, top + height)
        if under is not None:
            img.paste(under, (0, 0))
            if recorder is not None:
                recorder.moved(under, img, 0, 0)
        end = paint(img, draw)
        if end <= top + height:
            return img if end == img.height else img.crop((0, 0, img.width, end))
        height = end - top + 40


def stack_vertical(images: Sequence[Image.Image], gap: int = 0, colour: RGB = BACKGROUND) -> Image.Image:
    """Images one under another, left-aligned, on the background colour."""
    width = max(i.width for i in images)
    height = sum(i.height for i in images) + gap * (len(images) - 1)
    out = Image.new("RGB", (width, height), colour)
    recorder = _RECORDER.get()
    y = 0
    for im in images:
        out.paste(im, (0, y))
        if recorder is not None:
            recorder.moved(im, out, 0, y)
        y += im.height + gap
    return out


TILE_SHEET_COLUMNS = 3
TILE_SHEET_SIZE = 96
"""A reference sheet's glyphs: large enough to read the letter on a phone."""


def tile_sheet(game: str, title: str, locale: str = "en") -> Image.Image:
    """Every building kind of ``game`` as drawn in its pictures: the glyph, its letter and its name."""
    keys = [k for k in GLYPHS if k.startswith(game + ".")]
    rows = max(1, -(-len(keys) // TILE_SHEET_COLUMNS))
    cell_w = IMAGE_WIDTH // TILE_SHEET_COLUMNS
    cell_h = TILE_SHEET_SIZE + 28
    img, draw = canvas(IMAGE_WIDTH, TITLE_HEIGHT + 24 + rows * cell_h)
    title_bar(draw, IMAGE_WIDTH, title)
    for i, key in enumerate(keys):
        x = (i % TILE_SHEET_COLUMNS) * cell_w + 24
        y = TITLE_HEIGHT + 24 + (i // TILE_SHEET_COLUMNS) * cell_h
        draw_glyph(img, key, (x, y, x + TILE_SHEET_SIZE, y + TILE_SHEET_SIZE), locale=locale)
        g = glyph(key)
        label = f"{g.badge(locale)}  {g.label(locale)}"
        draw_fitted(
            draw,
            (x + TILE_SHEET_SIZE + 16, y + TILE_SHEET_SIZE // 2),
            label,
            cell_w - TILE_SHEET_SIZE - 56,
            28,
            True,
            INK,
            "lm",
            MIN_TEXT,
            key=False,
        )
    return img
