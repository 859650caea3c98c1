"""The animation of a game's story (:func:`growth_gif`): the board growing, frame by frame, under a caption.

Split from ``render/story/__init__.py`` (the module budget, ARCHITECTURE.md), which re-exports its names."""

from __future__ import annotations

import io
import math
from collections.abc import Sequence

from PIL import Image, ImageDraw

from bot import story as st
from bot.i18n import t
from render import common as c
from render import pictures

GIF_WIDTH = 1000
"""Animation width: as wide as every other picture the bot posts, and the longest game stays below 8 MB."""
MAX_FRAMES = 12
"""Frames after the start: evenly spaced points of the story, the last one always among them."""
FRAME_MS = 700
FIRST_MS = 1200
LAST_MS = 4000
GIF_COLOURS = 255


# ---------------------------------------------------------------------------------------------
# The animation
# ---------------------------------------------------------------------------------------------


def frame_points(count: int, most: int = MAX_FRAMES, group: int = 1) -> list[int]:
    """Which of ``count`` points become frames: the start, then at most ``most`` evenly spaced ones,
    the last always among them. Steps are whole multiples of ``group`` (the seats of a game taken in
    turns, so that every frame shows the table after the same player's turn)."""
    last = count - 1
    if last <= most:
        return list(range(count))
    group = max(1, group)
    step = group * math.ceil(last / (most * group))
    if math.ceil(last / step) > most:
        step = math.ceil(last / most)
    return [*range(0, last, step), last]


def _caption(story: st.Story, point: st.Point, locale: str) -> str:
    if point.turn == 0:
        return t("story.gif.start", locale)
    if point is story.points[-1] and story.over:
        return t("story.gif.final", locale)
    key = "story.gif.round" if story.axis == "round" else "story.gif.turn"
    return t(key, locale, turn=point.turn, turns=story.turns)


def _frame(board: bytes, caption: str, progress: float, width: int) -> Image.Image:
    """A board picture scaled to ``width`` under a caption band with a progress bar."""
    picture = Image.open(io.BytesIO(board)).convert("RGB")
    height = round(picture.height * width / picture.width)
    picture = picture.resize((width, height), Image.Resampling.LANCZOS)
    band = 52
    out = Image.new("RGB", (width, height + band), c.INK)
    draw = ImageDraw.Draw(out)
    line, fnt = c.fit_text(caption, width - 32, 28, True, 14)
    c.draw_text(draw, (16, band / 2 - 3), line, fnt, c.WHITE, "lm")
    draw.rectangle((0, band - 8, width, band), fill=c.MUTED)
    draw.rectangle((0, band - 8, round(width * progress), band), fill=c.HIGHLIGHT)
    out.paste(picture, (0, band))
    return out


def growth_gif(
    story: st.Story,
    names: Sequence[str] | None = None,
    *,
    locale: str = "en",
    width: int = GIF_WIDTH,
    most_frames: int = MAX_FRAMES,
) -> bytes:
    """An animated GIF of the board growing, from a story built with ``keep_views=True``."""
    if len(story.views) != len(story.points):
        raise ValueError("the story was built without its views (build(..., keep_views=True))")
    renderer = pictures.get(story.kind)
    if renderer is None:
        raise ValueError(f"{story.kind} has no pictures")
    given = list(names or [])
    group = len(story.places) if story.axis == "turn" else 1
    chosen = frame_points(len(story.points), most_frames, group)
    frames = []
    for index in chosen:
        point = story.points[index]
        board = renderer.render_board(story.views[index], given, locale=locale)
        progress = point.turn / max(1, story.turns)
        frames.append(_frame(board, _caption(story, point, locale), progress, width))
    tallest = max(f.height for f in frames)
    frames = [_pad(f, tallest) for f in frames]
    palette = frames[-1].quantize(colors=GIF_COLOURS, method=Image.Quantize.MEDIANCUT, dither=Image.Dither.NONE)
    paletted = [f.quantize(palette=palette, dither=Image.Dither.NONE) for f in frames]
    durations = [FRAME_MS] * len(paletted)
    durations[0] = FIRST_MS
    durations[-1] = LAST_MS
    buf = io.BytesIO()
    paletted[0].save(
        buf,
        format="GIF",
        save_all=True,
        append_images=paletted[1:],
        duration=durations,
        loop=0,
        optimize=False,
        disposal=1,
    )
    return buf.getvalue()


def _pad(frame: Image.Image, height: int) -> Image.Image:
    if frame.height == height:
        return frame
    out = Image.new("RGB", (frame.width, height), c.BACKGROUND)
    out.paste(frame, (0, 0))
    return out
