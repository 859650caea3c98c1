"""A game as its web page shows it: the turns the channel was told (:class:`Timeline`), rebuilt from the
move log with public views only, and the page's HTML.

Hidden information never reaches here: every view is ``view(state, None)`` (the spectator's), the move
sentences are those of the moves the channel announced (a secret choice, which the channel keeps quiet,
has no sentence here either), and the pictures are drawn from public views by the game's renderer, as
the channel's are.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any

from bot import games
from bot.i18n import resolve, t
from bot.service import GameInfo, named
from bot.store import MoveRow
from render import pictures

TIMELINE_CACHE = 64
"""Games whose timelines (with their states, for the replay's pictures) are kept in memory."""


@dataclass(frozen=True)
class Frame:
    """One point of the replay: the set-up (turn 0) or the board after an announced move."""

    turn: int
    moves: int
    """The live moves applied (the move log's length at this point)."""
    seat: int | None
    """The seat that made the move (None: the set-up, a system move, or the board as it stands)."""
    sentence: tuple[str, dict[str, Any]] | None
    """The channel's sentence about the move (catalogue key, parameters but the player, named when shown:
    a forgotten player's new name shows at once); None for the set-up."""
    state: Any = field(repr=False, compare=False)
    actor: int = -1
    """The seat that made the move as logged (-1: the system)."""
    public: Mapping[str, Any] = field(default_factory=dict, repr=False, compare=False)
    """The spectator's view after the move (a :class:`PublicView`: made when first read, then kept), which
    the game's telling of the move reads (:meth:`bot.games.Game.tell`)."""


@dataclass
class Timeline:
    """The frames of a game at one version; ``moves`` the versions of the log it was built from."""

    game_id: int
    version: int
    kind: str
    move_versions: tuple[int, ...]
    frames: list[Frame]
    state: Any
    """The state after the whole log (the board as it stands)."""
    quiet_tail: bool = False
    """Moves after the last announced one (the last frame then shows the board as it stands)."""
    log: tuple[tuple[int, dict[str, Any]], ...] = ()
    """The moves of the log as (seat, move), the quiet ones too (the analysis's best move replays a turn's)."""


class PublicView(Mapping[str, Any]):
    """The spectator's view of a state, made only if it is read (a turn style that decides without it
    costs nothing)."""

    def __init__(self, rules: Any, state: Any) -> None:
        self._rules = rules
        self._state = state
        self._view: Mapping[str, Any] | None = None

    def _made(self) -> Mapping[str, Any]:
        if self._view is None:
            self._view = self._rules.view(self._state, None)
        return self._view

    def __getitem__(self, key: str) -> Any:
        return self._made()[key]

    def __iter__(self) -> Iterator[str]:
        return iter(self._made())

    def __len__(self) -> int:
        return len(self._made())


STATUS_KEYS = {
    "active": "web.game.status.active",
    "finished": "web.game.status.finished",
    "abandoned": "web.game.status.abandoned",
}
"""What the page says of a game that is not waiting for anyone, by its status."""


def _build(info: GameInfo, rows: list[MoveRow], start: Timeline | None) -> Timeline:
    """The timeline of a game from its log, going on from ``start`` when it is a prefix of it."""
    game = info.game
    kind = game.kind
    rules = games.rules(kind)
    style = games.get(kind).turns
    if start is not None:
        frames = list(start.frames)
        if start.quiet_tail:
            frames.pop()
        state = start.state
        done = len(start.move_versions)
        log = list(start.log)
    else:
        log = []
        state = rules.setup(game.options, len(info.seats), game.seed)
        frames = [Frame(0, 0, None, None, state)]
        done = 0
    last_told = frames[-1].moves
    for number, row in enumerate(rows[done:], start=done + 1):
        before = state
        log.append((row.seat, dict(row.move)))
        awaited_before = rules.awaiting(before)
        state = rules.apply(before, row.seat, dict(row.move))
        awaited_after = rules.awaiting(state)
        over = rules.is_over(state)
        key, params = rules.describe(before, row.seat, row.move, state)
        quiet = not over and style.quiet_after(
            key, row.seat, awaited_after, awaited_after - awaited_before, PublicView(rules, state)
        )
        if quiet:
            continue
        frames.append(
            Frame(
                len(frames),
                number,
                row.seat if row.seat >= 0 else None,
                (key, dict(params)),
                state,
                row.seat,
                PublicView(rules, state),
            )
        )
        last_told = number
    quiet_tail = last_told != len(rows)
    if quiet_tail:
        frames.append(Frame(len(frames), len(rows), None, None, state))
    return Timeline(game.id, game.version, kind, tuple(r.version for r in rows), frames, state, quiet_tail, tuple(log))


class Timelines:
    """Timelines by game, the newest kept per game, the least recently read games dropped first."""

    def __init__(self, size: int = TIMELINE_CACHE) -> None:
        self.size = size
        self._items: OrderedDict[int, Timeline] = OrderedDict()

    def get(self, game_id: int, version: int) -> Timeline | None:
        kept = self._items.get(game_id)
        if kept is not None and kept.version == version:
            self._items.move_to_end(game_id)
            return kept
        return None

    def previous(self, game_id: int) -> Timeline | None:
        return self._items.get(game_id)

    def put(self, timeline: Timeline) -> None:
        self._items[timeline.game_id] = timeline
        self._items.move_to_end(timeline.game_id)
        while len(self._items) > self.size:
            self._items.popitem(last=False)


def build_timeline(info: GameInfo, rows: list[MoveRow], previous: Timeline | None) -> Timeline:
    """The timeline at the game's version: from ``previous`` when the log only grew since, else anew."""
    if previous is not None and previous.version < info.game.version:
        kept = previous.move_versions
        if len(rows) >= len(kept) and tuple(r.version for r in rows[: len(kept)]) == kept:
            return _build(info, rows, previous)
    return _build(info, rows, None)


def picture(info: GameInfo, timeline: Timeline, turn: int, locale: str) -> bytes | None:
    """The PNG of one frame, as the channel drew it: the end picture for the finished game's last frame,
    the acting seat's turn picture after a move, else the board (None: the game draws no pictures)."""
    renderer = pictures.get(info.game.kind)
    if renderer is None:
        return None
    frame = timeline.frames[turn]
    view = games.rules(info.game.kind).view(frame.state, None)
    names = [s.name for s in info.seats]
    if turn == len(timeline.frames) - 1 and info.game.status == "finished":
        return bytes(renderer.render_end(view, names, locale=locale))
    if frame.seat is not None:
        return bytes(renderer.render_turn(view, frame.seat, names, locale=locale))
    return bytes(renderer.render_board(view, names, locale=locale))


def sentence(info: GameInfo, frame: Frame, locale: str) -> str:
    """The move as the channel told it (:meth:`bot.games.Game.tell` on the public view after it, with
    today's names), its lines joined into one; the set-up or the board as it stands for a frame without
    a move."""
    if frame.sentence is None:
        return t("web.game.setup" if frame.turn == 0 else "web.game.now", locale)
    key, params = frame.sentence
    names = [info.name(seat) for seat in range(len(info.seats))]
    return " ".join(games.get(info.game.kind).tell(key, named(info, frame.actor, params), frame.public, locale, names))


def view_of(info: GameInfo, frame: Frame) -> Any:
    """The spectator's view of a frame (the one its move's telling made, when it has one)."""
    if isinstance(frame.public, PublicView):
        return frame.public
    return games.rules(info.game.kind).view(frame.state, None)


def scores(info: GameInfo, state: Any, locale: str, view: Any = None) -> list[tuple[str, int]]:
    """(name, score) of everyone scored, from the public view through the game's story style."""
    style = games.get(info.game.kind).story
    if style is None:
        return []
    if view is None:
        view = games.rules(info.game.kind).view(state, None)
    out = []
    for i, (place, score) in enumerate(zip(style.places(view), style.scores(view), strict=False)):
        name = info.name(i) if place is None else str(resolve(place, locale))
        out.append((name, int(score)))
    return out


def counter(info: GameInfo, frame: Frame, locale: str, *, last: bool = False) -> str:
    """The turn counter the frame's picture draws in its title (the renderer's title of the picture
    :func:`picture` draws: the end picture's for the finished game's ``last`` frame), without the game's name
    that begins it; "" for a game that draws none."""
    renderer = pictures.get(info.game.kind)
    title = getattr(renderer, "title", None)
    if title is None:
        return ""
    drawn = "end" if last and info.game.status == "finished" else "turn" if frame.seat is not None else "board"
    text = str(title(drawn, view_of(info, frame), locale=locale))
    name = t(games.get(info.game.kind).title_key, locale)
    for glue in (" — ", " - ", ": "):
        if text.startswith(name + glue):
            return text[len(name + glue) :]
    return text
