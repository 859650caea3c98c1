"""The board as a place to tap (issue 38): a seated player's own picture and the choices on it.

:func:`play_picture` draws the seat's turn picture from its own view (``view(state, seat)``: the same
view its private messages show, with its hand), and :func:`play_data` says where on that picture each of
the seat's legal moves is made: the regions the renderer drew (``render.common.mark_region``, recorded
while the picture is drawn, so the picture is byte for byte the one drawn without recording) and a tree
of steps, each a question with its options (a tap on a region, or a button where a move has no place on
the picture), whose leaves are exactly ``rules.legal_moves(state, seat)``, each with the sentence that
tells it before it is sent. ``static/board.js`` lays the options over the picture.

A target must be at least :data:`TARGET` CSS pixels on a :data:`PHONE_WIDTH` px wide phone: a step whose
regions are smaller on the whole picture names a ``zoom`` box, the part of the picture the script
enlarges to the phone's width for that step; options that would stay too small even then are buttons.
Only the seat's own data is here: the page serves it to that seat's session alone. ``play_data`` draws the picture
for its regions and ``play.png`` asks for the same picture next: :data:`kept` keeps the last drawings by game, seat,
language and names, each served again only for the very state object it was drawn from."""

from __future__ import annotations

import struct
import threading
from collections import OrderedDict
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from bot import games
from bot.i18n import t
from bot.service.model import GameInfo
from bot.web.boardpaths import Ask, Pick, ways
from render import pictures
from render.common import Box, record_text

PHONE_WIDTH = 390
"""The narrowest phone the page is laid out for, in CSS pixels."""
TARGET = 44
"""The smallest target, in CSS pixels at :data:`PHONE_WIDTH` (WCAG 2.5.5, Apple's and Google's guides)."""
PAD = 12
"""Picture pixels kept around a zoomed step's regions."""
TEXTS = ("confirm", "back", "sending", "failed", "your_move", "chosen")
KEPT = 16
"""Seats' drawings kept (:class:`Kept`)."""


def _names(info: GameInfo) -> list[str]:
    return [info.name(seat) for seat in range(len(info.seats))]


class Kept:
    """The last drawings of seats' pictures, each with the very state object it was drawn from. A page asks for
    ``play.json`` (the regions) and ``play.png`` (the picture) of one version one after the other, and the service
    reads the same state object for both (its cache of the game's current state), so the second is the first's
    drawing; any other state (another version, another object of the same version) is drawn anew. A kept state
    is held, so no other object can take its identity while it is kept."""

    def __init__(self, size: int = KEPT) -> None:
        self.size = size
        self._items: OrderedDict[tuple[Any, ...], tuple[Any, bytes, dict[str, Box]]] = OrderedDict()
        self._lock = threading.Lock()  # the drawings are made in worker threads

    def get(self, key: tuple[Any, ...], state: Any) -> tuple[bytes, dict[str, Box]] | None:
        with self._lock:
            kept = self._items.get(key)
            if kept is None or kept[0] is not state:
                return None
            self._items.move_to_end(key)
            return kept[1], dict(kept[2])

    def put(self, key: tuple[Any, ...], state: Any, png: bytes, regions: dict[str, Box]) -> None:
        with self._lock:
            self._items[key] = (state, png, dict(regions))
            self._items.move_to_end(key)
            while len(self._items) > self.size:
                self._items.popitem(last=False)


kept = Kept()


def drawn(info: GameInfo, seat: int, state: Any, locale: str) -> tuple[bytes, dict[str, Box]]:
    """The seat's turn picture (PNG) and the regions drawn on it, by id (the same state's last drawing for the
    seat, language and names, if :data:`kept`)."""
    game = games.get(info.game.kind)
    renderer = pictures.get(info.game.kind)
    if renderer is None:  # a game without pictures: no picture, every choice a button
        return b"", {}
    key = (info.id, info.game.kind, seat, locale, tuple(_names(info)))
    found = kept.get(key, state)
    if found is not None:
        return found
    view = game.rules.view(state, seat)
    with record_text() as recorder:
        png = renderer.render_turn(view, seat, _names(info), locale=locale)
        regions = {region.id: region.box for region in recorder.picture_regions()}
    kept.put(key, state, png, regions)
    return png, regions


def play_picture(info: GameInfo, seat: int, state: Any, locale: str) -> bytes:
    """The seat's own picture, as the game's renderer draws its turn from ``view(state, seat)`` (empty for
    a game without pictures)."""
    return drawn(info, seat, state, locale)[0]


def png_size(png: bytes) -> tuple[int, int]:
    """(width, height) from a PNG's header; (0, 0) for no picture."""
    if len(png) < 24:
        return 0, 0
    width, height = struct.unpack(">II", png[16:24])
    return int(width), int(height)


@dataclass
class _Node:
    """A step being built: its options by key, in the order first met."""

    prompt: str = ""
    options: dict[str, tuple[Pick, _Node | None, dict[str, Any] | None]] = field(default_factory=dict)


def _insert(root: _Node, path: Sequence[Pick], move: dict[str, Any]) -> None:
    node = root
    for i, pick in enumerate(path):
        node.prompt = node.prompt or pick.prompt
        last = i == len(path) - 1
        known = node.options.get(pick.key)
        if known is None:
            known = (pick, None if last else _Node(), move if last else None)
            node.options[pick.key] = known
        if last:
            return
        child = known[1]
        assert child is not None, f"a move's way passes through another move's leaf: {pick.key}"
        node = child


