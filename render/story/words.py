"""The names and words of a story's chart: a name per place (:func:`place_names`) and the deciding moments it
marks and tells (:func:`moments`).

Split from ``render/story/chart.py`` (the module budget, ARCHITECTURE.md), which re-exports its names."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from bot import story as st
from bot.i18n import resolve, t

MOST_MOMENTS = 6
"""Lead changes marked on the chart at most (the first one and the latest ones)."""


def place_names(story: st.Story, names: Sequence[str] | None, locale: str = "en") -> list[str]:
    """A name per place: the given name of a seat, an Automa's own name, else "Player n"."""
    given = list(names or [])
    out = []
    for place in story.places:
        if place.automa:
            out.append(str(resolve(place.automa, locale)))
        elif place.seat is not None and place.seat < len(given) and given[place.seat]:
            out.append(str(given[place.seat]))
        else:
            out.append(t("render.player_n", locale, n=place.index + 1))
    return out


def _when(story: st.Story, turn: int, locale: str) -> str:
    return t("story.when.round" if story.axis == "round" else "story.when.turn", locale, turn=turn)


@dataclass(frozen=True)
class Moment:
    """A deciding moment drawn on the chart: a badge (number, or the gain) and its sentence."""

    badge: str
    place: int
    turn: int
    text: str


def moments(story: st.Story, names: Sequence[str], locale: str = "en") -> tuple[list[Moment], int]:
    """The moments to mark (lead changes, then the biggest gain) and how many lead changes were left
    out to keep the chart readable (the shortest leads; never the last change)."""
    changes = list(story.lead_changes)
    left_out = 0
    if len(changes) > MOST_MOMENTS:  # the last change, and those that opened the longest leads
        left_out = len(changes) - MOST_MOMENTS
        spells = story.spells()
        longest = sorted(range(len(changes) - 1), key=lambda i: (-(spells[i].end - spells[i].start), i))
        keep = {*longest[: MOST_MOMENTS - 1], len(changes) - 1}
        changes = [change for i, change in enumerate(changes) if i in keep]
    decisive = story.decisive
    out = []
    for number, change in enumerate(changes, start=1):
        key = "story.moment.lead_for_good" if change == decisive else "story.moment.lead"
        what = t(key, locale, name=names[change.place])
        out.append(
            Moment(
                str(number),
                change.place,
                change.turn,
                t("story.moment.line", locale, when=_when(story, change.turn, locale), what=what),
            )
        )
    gain = story.biggest_gain
    if gain is not None:
        what = t("story.moment.gain", locale, name=names[gain.place], points=gain.points)
        out.append(
            Moment(
                f"+{gain.points}",
                gain.place,
                gain.turn,
                t("story.moment.line", locale, when=_when(story, gain.turn, locale), what=what),
            )
        )
    return out, left_out
