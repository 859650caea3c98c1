"""Short labels for moves, shared by the Discord presenters and the terminal (no Discord here).

Each game may register a function ``(move, view, locale) -> str``; otherwise the catalogue key
``<game>.move.<kind>`` is used with the move's fields, and at last the move's fields themselves.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from bot.i18n import t

LABEL_LIMIT = 80
Labeller = Callable[[dict[str, Any], dict[str, Any], str], "str | None"]
LABELLERS: dict[str, Labeller] = {}


def move_label(game: str, move: dict[str, Any], view: dict[str, Any], locale: str = "en") -> str:
    special = LABELLERS.get(game)
    text = special(move, view, locale) if special is not None else None
    if text is None:
        key = f"{game}.move.{move.get('kind')}"
        params = {k: v for k, v in move.items() if k not in ("kind", "at")}
        text = t(key, locale, **params)
        if text == key:
            text = " ".join([str(move.get("kind", "?"))] + [f"{k} {v}" for k, v in params.items()])
    return text[:LABEL_LIMIT]


# -- Quadropolis -------------------------------------------------------------------------------
QP_SITE_SIZE = 5


def qp_slot_target(slot: str, architect: int) -> tuple[int, int]:
    """The site square (1-based row, column) an architect in a slot points at."""
    side, line = slot[0], int(slot[1:])
    if side == "L":
        return line, architect
    if side == "R":
        return line, QP_SITE_SIZE + 1 - architect
    if side == "T":
        return architect, line
    return QP_SITE_SIZE + 1 - architect, line


def _quadropolis(move: dict[str, Any], view: dict[str, Any], locale: str) -> str | None:
    kind = move.get("kind")
    if kind == "take":
        row, col = qp_slot_target(str(move["slot"]), int(move["architect"]))
        square = view["site"]["squares"][row - 1][col - 1]
        if square.get("state") == "tile":
            what = square["tile"]["label"]
        elif square.get("state") == "face_down":
            what = t("quadropolis.ui.face_down", locale)
        else:
            what = t("quadropolis.ui.empty", locale)
        return t("quadropolis.ui.take", locale, architect=move["architect"], slot=move["slot"], what=what)
    if kind == "build":
        return str(move["square"]) + (f" ▲{move['floor']}" if "floor" in move else "")
    if kind == "discard":
        return t("quadropolis.ui.discard", locale)
    return None


LABELLERS["quadropolis"] = _quadropolis


# -- Between Two Cities -------------------------------------------------------------------------
def _btc_tiles(view: dict[str, Any], locale: str = "en") -> dict[int, str]:
    """Names of the tiles this seat may see (its hand, its choice, its tiles to place)."""
    you = view.get("you") or {}
    names: dict[int, str] = {}
    for group in ("hand", "choice", "to_place"):
        for tile in you.get(group) or []:
            name = str(tile.get("name", tile["id"]))
            if tile.get("orientation") in ("vertical", "horizontal"):  # a duplex keeps its printed way
                name = t(f"btc.ui.duplex_{tile['orientation']}", locale, name=name)
            names[int(tile["id"])] = name
    return names


def _btc_city(view: dict[str, Any], city: int) -> str:
    for c in view.get("cities", []):
        if int(c["city"]) == city:
            return str(c.get("name", city))
    return str(city)


def _btc(move: dict[str, Any], view: dict[str, Any], locale: str) -> str | None:
    kind = move.get("kind")
    names = _btc_tiles(view, locale)

    def name(tile: Any) -> str:
        return names.get(int(tile), f"#{tile}")

    if kind == "choose" and "tiles" in move:
        return t("btc.ui.keep", locale, a=name(move["tiles"][0]), b=name(move["tiles"][1]))
    if kind == "choose":
        return t("btc.ui.keep_duplexes", locale, left=name(move["left"]), right=name(move["right"]))
    if kind in ("place", "turned"):
        return t(f"btc.ui.{kind}", locale, tile=name(move["tile"]), city=_btc_city(view, int(move["city"])),
                 cell=move["cell"])
    if kind == "you_first":
        return t("btc.ui.you_first", locale, city=_btc_city(view, int(move["city"])))
    if kind == "assign" and "auto" in move:
        return t("btc.ui.assign_simple", locale, left=name(move["left"]), right=name(move["right"]),
                 auto=name(move["auto"]))
    if kind == "assign":
        return t("btc.ui.assign", locale, left=name(move["left"]), right=name(move["right"]))
    if kind == "bonus":
        return t("btc.ui.bonus", locale, type=move["type"], city=_btc_city(view, int(move["city"])))
    return None


LABELLERS["btc"] = _btc


# -- Urban Panic --------------------------------------------------------------------------------
def _urbanpanic(move: dict[str, Any], view: dict[str, Any], locale: str) -> str | None:
    kind = move.get("kind")
    if kind == "architect":
        slot = int(move["slot"])
        slots = (view.get("main_board") or {}).get("slots") or []
        tile = slots[slot - 1] if 0 < slot <= len(slots) else None
        return t("urbanpanic.ui.architect", locale, tile=tile or "?", slot=slot)
    if kind == "planner":
        return t("urbanpanic.ui.planner", locale, tile=move["tile"], plot=move["plot"])
    if kind == "engineer_board":
        return t("urbanpanic.ui.engineer_board", locale, plot=move["plot"], other=move["other"])
    if kind == "engineer_reserve":
        return t("urbanpanic.ui.engineer_reserve", locale, tile=move["tile"], plot=move["plot"])
    if kind == "spy":
        victim = int(move["victim"])
        return t("urbanpanic.ui.spy", locale, tile=move["tile"], plot=move["plot"],
                 victim=t("urbanpanic.ui.seat", locale, n=victim + 1))
    if kind in ("mayor", "end_turn", "draw", "drop"):
        return t(f"urbanpanic.ui.{kind}", locale)
    if kind == "take":
        return t("urbanpanic.ui.take", locale, tile=move["tile"])
    if kind == "place":
        return str(move["plot"])
    return None


LABELLERS["urbanpanic"] = _urbanpanic
