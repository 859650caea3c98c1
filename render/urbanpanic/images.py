"""Urban Panic's pictures: the turn (the main board, the reserve, the acting player's city and tracks),
the board (every city) and the end (every city, the goals and the score table)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, cast

from PIL import Image, ImageDraw

from bot.i18n import t
from bot.rules.urbanpanic.viewtypes import UpPlayer, UpSeatDetails
from render import common as c
from render.scores import decided_note, score_table_from_result
from render.urbanpanic.base import CATEGORIES, GAP, LABEL_SPACE, MARGIN, SIZE, WIDTH, View, _names
from render.urbanpanic.city import draw_city, tile_sprite
from render.urbanpanic.panels import (
    KEY,
    NAME_SIZE,
    SMALL,
    TEXT_SIZE,
    _heading,
    _legend,
    _lines,
    _player_strip,
    _strips,
    _subtitle,
    _title,
    changed_plots,
    draw_tracks,
    tracks_height,
)

# ---------------------------------------------------------------------------------------------
# Images
# ---------------------------------------------------------------------------------------------


def _main_board(img: Image.Image, xy: tuple[int, int], width: int, view: View, locale: str = "en") -> int:
    """The four face-up tiles, numbered, and the stack (the party game: the open table and the pool);
    returns the bottom y."""
    draw = ImageDraw.Draw(img)
    x, y = xy
    board = view.get("main_board")
    party = view.get("party")
    if board is None and party is not None:
        y = _heading(draw, (x, y), t("urbanpanic.render.open_table", locale), width)
        size = 96
        per_row = max(1, width // (size + 8))
        opened = party.get("open_table") or []
        for k, code in enumerate(opened):
            r, col = divmod(k, per_row)
            img.paste(tile_sprite(code, size, locale), (x + col * (size + 8), y + r * (size + 8)))
            c.mark_region(
                img,
                f"table:{k}",
                (x + col * (size + 8), y + r * (size + 8), x + col * (size + 8) + size, y + r * (size + 8) + size),
            )
        if not opened:
            y = _lines(
                draw,
                (x, y),
                t("urbanpanic.render.nothing_face_up", locale),
                width,
                TEXT_SIZE,
                False,
                c.MUTED,
                key=False,
            )
        else:
            y += ((len(opened) + per_row - 1) // per_row) * (size + 8)
        y += 6
        if party.get("timer_running"):
            c.draw_icon(img, "waiting", (x, y, x + 36, y + 36))
            y = max(
                y + 40,
                _lines(
                    draw, (x + 44, y + 2), t("urbanpanic.render.hourglass", locale), width - 44, 28, True, key=False
                ),
            )
        pool = t("urbanpanic.render.pool", locale, count=party.get("pool", 0))
        return _lines(draw, (x, y), pool, width, TEXT_SIZE, key=False) + 6
    y = _heading(draw, (x, y), t("urbanpanic.render.main_board", locale), width)
    size = 104
    nf = c.font(28, True)
    for k, slot in enumerate(((board.get("slots") if board else None) or [None] * 4)[:4]):
        sx = x + k * (size + 14)
        if slot:
            img.paste(tile_sprite(slot, size, locale), (sx, y))
        else:
            draw.rounded_rectangle(
                (sx, y, sx + size, y + size), radius=size // 10, fill=c.EMPTY_CELL, outline=c.GRID_LINE, width=2
            )
            empty = t("urbanpanic.render.empty", locale)
            c.draw_fitted(
                draw, (sx + size / 2, y + size / 2), empty, size - 8, 22, False, c.MUTED, "mm", SMALL, key=False
            )
        c.draw_text(draw, (sx + size / 2, y + size + 4), str(k + 1), nf, c.INK, "ma", key=False)
        c.mark_region(img, f"board:{k + 1}", (sx, y, sx + size, y + size + 36))
    c.mark_region(img, "stack", (sx, y, sx + size - 12, y + size + 36))
    sx = x + 4 * (size + 14) + 10
    c.draw_face_down(img, (sx, y + 6, sx + size - 12, y + size - 6))
    stack = t("urbanpanic.render.stack", locale, count=board.get("stack", 0) if board else 0)
    c.draw_fitted(
        draw,
        (sx + (size - 12) / 2, y + size + 4),
        stack,
        WIDTH - MARGIN - sx + 40,
        26,
        True,
        c.INK,
        "ma",
        20,
        key=False,
    )
    return y + size + 40


def _reserve(
    img: Image.Image, xy: tuple[int, int], width: int, player: UpPlayer, title: str, locale: str = "en"
) -> int:
    draw = ImageDraw.Draw(img)
    x, y = xy
    y = _heading(draw, (x, y), title, width)
    size = 96
    if "hand" in player:
        items = [player.get("hand")]
        slots = 1
    else:
        items = list(player.get("reserve") or [])
        slots = 3
    for k in range(slots):
        sx = x + k * (size + 12)
        code = items[k] if k < len(items) else None
        c.mark_region(img, "hand" if "hand" in player else f"reserve:{k}", (sx, y, sx + size, y + size))
        if code and code != "hidden":
            img.paste(tile_sprite(str(code), size, locale), (sx, y))
        elif code == "hidden":
            c.draw_face_down(img, (sx, y, sx + size, y + size))
        else:
            draw.rounded_rectangle((sx, y, sx + size, y + size), radius=size // 10, outline=c.GRID_LINE, width=2)
    return y + size + 12


CITIES_TOP = 400
"""At most the title and the legend around the cities of the board and end pictures."""
CITY_ROW = 640
"""About the height of one city card (its strip, the city beside its tracks, the gap): the sample games'
are 590-620; a picture whose cities are taller is drawn again on a taller canvas (:func:`render.common.sized`)."""
CITY_WIDTH = 496
"""The city grid's width with its labels, left of the tracks (a 92 px plot: 31 px on a phone)."""


