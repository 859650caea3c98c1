"""The story of a game: who led when, the turn that decided it, how each city grew.

Pure: a game's kind, options, seat count, seed and move log in, plain dataclasses out. The game is
replayed with its rules and every figure is read from the spectator's view (``view(state, None)``),
so a story never tells a hidden hand. What a point of the story is (a turn, a round of placements)
and how a place scores come from the game's :class:`bot.games.StoryStyle`; the pictures are drawn by
``render/story/``.

Places are everyone scored: the seats, and in solo games the Automas (``Place.automa`` is their
own name). A story's ``points`` start with the game before the first move (``turn`` 0); each later
point closes a turn (or a round, ``Story.axis``); the last point is the end of the log.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from itertools import pairwise
from typing import Any

from bot import games
from bot.games import View
from bot.rules.core import GameError, IllegalMove, Term, competition_ranks

LoggedMove = tuple[int, Mapping[str, Any]]
"""A move of the log as stored: (seat, move)."""


@dataclass(frozen=True)
class Place:
    """Someone scored: a seat, or (seat None) an Automa with its own name."""

    index: int
    seat: int | None
    automa: str | Term | None = None


@dataclass(frozen=True)
class Point:
    """The scores after a turn (or round): ``turn`` 0 is the start; ``version`` the moves applied so far."""

    turn: int
    round: int
    version: int
    scores: tuple[int, ...]

    @property
    def leaders(self) -> tuple[int, ...]:
        """The places with the best score (more than one: a shared lead)."""
        best = max(self.scores)
        return tuple(i for i, s in enumerate(self.scores) if s == best)


@dataclass(frozen=True)
class LeadChange:
    """``place`` became the only leader at ``turn`` (``previous``: the only leader before, if any)."""

    turn: int
    place: int
    previous: int | None
    score: int


@dataclass(frozen=True)
class Gain:
    """The most points one place made in one turn."""

    place: int
    turn: int
    points: int


@dataclass(frozen=True)
class Standing:
    """A place's final total and rank (1 = first; shared ranks stay shared)."""

    place: int
    total: int
    rank: int


@dataclass(frozen=True)
class Spell:
    """``place`` led alone, or shared the lead it held, from turn ``start`` to turn ``end``."""

    place: int
    start: int
    end: int


@dataclass(frozen=True)
class Story:
    """Everything the recap tells. ``views`` (public, one per point) only when asked for (the animation)."""

    kind: str
    axis: str
    places: tuple[Place, ...]
    points: tuple[Point, ...]
    lead_changes: tuple[LeadChange, ...]
    biggest_gain: Gain | None
    ranking: tuple[Standing, ...]
    over: bool
    views: tuple[View, ...] = ()

    @property
    def turns(self) -> int:
        """The last point's turn number."""
        return self.points[-1].turn

    def series(self, place: int) -> list[int]:
        """One place's score at every point."""
        return [p.scores[place] for p in self.points]

    @property
    def final(self) -> tuple[int, ...]:
        """Every place's score at the end."""
        return self.points[-1].scores

    @property
    def decisive(self) -> LeadChange | None:
        """The turn that decided it: when the winner took the lead for good, never behind anyone
        again (None: the first place is shared, or the winner was still caught or passed later)."""
        winners = [s.place for s in self.ranking if s.rank == 1]
        if len(winners) != 1 or not self.lead_changes or self.lead_changes[-1].place != winners[0]:
            return None
        last = self.lead_changes[-1]
        if any(p.scores[last.place] < max(p.scores) for p in self.points[last.turn :]):
            return None
        return last

    def spells(self) -> list[Spell]:
        """Who led from when: each lead change opens a spell that lasts until the next one."""
        out = []
        for i, change in enumerate(self.lead_changes):
            end = self.lead_changes[i + 1].turn if i + 1 < len(self.lead_changes) else self.turns
            out.append(Spell(change.place, change.turn, end))
        return out


def _replay_error(number: int) -> IllegalMove:
    return IllegalMove("story.error.replay", number=number)


