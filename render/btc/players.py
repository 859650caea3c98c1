"""Between Two Cities: the players' strips, the titles and the legend."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from PIL import Image, ImageDraw

from bot.i18n import t
from render import common as c
from render.btc.base import KINDS, LEGEND_TILE, MARGIN, MODES, NAME_TEXT, SCORE_TEXT, STRIP, WIDTH, View

# ---------------------------------------------------------------------------------------------
# Players
# ---------------------------------------------------------------------------------------------


def _status(view: View, index: int, locale: str = "en") -> tuple[str, str]:
    """(icon, words) for a player's state in this step."""
    p = (view.get("players") or [])[index]
    awaiting = set(view.get("awaiting") or [])
    if view.get("phase") == "over":
        return ("ok", t("btc.render.status.done", locale))
    if p.get("committed"):
        return ("ok", t("btc.render.status.chosen", locale))
    if p.get("seat") is not None and p.get("seat") in awaiting:
        if p.get("to_place"):
            return ("waiting", t("btc.render.status.placing", locale, count=len(p["to_place"])))
        return ("waiting", t("btc.render.status.choosing", locale))
    return ("ok", t("btc.render.status.ready", locale))


def _awaited(view: View, index: int) -> bool:
    p = (view.get("players") or [])[index]
    return (
        view.get("phase") != "over"
        and not p.get("committed")
        and p.get("seat") is not None
        and p.get("seat") in set(view.get("awaiting") or [])
    )


def player_scores(view: View) -> list[int]:
    """Each player's score by index: the result's once the game is over, else the running one (the lower
    of their two cities; with two players, the sum of both)."""
    players = view.get("players") or []
    result: Mapping[str, Any] = view.get("result") or {}
    ranked = [*(result.get("seats") or []), *((result.get("details") or {}).get("automas") or [])]
    totals = {int(cty.get("city", -1)): int(cty.get("total", 0)) for cty in view.get("cities") or []}
    out = []
    for i, p in enumerate(players):
        found = [int(s["total"]) for s in ranked if s.get("seat") == i]
        if found:
            out.append(found[0])
            continue
        pair = [totals.get(int(cid), 0) for cid in (p.get("left_city"), p.get("right_city")) if isinstance(cid, int)]
        out.append((sum(pair) if view.get("mode") == "two_player" else min(pair)) if pair else 0)
    return out


def _strips(img: Image.Image, top: int, view: View, who: list[str], locale: str = "en") -> int:
    """One row per player: marker, name, what they are doing (the awaited ones framed in the highlight colour
    with an hourglass), and their score. Returns the bottom y."""
    draw = ImageDraw.Draw(img)
    scores = player_scores(view)
    sfont = c.font(SCORE_TEXT, True)
    y = top
    for i in range(len(view.get("players") or [])):
        style = c.player_style(i)
        waited = _awaited(view, i)
        x0, x1 = MARGIN, WIDTH - MARGIN
        draw.rounded_rectangle(
            (x0, y, x1, y + STRIP),
            radius=16,
            fill=c.tint(style.colour, 0.84),
            outline=c.HIGHLIGHT if waited else c.shade(style.colour, 0.2),
            width=7 if waited else 2,
        )
        if waited:
            draw.rounded_rectangle((x0 + 7, y + 7, x1 - 7, y + STRIP - 7), radius=12, outline=c.INK, width=1)
        pad = 10
        c.seat_marker(img, i, (x0 + pad, y + pad, x0 + STRIP - pad, y + STRIP - pad))
        cy = y + STRIP / 2
        score = str(scores[i] if i < len(scores) else 0)
        right = x1 - 18
        c.draw_text(draw, (right, cy), score, sfont, c.INK, "rm", key=True)
        right -= c.text_width(score, sfont) + 12
        c.draw_icon(img, "points", (right - 40, int(cy - 20), right, int(cy + 20)))
        right -= 40 + 26
        icon, words = _status(view, i, locale)
        words, wfont = c.fit_text(words, 420, c.KEY_TEXT + 1, True, c.KEY_TEXT)
        c.draw_text(draw, (right, cy), words, wfont, c.INK, "rm", key=True)
        right -= c.text_width(words, wfont) + 8
        c.draw_icon(img, icon, (right - 38, int(cy - 19), right, int(cy + 19)))
        right -= 38 + 22
        left = x0 + STRIP + 2
        name, nfont = c.fit_text(who[i] if i < len(who) else "?", right - left, NAME_TEXT, True, c.KEY_TEXT)
        c.draw_text(draw, (left, cy), name, nfont, c.INK, "lm", key=True)
        y += STRIP + 8
    return y


def _title(view: View, locale: str = "en") -> str:
    if view.get("phase") == "over":
        return t("btc.render.title.over", locale)
    part = str(view.get("part") or "")
    return t("btc.render.title.turn", locale, round=view.get("round", 1), part=part, turn=view.get("turn", 1))


turn_title = board_title = _title
"""The turn counter this module draws in a turn or board picture's title (the web page's slider shows the same)."""


def _mode_title(mode: str, locale: str) -> str:
    if mode in MODES:
        return t(f"btc.render.mode.{mode}", locale)
    return "" if mode == "standard" else mode


def _subtitle(view: View, locale: str = "en") -> str:
    count = len([p for p in view.get("players") or [] if p.get("seat") is not None])
    mode = _mode_title(str(view.get("mode", "")), locale)
    text = t("btc.render.players", locale, count=count)
    return t("btc.render.subtitle_mode", locale, players=text, mode=mode) if mode else text


def _title_bar(draw: ImageDraw.ImageDraw, title: str, subtitle: str) -> str:
    """The shared title bar, its title at the key size: the subtitle goes beside it when both fit, else it is
    returned for a line of its own."""
    sub_w = min(c.text_width(subtitle, c.font(22)), WIDTH // 2) if subtitle else 0
    if subtitle and c.text_width(title, c.font(34, True)) > WIDTH - sub_w - 60:
        c.title_bar(draw, WIDTH, title)
        return subtitle
    c.title_bar(draw, WIDTH, title, subtitle)
    return ""


def _legend(img: Image.Image, top: int, locale: str = "en") -> int:
    draw = ImageDraw.Draw(img)
    draw.line((MARGIN, top, WIDTH - MARGIN, top), fill=c.PANEL_EDGE, width=2)
    entries = [(f"btc.{k}", c.glyph_name(f"btc.{k}", locale)) for k in KINDS]
    icons = [("points", t("btc.render.legend.city_score", locale))]
    return c.legend(img, (MARGIN, top + 12), entries, WIDTH - 2 * MARGIN, LEGEND_TILE, icons, locale) + 8