def _city_and_tracks(
    img: Image.Image,
    top: int,
    view: View,
    seat: int,
    scored: UpSeatDetails | None,
    highlight: Sequence[str],
    locale: str = "en",
) -> int:
    """A city (left) and its tracks (right); returns the bottom y."""
    player = (view.get("players") or [])[seat]
    cell = (CITY_WIDTH - LABEL_SPACE) // SIZE
    removed = [str(r.get("plot")) for r in (scored.get("removed") if scored else None) or []]
    geo = draw_city(
        img, (MARGIN, top), player.get("grid") or [], cell, removed=removed, highlight=highlight, locale=locale
    )
    tracks = list((scored.get("tracks_final") if scored else None) or player.get("tracks") or [0] * 5)
    lost = None
    if scored:
        played = list(scored.get("tracks_played") or tracks)
        lost = [played[i] - tracks[i] if played[i] > tracks[i] else 0 for i in range(len(tracks))]
    rx = MARGIN + CITY_WIDTH + 2 * GAP
    bottom = draw_tracks(
        img,
        (rx, top + 4, WIDTH - MARGIN, top + 4 + tracks_height()),
        tracks,
        int((view.get("legend") or {}).get("floor", -5)),
        lost,
        locale=locale,
    )
    return max(geo.box[3], bottom)


def turn_image(view: View, acting_seat: int, names: Sequence[str] | None = None, *, locale: str = "en") -> Image.Image:
    """Portrait, for a phone: the players one per row (whose turn, built counts), the acting player's city
    with its roads (this turn's plots outlined) beside its tracks, the main board and the reserve, the
    actions left, the goals and the legend."""
    who = _names(view, names, locale)
    players = view.get("players") or []
    if not 0 <= acting_seat < len(players):
        acting_seat = 0
    player = players[acting_seat] if players else cast(UpPlayer, {})
    estimate = 1400 + 110 * len(players) + 100 * len(view.get("goals") or [])
    return c.sized(WIDTH, estimate, lambda img, draw: _paint_turn(img, draw, view, acting_seat, player, who, locale))