def zoom_for(boxes: Sequence[Box], width: int, height: int) -> tuple[list[int] | None, bool]:
    """The part of the picture a step shows (None: the whole picture) and whether its regions are then
    at least :data:`TARGET` CSS px on a :data:`PHONE_WIDTH` px wide phone."""
    if not boxes:
        return None, True
    smallest = min(min(b[2] - b[0], b[3] - b[1]) for b in boxes)
    widest = int(PHONE_WIDTH * smallest / TARGET)  # the widest view where the smallest still makes TARGET
    if width <= widest:
        return None, True
    x0 = max(0, min(b[0] for b in boxes) - PAD)
    x1 = min(width, max(b[2] for b in boxes) + PAD)
    y0 = max(0, min(b[1] for b in boxes) - PAD)
    y1 = min(height, max(b[3] for b in boxes) + PAD)
    if x1 - x0 > widest:
        return None, False
    left = max(0, min(width - widest, (x0 + x1) // 2 - widest // 2))
    return [left, y0, left + widest, y1], True


def scale_of(zoom: Sequence[int] | None, width: int) -> float:
    """CSS px per picture px at :data:`PHONE_WIDTH` for a step shown with ``zoom``."""
    return PHONE_WIDTH / ((zoom[2] - zoom[0]) if zoom else width)


def around(zoom: Sequence[int] | None, boxes: Sequence[Box], width: int, height: int) -> list[int] | None:
    """A step of buttons only keeps the step before's zoom, grown to show the places its buttons light."""
    if zoom is None or not boxes:
        return None
    x0, y0 = min([zoom[0], *(b[0] - PAD for b in boxes)]), min([zoom[1], *(b[1] - PAD for b in boxes)])
    x1, y1 = max([zoom[2], *(b[2] + PAD for b in boxes)]), max([zoom[3], *(b[3] + PAD for b in boxes)])
    return [max(0, x0), max(0, y0), min(width, x1), min(height, y1)]


def _step(
    node: _Node,
    regions: dict[str, Box],
    size: tuple[int, int],
    trail: tuple[str, ...],
    sentence: Any,
    used: dict[str, str],
    before: list[int] | None = None,
) -> dict[str, Any]:
    tapped = [pick.region for pick, _, _ in node.options.values() if pick.region in regions]
    zoom, fits = zoom_for([regions[r] for r in tapped if r is not None], *size)
    if not tapped:
        shown = [regions[m] for pick, _, _ in node.options.values() for m in pick.marks if m in regions]
        zoom = around(before, shown, *size)
    options = []
    for pick, child, move in node.options.values():
        region = pick.region if pick.region in regions and fits else None
        lit = tuple(r for r in (pick.region, *pick.marks) if r in regions)
        for r in lit:
            used.setdefault(r, pick.label)
        option: dict[str, Any] = {"id": pick.key, "label": pick.label, "region": region, "marks": list(lit)}
        if child is not None:
            option["next"] = _step(child, regions, size, trail + lit, sentence, used, zoom)
        else:
            option["move"] = move
            option["sentence"] = sentence(move, pick)
            option["marks"] = list(dict.fromkeys(trail + lit))
        options.append(option)
    return {"prompt": node.prompt, "zoom": zoom, "options": options}


def play_data(info: GameInfo, seat: int, state: Any, locale: str) -> dict[str, Any]:
    """Where and how the seat makes each of its legal moves now, for ``static/board.js`` (JSON-able):
    ``width``/``height`` of :func:`play_picture`'s picture, ``regions`` (id, box in its pixels, label),
    ``root`` (the first step: ``prompt``, ``zoom`` box or None, ``options``: ``id``, ``label``, ``region``
    (a tap there) or None (a button), ``marks`` (regions lit), then ``next`` (the next step) or ``move``
    (the whole move) with its ``sentence``), and the page's ``texts``."""
    kind = info.game.kind
    rules = games.rules(kind)
    view = rules.view(state, seat)
    png, regions = drawn(info, seat, state, locale)
    size = png_size(png)
    ask = Ask(kind, view, seat, locale, _names(info))
    root = _Node()
    for move in rules.legal_moves(state, seat):
        plain = {k: v for k, v in move.items() if k != "at"}
        for path in ways(kind, plain, ask):
            _insert(root, path, plain)

    def sentence(move: dict[str, Any], pick: Pick) -> str:
        return t("web.board.preview", locale, move=pick.says or ask.label(move))

    used: dict[str, str] = {}
    tree = _step(root, regions, size, (), sentence, used)
    return {
        "width": size[0],
        "height": size[1],
        "regions": [{"id": r, "box": list(regions[r]), "label": label} for r, label in used.items()],
        "root": tree,
        "texts": {name: t(f"web.board.{name}", locale) for name in TEXTS},
    }


def leaves(step: dict[str, Any]) -> list[dict[str, Any]]:
    """Every move at the end of a step's options (the tests compare them with the legal moves)."""
    found: list[dict[str, Any]] = []
    for option in step["options"]:
        found += leaves(option["next"]) if "next" in option else [option["move"]]
    return found