def build(
    kind: str,
    options: Mapping[str, Any],
    seat_count: int,
    seed: int,
    moves: Sequence[LoggedMove],
    *,
    keep_views: bool = False,
) -> Story:
    """Replay a game's log and tell its story.

    ``moves`` is the log as stored, (seat, move) in order. ``keep_views`` keeps the public view at
    every point (for the animation). A log the rules refuse, an unknown game, or a game without a
    story raises a :class:`GameError` with a sentence (``story.error.*``); nothing else is touched.
    """
    game = games.get(kind)
    style = game.story
    if style is None:
        raise IllegalMove("story.error.unavailable", game=kind)
    rules = game.rules
    try:
        low, high = rules.seat_range(options)
    except (GameError, KeyError, TypeError, ValueError):
        raise IllegalMove("story.error.options") from None
    if not low <= seat_count <= high:
        raise IllegalMove("story.error.seats", seats=seat_count, low=low, high=high)
    try:
        state = rules.setup(options, seat_count, seed)
    except (GameError, KeyError, TypeError, ValueError):
        raise IllegalMove("story.error.options") from None

    first = rules.view(state, None)
    places = tuple(Place(i, None if name is not None else i, name) for i, name in enumerate(style.places(first)))
    points = [Point(0, style.round(first), 0, tuple(style.scores(first)))]
    views = [first] if keep_views else []
    axis = style.axis(first)
    current: tuple[Any, View | None] = (state, first)  # the state and its view, when made
    closed = True
    for number, logged in enumerate(moves, start=1):
        seat, move = _unpack(logged, number)
        before_state, before_view = current
        awaited_before = rules.awaiting(before_state)
        try:
            after_state = rules.apply(before_state, seat, dict(move))
        except (GameError, KeyError, TypeError, ValueError, IndexError, AttributeError):
            raise _replay_error(number) from None
        made: dict[str, View] = {}

        def view_before(s: Any = before_state, v: View | None = before_view) -> View:
            return v if v is not None else rules.view(s, None)

        def view_after(s: Any = after_state, cache: dict[str, View] = made) -> View:
            if "after" not in cache:
                cache["after"] = rules.view(s, None)
            return cache["after"]

        step = games.Step(
            options,
            seat,
            str(move.get("kind", "")),
            awaited_before,
            rules.awaiting(after_state),
            view_before,
            view_after,
        )
        closed = style.checkpoint(step)
        if closed:
            after = view_after()
            points.append(Point(len(points), style.round(step.before), number, tuple(style.scores(after))))
            if keep_views:
                views.append(after)
        current = (after_state, made.get("after"))
    if not closed:  # the log stops inside a turn: its end is a point too
        after_state, after_view = current
        last = after_view if after_view is not None else rules.view(after_state, None)
        points.append(Point(len(points), style.round(last), len(moves), tuple(style.scores(last))))
        if keep_views:
            views.append(last)
    final_view = views[-1] if keep_views else rules.view(current[0], None)
    over = rules.is_over(current[0])
    return Story(
        kind=game.kind,
        axis=axis,
        places=places,
        points=tuple(points),
        lead_changes=tuple(lead_changes(points)),
        biggest_gain=biggest_gain(points),
        ranking=tuple(ranking(final_view.get("result") if over else None, points[-1].scores, places)),
        over=over,
        views=tuple(views),
    )


def _unpack(logged: Any, number: int) -> tuple[int, Mapping[str, Any]]:
    """(seat, move) from a log entry: a pair, or a stored row with ``seat`` and ``move``."""
    if hasattr(logged, "seat") and hasattr(logged, "move"):
        seat, move = logged.seat, logged.move
    else:
        try:
            seat, move = logged
        except (TypeError, ValueError):
            raise _replay_error(number) from None
    if not isinstance(seat, int) or not isinstance(move, Mapping):
        raise _replay_error(number)
    return seat, move


def lead_changes(points: Sequence[Point]) -> list[LeadChange]:
    """Each time one place alone took the lead from someone else (or from a shared lead)."""
    out: list[LeadChange] = []
    holder: int | None = None
    for point in points[1:]:
        leaders = point.leaders
        if len(leaders) == 1 and leaders[0] != holder:
            out.append(LeadChange(point.turn, leaders[0], holder, point.scores[leaders[0]]))
            holder = leaders[0]
    return out


def biggest_gain(points: Sequence[Point]) -> Gain | None:
    """The most points one place made between two points (the earliest such turn; None if nobody gained)."""
    best: Gain | None = None
    for before, after in pairwise(points):
        for place, (a, b) in enumerate(zip(before.scores, after.scores)):
            if b - a > 0 and (best is None or b - a > best.points):
                best = Gain(place, after.turn, b - a)
    return best


def ranking(result: Mapping[str, Any] | None, final: Sequence[int], places: Sequence[Place]) -> list[Standing]:
    """The final ranking, best first: the rules' result (with its tie-breaks) when the game is over,
    else the scores as they stand. A result lists seats, and Automas under ``details.automas``."""
    by_place: dict[int, Standing] = {}
    if result:
        entries = [*(result.get("seats") or []), *((result.get("details") or {}).get("automas") or [])]
        for entry in entries:
            place = int(entry["seat"])
            if 0 <= place < len(places):
                by_place[place] = Standing(place, int(entry["total"]), int(entry["rank"]))
    if len(by_place) != len(places):
        ranks = competition_ranks([(s,) for s in final])
        by_place = {i: Standing(i, final[i], ranks[i]) for i in range(len(places))}
    return sorted(by_place.values(), key=lambda s: (s.rank, s.place))