def _paint_turn(
    img: Image.Image,
    draw: ImageDraw.ImageDraw,
    view: View,
    acting_seat: int,
    player: UpPlayer,
    who: list[str],
    locale: str,
) -> int:
    players = view.get("players") or []
    c.title_bar(draw, WIDTH, _title(view, locale), _subtitle(view, locale))
    y = _strips(img, c.TITLE_HEIGHT + GAP, view, who, locale) + GAP
    name = who[acting_seat] if who else "?"
    y = (
        _lines(
            draw,
            (MARGIN, y),
            t("render.city_of", locale, name=name),
            WIDTH - 2 * MARGIN,
            NAME_SIZE,
            True,
            key=True,
            min_size=KEY,
            max_lines=2,
        )
        + 14
    )
    if players:
        y = _city_and_tracks(img, y, view, acting_seat, None, changed_plots(view, acting_seat), locale)
    linked = int(player.get("reachable", 0))
    built = int(player.get("tiles", 0))
    if built - linked > 0:
        note = t("urbanpanic.render.plots_cut", locale, built=built, linked=linked, cut=built - linked)
    else:
        note = t("urbanpanic.render.plots", locale, built=built, linked=linked)
    y = _lines(draw, (MARGIN, y + 10), note, WIDTH - 2 * MARGIN, TEXT_SIZE, key=False) + GAP
    lines = []
    if view.get("current") == acting_seat and not view.get("over") and "points" in view:
        lines.append(t("urbanpanic.render.actions_left", locale, count=view.get("points", 0)))
        if view.get("architect_owed"):
            lines.append(t("urbanpanic.render.architect_owed", locale))
    if view.get("last_turn"):
        lines.append(t("urbanpanic.render.last_turn", locale))
    first = view.get("first_finisher")
    if first is not None and not view.get("over"):
        lines.append(t("urbanpanic.render.filled", locale, name=who[int(first)]))
    for line in lines:
        y = _lines(draw, (MARGIN, y), line, WIDTH - 2 * MARGIN, 28, True, key=False)
    y += 6 if lines else 0
    draw.line((MARGIN, y, WIDTH - MARGIN, y), fill=c.PANEL_EDGE, width=2)
    y += GAP
    board_w = 4 * 118 + 10 + 104 + 60
    by = _main_board(img, (MARGIN, y), board_w, view, locale)
    rx = MARGIN + board_w + 2 * GAP
    ry = _reserve(
        img,
        (rx, y),
        WIDTH - MARGIN - rx,
        player,
        t("urbanpanic.render.hand" if "hand" in player else "urbanpanic.render.reserve", locale),
        locale,
    )
    y = max(by, ry) + GAP
    y = _goals(img, (MARGIN, y), WIDTH - 2 * MARGIN, view, locale)
    return _legend(img, y + GAP, view, locale)


def _goals(img: Image.Image, xy: tuple[int, int], width: int, view: View, locale: str = "en") -> int:
    goals = view.get("goals") or []
    if not goals:
        return xy[1]
    draw = ImageDraw.Draw(img)
    x, y = xy
    y = _heading(draw, (x, y), t("urbanpanic.render.goals", locale), width)
    for g in goals:
        text = t(
            "urbanpanic.render.goal_line", locale, id=g.get("id", ""), title=t(str(g.get("title_key", "")), locale)
        )
        y = _lines(draw, (x, y), text, width, TEXT_SIZE, key=False, max_lines=3) + 4
    return y


def _city_card(
    img: Image.Image, y: int, view: View, seat: int, name: str, scored: UpSeatDetails | None, locale: str = "en"
) -> int:
    """A player's strip over their city and tracks; returns the bottom y."""
    y += _player_strip(img, (MARGIN, y, WIDTH - MARGIN, y), view, seat, name, locale) + 10
    highlight = () if scored else changed_plots(view, seat)
    return _city_and_tracks(img, y, view, seat, scored, highlight, locale)


