"""The game page's HTML (issue 35): whose turn and the scores first, the replay's controls above the
picture, the result, and the move list; every text escaped, every name a player chose isolated.

Names are isolated where they sit: in HTML text each one is its own ``<bdi>`` (inside the channel's
sentences too, found by the private-use marks :func:`marked` wraps them in), in attributes and titles
between FIRST STRONG ISOLATE and POP DIRECTIONAL ISOLATE, so an unclosed right-to-left override in a
name ends with the name. The page's script (``static/web.js``) reads the ``data-`` attributes of
``#live``: the templates of the picture's address, the links and the texts, and each turn's picture
counter and scores, so the slider shows any turn without asking the server.
"""

from __future__ import annotations

import dataclasses
import functools
import html
import json
from collections.abc import Mapping, Sequence
from typing import Any

from bot import games
from bot.i18n import catalogue, t
from bot.results import ranking_lines
from bot.rules.core import GameError
from bot.service import GameInfo
from bot.store import GameRow, SeatRow
from bot.web import bestmove, pictures, weighed
from bot.web.game import STATUS_KEYS, Timeline, counter, scores, sentence, view_of
from render import pictures as render_pictures

OPEN, CLOSE = "\ue000", "\ue001"
"""Private-use marks around every name in a text until it is written out (never shown)."""
FSI, PDI = "\u2068", "\u2069"
LIVE_KEYS = ("on", "connecting", "off", "over")


def mark(name: str) -> str:
    """A name a user chose, between :data:`OPEN` and :data:`CLOSE`, for :func:`text` or :func:`attr`."""
    return OPEN + name.replace(OPEN, "").replace(CLOSE, "") + CLOSE


def marked(info: GameInfo) -> GameInfo:
    """The game with every seat's name marked (for the page's texts only, never for a picture)."""
    return dataclasses.replace(info, seats=tuple(dataclasses.replace(s, name=mark(s.name)) for s in info.seats))


def text(value: Any) -> str:
    """A text as HTML: escaped, each marked name its own ``<bdi>``."""
    return html.escape(str(value), quote=True).replace(OPEN, "<bdi>").replace(CLOSE, "</bdi>")


def attr(value: Any) -> str:
    """A text for an attribute or a title: escaped, each marked name isolated by FSI … PDI."""
    return html.escape(str(value).replace(OPEN, FSI).replace(CLOSE, PDI), quote=True)


def isolated(name: str) -> str:
    """A name for a plain-text place (a title, an alt text): between FSI and PDI."""
    return FSI + name + PDI


@functools.lru_cache(maxsize=32)
def plural_forms(key: str, locale: str) -> tuple[tuple[str, str], ...]:
    """A plural catalogue entry's forms as (CLDR category, text with ``{count}``), for the script to pick
    with ``Intl.PluralRules``."""
    message = catalogue(locale).get(key) or catalogue("en")[key]
    if isinstance(message, str):
        return (("other", message),)
    return tuple((k, str(v)) for k, v in message.items() if k != "plural")


@dataclasses.dataclass(frozen=True)
class Bank:
    """A seat's time bank on the page (issue 41): what is left at the page's making, and when it runs out
    while it is running (None: it is not), which the script counts down."""

    seat: int
    left_ms: int
    runs_out: int | None


async def banks_of(app: Any, info: GameInfo) -> list[Bank]:
    """Each human seat's time bank now: empty without a bank, or where the pages serve a source without
    the community features (the terminal's)."""
    clocks, preferences = getattr(app, "clocks", None), getattr(app, "preferences", None)
    if clocks is None or preferences is None or info.game.status != "active":
        return []
    control = (await preferences.of_game(info.game)).time_control
    now = clocks.now
    found = await clocks.of_game(info, control, now)
    return [
        Bank(s.seat, found[s.seat].bank_ms, found[s.seat].expires_at(now) if found[s.seat].running else None)
        for s in info.seats
        if s.seat in found and not s.is_ai
    ]


async def banks_mark(app: Any, game: GameRow, seats: Sequence[SeatRow]) -> tuple[object, ...]:
    """Part of a cached page's key: what its banks depend on besides the game's version (a gift, a
    correction, a vacation... change it), so such a page is made again at once; empty for a game over or
    where the pages serve a source without the community features."""
    clocks = getattr(app, "clocks", None)
    if clocks is None or game.status != "active":
        return ()
    return tuple(await clocks.mark(game, seats))


