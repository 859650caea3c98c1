"""The story of a game in pictures: a score-over-time chart and an animation of the cities growing.

- :func:`chart_png` (1200 px wide): one line per place (players and Automas), each in its player
  colour **and** marked by its player shape and letter; turns along the bottom, points up the side;
  rounds shaded when the game has them; the deciding moments (lead changes, the biggest gain)
  marked on the lines by numbered badges and told in a list under the chart; a legend with the
  final ranking.
- :func:`growth_gif`: the game's own board picture (``renderer.render_board`` of the spectator's
  view) at the start, after evenly spaced turns and at the end, scaled down, one shared palette,
  with a caption naming the turn. Frames that change little cost little: Pillow stores only the
  changed rectangle of each frame.

Every word drawn comes from the message catalogue (``story.*``) in the ``locale`` passed; player
names are passed in, Automas are named by the game's data. :func:`recap` does it all from a log.

The chart is :mod:`render.story.chart` (its names and moments :mod:`render.story.words`), the animation
:mod:`render.story.animation`; this module re-exports their names and puts them together.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from bot import story as st
from render.story.animation import (
    FIRST_MS,
    FRAME_MS,
    GIF_COLOURS,
    GIF_WIDTH,
    LAST_MS,
    MAX_FRAMES,
    frame_points,
    growth_gif,
)
from render.story.chart import (
    AXIS_FONT,
    BADGE,
    BAND,
    END_MARKER,
    LINE_GAP,
    LINE_WIDTH,
    MARGIN,
    MARKER,
    MARKS_PER_LINE,
    MOST_MOMENTS,
    PLOT_HEIGHT,
    WIDTH,
    Moment,
    chart_image,
    chart_png,
    moments,
    nice_step,
    place_names,
)

__all__ = [
    "AXIS_FONT",
    "BADGE",
    "BAND",
    "END_MARKER",
    "FIRST_MS",
    "FRAME_MS",
    "GIF_COLOURS",
    "GIF_WIDTH",
    "LAST_MS",
    "LINE_GAP",
    "LINE_WIDTH",
    "MARGIN",
    "MARKER",
    "MARKS_PER_LINE",
    "MAX_FRAMES",
    "MOST_MOMENTS",
    "PLOT_HEIGHT",
    "WIDTH",
    "Moment",
    "Recap",
    "chart_image",
    "chart_png",
    "frame_points",
    "growth_gif",
    "moments",
    "nice_step",
    "place_names",
    "recap",
]


@dataclass(frozen=True)
class Recap:
    """What the end of a game posts: the chart, the animation (None when not asked for), the story."""

    chart: bytes
    gif: bytes | None
    story: st.Story


# ---------------------------------------------------------------------------------------------
# All at once
# ---------------------------------------------------------------------------------------------


def recap(
    kind: str,
    options: Mapping[str, Any],
    seat_count: int,
    seed: int,
    moves: Sequence[st.LoggedMove],
    names: Sequence[str] | None = None,
    *,
    locale: str = "en",
    gif: bool = True,
) -> Recap:
    """The chart (and, unless ``gif`` is False, the animation) of a game from its move log.

    A log the rules refuse raises :class:`bot.rules.core.GameError` with a sentence (``story.error.*``).
    """
    told = st.build(kind, options, seat_count, seed, moves, keep_views=gif)
    return Recap(chart_png(told, names, locale=locale), growth_gif(told, names, locale=locale) if gif else None, told)
