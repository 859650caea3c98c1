"""Urban Panic's glyphs, picture sizes and colours, the tracks and tile types the pictures name, and the
small helpers every part uses (names, a tile's type and passages)."""

from __future__ import annotations

from collections.abc import Sequence

from bot.i18n import t
from bot.rules.urbanpanic.viewtypes import UpCell, UpView
from render import common as c

c.register_glyphs(
    "urbanpanic",
    {  # letters of the rules file, section 2.2
        "housing": c.Glyph(c.RESIDENTIAL, c.PAINTERS["house"], "H", "urbanpanic.render.kind.housing"),
        "offices": c.Glyph(c.OFFICE, c.PAINTERS["office"], "O", "urbanpanic.render.kind.offices"),
        "amusement": c.Glyph(c.LEISURE, c.PAINTERS["ferris"], "A", "urbanpanic.render.kind.amusement"),
        "factory": c.Glyph(c.INDUSTRY, c.PAINTERS["factory"], "F", "urbanpanic.render.kind.factory"),
        "power": c.Glyph(c.ENERGY_SUPPLY, c.PAINTERS["power"], "P", "urbanpanic.render.kind.power"),
        "park": c.Glyph(c.GREEN, c.PAINTERS["park"], "G", "urbanpanic.render.kind.park"),
    },
    aliases={
        "hou": "housing",
        "off": "offices",
        "amu": "amusement",
        "fac": "factory",
        "pow": "power",
        "prk": "park",
        "house": "housing",
        "office": "offices",
        "amusement_park": "amusement",
        "power_plant": "power",
    },
)

View = UpView
"""The view this module draws (``bot.rules.urbanpanic.viewtypes``)."""

WIDTH = c.IMAGE_WIDTH
MARGIN = 20
GAP = 12
SIZE = 5
LABEL_SPACE = 36
ROAD = (70, 70, 74)
ROAD_OFF = (190, 186, 180)
LINKED_PLOT = (226, 238, 228)
CUT_PLOT = (236, 226, 222)
TRACKS = ("residents", "jobs", "ecology", "income", "satisfaction")
"""The five tracks in view order; each names its icon and its catalogue ids (``urbanpanic.render.track.<id>``)."""
TYPE_KEYS = {
    "HOU": "urbanpanic.housing",
    "OFF": "urbanpanic.offices",
    "AMU": "urbanpanic.amusement",
    "FAC": "urbanpanic.factory",
    "POW": "urbanpanic.power",
    "PRK": "urbanpanic.park",
}
CATEGORIES: tuple[tuple[str, str, str | None], ...] = (
    ("residents", "urbanpanic.render.cat.residents", "residents"),
    ("jobs", "urbanpanic.render.cat.jobs", "jobs"),
    ("ecology", "urbanpanic.render.cat.ecology", "ecology"),
    ("income", "urbanpanic.render.cat.income", "income"),
    ("satisfaction", "urbanpanic.render.cat.satisfaction", "satisfaction"),
    ("empty_plots", "urbanpanic.render.cat.empty_plots", "empty_plot"),
    ("unemployment", "urbanpanic.render.cat.unemployment", "penalty"),
    ("goals", "urbanpanic.render.cat.goals", "points"),
    ("bonus", "urbanpanic.render.cat.bonus", "first"),
)
"""Score categories in table order: (id in the result, catalogue id of the column label, icon)."""
DIRS = {"N": (-1, 0), "E": (0, 1), "S": (1, 0), "W": (0, -1)}
OPPOSITE = {"N": "S", "S": "N", "E": "W", "W": "E"}
VARIANTS = ("basic", "advanced", "party")
"""Variants with a name in the catalogue (``urbanpanic.render.variant.<variant>``)."""


# ---------------------------------------------------------------------------------------------
# Helpers
# ---------------------------------------------------------------------------------------------


def _names(view: View, names: Sequence[str] | None, locale: str = "en") -> list[str]:
    count = len(view.get("players") or [])
    given = list(names or [])
    return [given[i] if i < len(given) and given[i] else t("render.player_n", locale, n=i + 1) for i in range(count)]


def _type_of(code: str) -> str:
    return code.split("-")[0].upper()


def _passages_of(code: str) -> str:
    return code.split("-")[1].upper() if "-" in code else ""


def _key(type_id: str) -> str:
    return TYPE_KEYS.get(type_id.upper(), c.glyph_key("urbanpanic", type_id))


def _passages(cell: UpCell) -> str:
    if not cell:
        return ""
    if cell.get("centre"):
        return "NESW"
    return str(cell.get("passages") or _passages_of(str(cell.get("tile", ""))))