def _cities(img: Image.Image, top: int, view: View, who: list[str], scored: bool, locale: str = "en") -> int:
    """Every city, one per row."""
    details: dict[int, UpSeatDetails] = {}
    result = view.get("result")
    if scored and result:
        # a seat without details is drawn as unscored, like an empty one
        details = {s["seat"]: s["details"] for s in result.get("seats") or [] if s.get("details")}
    y = top
    for seat, name in enumerate(who):
        y = _city_card(img, y, view, seat, name, details.get(seat), locale) + 2 * GAP
    return y


def board_image(view: View, names: Sequence[str] | None = None, *, locale: str = "en") -> Image.Image:
    """Every city with its roads and tracks, one per row (the last turn's plots outlined)."""
    who = _names(view, names, locale)

    def paint(img: Image.Image, draw: ImageDraw.ImageDraw) -> int:
        c.title_bar(draw, WIDTH, _title(view, locale), _subtitle(view, locale))
        return _legend(img, _cities(img, c.TITLE_HEIGHT + GAP, view, who, False, locale), view, locale)

    return c.sized(WIDTH, CITIES_TOP + len(who) * CITY_ROW, paint)


def _categories(view: View, locale: str) -> list[tuple[str, str, str | None]]:
    variant = str(view.get("variant"))
    return [
        (cid, t(label_id, locale), key)
        for cid, label_id, key in CATEGORIES
        if (cid != "goals" or variant == "advanced") and (cid != "bonus" or variant == "party")
    ]


def _end_notes(view: View, result: Mapping[str, Any], who: list[str], locale: str) -> list[str]:
    """What ended the game, what decided a tie, and who won which goal, as sentences under the scores."""
    notes = []
    reason = str((result.get("details") or {}).get("end_reason") or view.get("end_reason") or "")
    if reason:
        notes.append(t(f"urbanpanic.end.{reason}", locale))
    decided = decided_note(str(result.get("decided_by", "")), locale, ("score", "urbanpanic.tiebreak.score"))
    if decided:
        notes.append(decided)
    won = []
    for s in result.get("seats") or []:
        goals = (s.get("details") or {}).get("goals_won") or []
        if goals:
            titles = c.join_names((t(f"urbanpanic.goal.{g}", locale) for g in goals), locale)
            won.append(t("urbanpanic.render.goals_won_item", locale, name=who[s["seat"]], goals=titles))
    if won:
        notes.append(t("urbanpanic.render.goals_won", locale, list=t("render.list.group_separator", locale).join(won)))
    return notes


def end_image(view: View, names: Sequence[str] | None = None, *, locale: str = "en") -> Image.Image:
    """The final scores first (the shared score table: names and totals at a glance, each category's points),
    then every city as scored (cut-off tiles removed, final tracks, what removal lost outlined), one per row."""
    who = _names(view, names, locale)
    result = view.get("result")
    table = (
        score_table_from_result(
            t("urbanpanic.render.title.final_scores", locale),
            who,
            result,
            _categories(view, locale),
            subtitle=_subtitle(view, locale),
            note=" ".join(_end_notes(view, result, who, locale)),
            locale=locale,
        )
        if result
        else None
    )
    top = table.height if table is not None else 0

    def paint(img: Image.Image, draw: ImageDraw.ImageDraw) -> int:
        c.title_bar(draw, WIDTH, t("urbanpanic.render.title.final_cities", locale), _subtitle(view, locale), top=top)
        return _legend(img, _cities(img, top + c.TITLE_HEIGHT + GAP, view, who, True, locale), view, locale)

    return c.sized(WIDTH, CITIES_TOP + len(who) * CITY_ROW, paint, table)