TIME_MARK = "\ue002"
"""Where a bank's ``<time>`` goes in its sentence (a private-use mark, never shown)."""


def clock_text(ms: int) -> str:
    """A bank as hours, minutes and seconds (``35:04:09``): the same in every language."""
    seconds = max(0, ms) // 1000
    return f"{seconds // 3600}:{seconds // 60 % 60:02d}:{seconds % 60:02d}"


def banks_html(info: GameInfo, banks: list[Bank], locale: str) -> str:
    """The time banks' list: each player's bank, the running ones as ``<time data-runs-out>`` the script ticks."""
    if not banks:
        return ""
    items = []
    for bank in banks:
        key = "web.clock.running" if bank.runs_out is not None else "web.clock.resting"
        runs_out = f' data-runs-out="{bank.runs_out}"' if bank.runs_out is not None else ""
        clock = f'<time class="bank"{runs_out}>{clock_text(bank.left_ms)}</time>'
        line = text(t(key, locale, player=info.name(bank.seat), left=TIME_MARK)).replace(TIME_MARK, clock)
        running = ' class="running"' if runs_out else ""
        items.append(f"<li{running}>{line}</li>")
    return f'<h2>{text(t("web.clock.title", locale))}</h2><ul class="banks" id="banks">{"".join(items)}</ul>'


def best_moves(
    real: GameInfo,
    info: GameInfo,
    timeline: Timeline,
    locale: str,
    marks: list[str],
    analysis: Mapping[str, Any] | None,
) -> dict[int, list[str]]:
    """Each weighed told move's best move for the script (issue 40, :mod:`bot.web.bestmove`): [the best
    picture's mark ("" when the best move was played), its caption with each name between FSI and PDI]."""
    out: dict[int, list[str]] = {}
    if analysis is None:
        return out
    for frame in timeline.frames[1:]:
        best = bestmove.decision(timeline, analysis, frame.turn)
        if best is None:
            continue
        try:
            shown = bestmove.caption(info, timeline, best, locale).replace(OPEN, FSI).replace(CLOSE, PDI)
        except GameError:
            continue  # a kept analysis whose best move no longer replays (rules changed since): none shown
        out[frame.turn] = ["" if best.played else bestmove.mark(marks[frame.turn], best), shown]
    return out


def best_figure(best: list[str] | None, base: str, locale: str, shown: int, any_best: bool) -> str:
    """The best move's picture and caption beside the played one (hidden where the move weighs nothing; the
    script fills it for the turn shown)."""
    if not any_best:
        return ""
    mark, words = best if best is not None else ("", "")
    src = f' src="{attr(pictures.best_url(base, locale, shown, mark))}"' if mark else ""
    return (
        f'<figure class="best" id="bestfig"{"" if best is not None else " hidden"}>'
        f'<figcaption id="best-caption">{html.escape(words)}</figcaption>'
        f'<img id="best"{src} alt="{attr(words)}"{"" if mark else " hidden"}></figure>'
    )


def _data(locale: str, **values: str) -> str:
    return " ".join(f'data-{k.replace("_", "-")}="{attr(v)}"' for k, v in values.items())


