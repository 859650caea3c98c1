"""Urban Panic images, drawn from a rules view (``RULES.view(state, seat)``; shape in its docstring).

Designed for a phone: Discord shows a picture about 400 px wide (800 px at 2x zoom), so the pictures are
portrait, the key facts (the title, whose turn, the players' names, the built counts and the tracks'
values, the final totals) are drawn at least ``c.KEY_TEXT`` px and every other word at least
``c.MIN_TEXT`` px (for a picture 1200 px wide; ``tests/render/test_urbanpanic_phone.py``).

- :func:`turn_image` — the players one per row (name, built count, reserve, "to play"), then the
  acting player's city with its roads (passages), so whether a tile is connected to the centre reads at
  a glance: linked roads run on unbroken, a passage that meets nothing ends in a dead-end bar, and tiles
  cut off from the centre are faded, hatched and crossed; the plots of the latest turn are framed.
  Beside the city the five tracks, each its name over a bar with its value and the −5 floor; under it
  the actions left, the main board's four face-up tiles and the stack, the reserve, the goals, the legend.
- :func:`board_image` — every city with its tracks, one per row.
- :func:`end_image` — the final ranking (names and totals, each category's points under them), then
  every city as scored (cut-off tiles removed), one per row.

Each returns a PIL image; :mod:`render.pictures` binds them to the game behind the one PNG adapter.
Player names are not in the view; pass them as ``names`` (by seat), else "Player n". Every word
drawn comes from the message catalogue (``render.*``, ``urbanpanic.render.*``, and the rules' own goal,
end and tie-break sentences) in the keyword ``locale`` (default English), and so do the letters: the
legend's track letters (``urbanpanic.render.letter.*``) and each building's badge letter
(``urbanpanic.render.badge.*``, drawn by the shared glyph: ``Glyph.badge``), chosen per language
so no badge repeats a track letter (tests/urbanpanic/test_badges.py). A tile's open sides are drawn as
roads; text names the same sides with arrows (``bot.rules.urbanpanic.tiles.tile_term``).

The package's parts: :mod:`render.urbanpanic.base`, :mod:`render.urbanpanic.city`, :mod:`render.urbanpanic.panels`,
:mod:`render.urbanpanic.images`; this module only re-exports them.
"""

from __future__ import annotations

# The design colours first, in the order they are defined: render.png's palette takes every module's RGB
# constants in that order (the pictures stay byte for byte what they were before the split).
# isort: off
from render.urbanpanic.base import ROAD, ROAD_OFF, LINKED_PLOT, CUT_PLOT

# isort: on
from render.urbanpanic.base import (
    CATEGORIES,
    DIRS,
    GAP,
    LABEL_SPACE,
    MARGIN,
    OPPOSITE,
    SIZE,
    TRACKS,
    TYPE_KEYS,
    VARIANTS,
    WIDTH,
    View,
    _key,
    _names,
    _passages,
    _passages_of,
    _type_of,
)
from render.urbanpanic.city import INNER, _hatch, _road, draw_city, tile_sprite
from render.urbanpanic.images import (
    CITIES_TOP,
    CITY_ROW,
    CITY_WIDTH,
    _categories,
    _cities,
    _city_and_tracks,
    _city_card,
    _end_notes,
    _goals,
    _main_board,
    _paint_turn,
    _reserve,
    board_image,
    end_image,
    turn_image,
)
from render.urbanpanic.panels import (
    HEADING_SIZE,
    KEY,
    NAME_SIZE,
    SMALL,
    TEXT_SIZE,
    TRACK_MARKS,
    TRACK_ROW,
    VALUE_SIZE,
    _effects,
    _heading,
    _legend,
    _lines,
    _player_strip,
    _strips,
    _subtitle,
    _title,
    _type_name,
    board_title,
    changed_plots,
    draw_tracks,
    tracks_height,
    turn_title,
)

__all__ = [
    "CATEGORIES",
    "CITIES_TOP",
    "CITY_ROW",
    "CITY_WIDTH",
    "CUT_PLOT",
    "DIRS",
    "GAP",
    "HEADING_SIZE",
    "INNER",
    "KEY",
    "LABEL_SPACE",
    "LINKED_PLOT",
    "MARGIN",
    "NAME_SIZE",
    "OPPOSITE",
    "ROAD",
    "ROAD_OFF",
    "SIZE",
    "SMALL",
    "TEXT_SIZE",
    "TRACKS",
    "TRACK_MARKS",
    "TRACK_ROW",
    "TYPE_KEYS",
    "VALUE_SIZE",
    "VARIANTS",
    "WIDTH",
    "View",
    "_categories",
    "_cities",
    "_city_and_tracks",
    "_city_card",
    "_effects",
    "_end_notes",
    "_goals",
    "_hatch",
    "_heading",
    "_key",
    "_legend",
    "_lines",
    "_main_board",
    "_names",
    "_paint_turn",
    "_passages",
    "_passages_of",
    "_player_strip",
    "_reserve",
    "_road",
    "_strips",
    "_subtitle",
    "_title",
    "_type_name",
    "_type_of",
    "board_image",
    "board_title",
    "changed_plots",
    "draw_city",
    "draw_tracks",
    "end_image",
    "tile_sprite",
    "tracks_height",
    "turn_image",
    "turn_title",
]
