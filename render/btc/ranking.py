"""Between Two Cities: the final ranking that heads the end picture (:func:`_paint_ranking`: a row per seat
and Automa, best first, the winner's line and the scoring rule), its bound, and the provisional result an
unfinished game is ranked by.

Split from ``render/btc/images.py`` (the module budget, ARCHITECTURE.md), which re-exports its names."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, cast

from PIL import Image, ImageDraw

from bot.i18n import t
from bot.rules.btc.viewtypes import BtcPlayer
from render import common as c
from render.btc.base import DETAIL_TEXT, GAP, HEADING_TEXT, MARGIN, NAME_TEXT, RANK_ROW, WIDTH, View
from render.btc.city import _city_name, _wrapped
from render.btc.players import _subtitle, _title_bar, player_scores
from render.scores import decided_note


def _ranked(result: Mapping[str, Any]) -> list[Any]:
    """The seats and Automas of a result, best first."""
    automas = (result.get("details") or {}).get("automas") or []
    return sorted([*(result.get("seats") or []), *automas], key=lambda s: (s["rank"], s["seat"]))


def _ranking_bound(seats: Sequence[Any]) -> int:
    return c.TITLE_HEIGHT + 140 + len(seats) * (RANK_ROW + 8) + 400


def _paint_ranking(
    img: Image.Image,
    draw: ImageDraw.ImageDraw,
    view: View,
    result: Mapping[str, Any],
    seats: list[Any],
    who: list[str],
    locale: str,
) -> int:
    cities = {cty.get("city"): cty for cty in view.get("cities") or []}
    players = view.get("players") or []
    rest = _title_bar(draw, t("btc.render.title.final_scores", locale), _subtitle(view, locale))
    y = c.TITLE_HEIGHT + GAP
    if rest:
        y = _wrapped(draw, (MARGIN, y), rest, WIDTH - 2 * MARGIN, HEADING_TEXT, False, c.INK, key=False) + 2
    rank_font, total_font = c.font(44, True), c.font(52, True)
    detail_font = c.font(DETAIL_TEXT)
    for pos, s in enumerate(seats):
        seat = int(s["seat"])
        p = players[seat] if seat < len(players) else cast(BtcPlayer, {})
        first = s.get("rank") == 1
        y0, y1 = y, y + RANK_ROW
        colour = c.tint(c.HIGHLIGHT, 0.6) if first else (c.PANEL if pos % 2 == 0 else (247, 245, 240))
        draw.rounded_rectangle(
            (MARGIN, y0, WIDTH - MARGIN, y1),
            radius=14,
            fill=colour,
            outline=c.INK if first else c.PANEL_EDGE,
            width=3 if first else 2,
        )
        cy = (y0 + y1) / 2
        x = MARGIN + 14
        if first:
            c.draw_icon(img, "winner", (x, int(cy - 22), x + 44, int(cy + 22)))
        c.draw_text(draw, (x + 78, cy), str(s["rank"]), rank_font, c.INK, "mm", key=True)
        x += 112
        msz = 60
        c.seat_marker(img, seat, (x, int(cy - msz / 2), x + msz, int(cy + msz / 2)))
        x += msz + 14
        total = str(s["total"])
        right = WIDTH - MARGIN - 18
        c.draw_text(draw, (right, cy), total, total_font, c.INK, "rm", key=True)
        right -= c.text_width(total, total_font) + 14
        c.draw_icon(img, "points", (right - 46, int(cy - 23), right, int(cy + 23)))
        right -= 46 + 24
        name, nfont = c.fit_text(who[seat] if seat < len(who) else "?", right - x, NAME_TEXT, True, c.KEY_TEXT)
        c.draw_text(draw, (x, y0 + 10), name, nfont, c.INK, "la", key=True)
        parts = []
        for key in ("left_city", "right_city"):
            cid = (s.get("details") or {}).get(key, p.get(key))
            city = cities.get(cid)
            if city:
                parts.append(f"{city.get('total', '?')} {_city_name(city, locale)}")
        detail = c.ellipsize(" · ".join(parts), detail_font, right - x)
        c.draw_text(draw, (x, y1 - 10), detail, detail_font, c.MUTED, "ld", key=False)
        y = y1 + 8
    winners = [who[s["seat"]] if s["seat"] < len(who) else "?" for s in seats if s.get("rank") == 1]
    if len(winners) == 1:
        line = t("render.score.winner_line", locale, label=t("render.score.winner", locale), name=winners[0])
    else:
        line = t(
            "render.score.shared_line",
            locale,
            label=t("render.score.shared", locale),
            names=c.join_names(winners, locale),
        )
    y += 8
    c.draw_icon(img, "winner", (MARGIN, y + 2, MARGIN + 44, y + 46))
    y = (
        _wrapped(
            draw, (MARGIN + 56, y), line, WIDTH - 2 * MARGIN - 56, NAME_TEXT, True, c.INK, key=True, min_size=c.KEY_TEXT
        )
        + 6
    )
    rule = {
        "two_player": "btc.render.rule.two_player",
        "solo_simple": "btc.render.rule.solo",
        "solo_full": "btc.render.rule.solo",
    }.get(str(view.get("mode")), "btc.render.rule.lower")
    decided = decided_note(str(result.get("decided_by", "score")), locale)
    note = " ".join(part for part in (t(rule, locale), decided) if part)
    y = _wrapped(draw, (MARGIN, y), note, WIDTH - 2 * MARGIN, DETAIL_TEXT, False, c.MUTED, key=False, max_lines=4) + 10
    return y


def _provisional(view: View) -> dict[str, Any]:
    scores = player_scores(view)
    seats: list[dict[str, Any]] = [
        {"seat": i, "total": total, "breakdown": {}, "details": {}} for i, total in enumerate(scores)
    ]
    for s in seats:
        s["rank"] = 1 + sum(1 for o in seats if o["total"] > s["total"])
    return {"seats": seats, "decided_by": "score"}