def body(
    info: GameInfo,
    timeline: Timeline,
    base: str,
    locale: str,
    shown: int,
    *,
    languages_html: str,
    story: bool,
    seat: int | None = None,
    analysis: Mapping[str, Any] | None = None,
    banks: list[Bank] | None = None,
) -> str:
    """The game page's body at turn ``shown``: the live mark and the languages, whose turn and the scores
    (of the turn shown), the replay (slider, picture counter, links, news of moves, the move's sentence and
    the picture), at the end the result and the story chart, and the move list (oldest first). ``seat``: the
    signed-in viewer's seat (issue 38): its own picture (``{base}/play.png``) and where the page's board script
    reads its choices (``data-play``); None for everyone else (the public page, unchanged). ``analysis``: a
    finished game's kept analysis (issue 40): each move's mark and each player's accuracy (:mod:`bot.web.weighed`)."""
    real = info
    info = marked(info)
    g = info.game
    last = len(timeline.frames) - 1
    shown = max(0, min(shown, last))
    frame = timeline.frames[shown]
    title = t("web.game.title", locale, game=t(games.get(g.kind).title_key, locale), id=g.id)
    q = f"lang={locale}"
    marks = pictures.marks(real, timeline, locale)  # each turn's picture at its own address (bot.web.pictures)
    pic = pictures.turn_url(base, locale, "{n}", "{m}")
    counters = [counter(real, f, locale, last=f is timeline.frames[-1]) for f in timeline.frames]
    turns = [
        [c, [s for _, s in scores(info, f.state, locale, view_of(real, f))], m]
        for c, f, m in zip(counters, timeline.frames, marks, strict=True)
    ]
    pictured = render_pictures.get(g.kind) is not None
    bests = best_moves(real, info, timeline, locale, marks, analysis if g.status == "finished" and pictured else None)
    for n, best in bests.items():
        turns[n].append(best)

    def label(n: int) -> str:
        return counters[n] or t("web.game.turn_of", locale, turn=n, turns=last)

    def alt(n: int) -> str:
        return t("web.game.board_alt", locale, counter=label(n), turn=n, turns=last)

    live = {
        "events": f"{base}/events",
        "version": str(g.version),
        "last": str(last),
        "status": g.status,
        "setup": t("web.game.setup", locale),
        "now": t("web.game.now", locale),
        "src": pic,
        "href": f"{base}?turn={{n}}&{q}",
        "now_href": f"{base}?{q}",
        "turns": json.dumps(turns),
        "of": t("web.game.move_of", locale, turn="{turn}", turns="{turns}"),
        "alt": t("web.game.board_alt", locale, counter="{counter}", turn="{turn}", turns="{turns}"),
        "title": title,
        "turn_of": t("web.game.turn_of", locale, turn="{turn}", turns="{turns}"),
        **{f"live_{k}": t(f"web.live.{k}", locale) for k in LIVE_KEYS},
        **{f"new_{cat}": form for cat, form in plural_forms("web.game.new_moves", locale)},
    }
    if bests:  # the best move's picture of a turn (issue 40), which the script fills for the turn shown
        live["best_src"] = pictures.best_url(base, locale, "{n}", "{m}")
    if seat is not None:  # the tab's title says when it is this seat's turn (the script keeps it so)
        yours = "1" if g.status == "active" and seat in info.awaiting else "0"
        live.update(
            seat=str(seat), play=f"{base}/play.json?{q}", yours=yours, your_turn=t("web.live.your_turn", locale)
        )
    parts = [
        f'<header><h1>{text(title)}</h1><p class="livebar jsonly"><span id="dot" class="dot" '
        f'data-state="connecting"></span> <span id="livetext" class="livetext" role="status">'
        f"{text(t('web.live.connecting', locale))}</span></p>{languages_html}</header>",
        f'<main id="live" {_data(locale, **live)}>',
    ]
    # Whose turn, and the scores of the turn shown.
    parts.append('<section class="glance" id="glance" aria-labelledby="waiting">')
    if g.status == "active":
        waiting = ", ".join(info.name(s) for s in sorted(info.awaiting))
        parts.append(f'<p id="waiting">{text(t("web.game.waiting", locale, players=waiting or "-"))}</p>')
    else:
        parts.append(f'<p id="waiting">{text(t(STATUS_KEYS[g.status], locale))}</p>')
    table = scores(info, frame.state, locale, view_of(real, frame))
    if table:
        parts.append(f'<h2>{text(t("web.game.scores", locale))}</h2><table class="scores" id="scores"><tbody>')
        for name, score in table:
            parts.append(f'<tr><th scope="row">{text(name)}</th><td>{score}</td></tr>')
        parts.append("</tbody></table>")
    parts.append(banks_html(info, banks or [], locale))
    parts.append("</section>")
    if seat is not None:  # the signed-in seat's own view: its hand and its unrevealed choices (no-store)
        mine, mine_alt = f"{base}/play.png?v={g.version}&{q}", t("web.play.mine_alt", locale, seat=info.name(seat))
        parts.append(
            f'<section class="mine" id="mine"><h2>{text(t("web.play.mine", locale))}</h2>'
            f'<img id="mine-picture" src="{attr(mine)}" alt="{attr(mine_alt)}">'
            f'<p><a href="/sessions?{attr(q)}">{text(t("web.sessions.title", locale))}</a></p></section>'
        )
    # The replay: the slider, the picture's counter, the links, news of moves, the move and the picture.
    parts.append(
        f'<section class="board"><form class="replay" method="get" action="{attr(base)}">'
        f'<input type="hidden" name="lang" value="{attr(locale)}">'
        f'<label for="turn">{text(t("web.game.turn", locale))}</label> '
        f'<input type="range" id="turn" name="turn" min="0" max="{last}" value="{shown}" step="1"> '
        f'<output id="turn-out" for="turn">{text(label(shown))}</output> '
        f'<span id="move-of" class="moveof">{text(t("web.game.move_of", locale, turn=shown, turns=last))}'
        f'</span> <button type="submit" class="nojs">{text(t("web.game.show", locale))}</button></form>'
    )
    nav = []
    for key, target in (
        ("web.game.first", 0),
        ("web.game.previous", shown - 1),
        ("web.game.next", shown + 1),
        ("web.game.last", last),
    ):
        href = f"{base}?{q}" if target >= last else f"{base}?turn={max(0, target)}&{q}"
        off = "" if 0 <= target <= last and target != shown else ' aria-disabled="true" class="off"'
        nav.append(f'<a href="{attr(href)}"{off}>{text(t(key, locale))}</a>')
    parts.append(
        f'<nav class="turnnav" aria-label="{attr(t("web.game.turn", locale))}">{" · ".join(nav)}</nav>'
        f'<p id="news" class="news" role="status"></p>'
    )
    board = (
        f'<img id="board" src="{attr(pictures.turn_url(base, locale, shown, marks[shown]))}" alt="{attr(alt(shown))}">'
        if pictured
        else ""
    )  # a game without pictures shows its sentences
    parts.append(
        f'<div class="pair"><figure><figcaption id="caption">{text(sentence(info, frame, locale))}</figcaption>'
        f"{board}</figure>{best_figure(bests.get(shown), base, locale, shown, bool(bests))}</div></section>"
    )
    # The result and the story.
    if g.status == "finished" and g.result:
        lines = ranking_lines(g.id, g.result, locale, info.name, [s.name for s in info.seats])
        parts.append(f'<section class="result"><h2>{text(t("web.game.result", locale))}</h2><ul class="ranking">')
        parts.extend(f"<li>{text(line)}</li>" for line in lines[1:])
        parts.append("</ul>")
        if analysis is not None:
            parts.append(
                f'<h3 id="accuracy-h">{text(t("web.analysis.heading", locale))}</h3>'
                f'<ul class="accuracy" id="accuracy" aria-labelledby="accuracy-h">'
            )
            parts.extend(f"<li>{text(line)}</li>" for line in weighed.players_lines(info, analysis, locale))
            parts.append(f'</ul><p class="anote">{text(t("web.analysis.note", locale))}</p>')
        if story:
            curve = weighed.margins(analysis) if analysis is not None else None
            story_src = pictures.story_url(base, locale, pictures.story_mark(real, timeline, locale, curve))
            parts.append(f'<img class="story" src="{attr(story_src)}" alt="{attr(t("web.game.story_alt", locale))}">')
        parts.append("</section>")
    # The move list: the sentences the channel got, oldest first (the script keeps the newest in sight).
    parts.append(
        f'<section class="moves"><h2 id="moves-h">{text(t("web.game.moves", locale))}</h2>'
        f'<ol id="moves" tabindex="0" aria-labelledby="moves-h">'
    )
    losses = weighed.frame_marks(timeline, analysis) if analysis is not None and g.status == "finished" else {}
    for f in timeline.frames[1:]:
        if f.sentence is None:
            continue  # the board as it stands after quiet moves: a turn of the replay, not a move
        current = ' aria-current="step"' if f.turn == shown else ""
        parts.append(
            f'<li value="{f.turn}" data-turn="{f.turn}"{current}><a href="{attr(base)}?turn={f.turn}&amp;'
            f'{attr(q)}"><span class="say">{text(sentence(info, f, locale))}</span></a>'
            + (weighed.mark_html(*losses[f.turn], locale) if f.turn in losses else "")
            + "</li>"
        )
    parts.append("</ol></section></main>")
    return "".join(parts)
