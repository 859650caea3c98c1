"""Every game, declared once: the one registry the bot, the terminal, the calculator and the bench read.

A game is one :class:`Game`: its kind (the one spelling used for the package, the catalogue prefix and
the files), other names people type, its rules, its renderer, its move labels, its turn style, its
score calculator and its bench. Each game declares itself in ``bot/games/<kind>.py``; adding a game
means creating its own files and adding one line to :data:`GAMES` below (and its presenter to
``cogs/games/__init__.py``, which a test keeps in step).
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any, Generic, Protocol, TypeVar

from bot.i18n import t, t_or
from bot.rules.core import GameRules, IllegalMove, Move, Term

View = Mapping[str, Any]
"""A view as generic code (service, turn flow, front-ends) holds it: read-only. Each game's own code
reads its precise TypedDict (``bot/rules/<kind>/viewtypes.py``)."""

V = TypeVar("V", bound=View)
"""A game's view type (its TypedDict)."""
V_contra = TypeVar("V_contra", bound=View, contravariant=True)

Labeller = Callable[[Move, V, str], "str | None"]
"""(move, the seat's view, locale) -> a short label, or None for the generic one."""


class Renderer(Protocol[V_contra]):
    """What a game's picture module offers (``render/<kind>.py``): a view -> PNG bytes."""

    def render_turn(self, view: V_contra, seat: int, names: list[str], *, locale: str = ...) -> bytes: ...

    def render_board(self, view: V_contra, names: list[str], *, locale: str = ...) -> bytes: ...

    def render_end(self, view: V_contra, names: list[str], *, locale: str = ...) -> bytes: ...

    def render_tiles(self, *, locale: str = ...) -> bytes: ...


class TurnStyle(Generic[V]):
    """How a game's turns are told: which moves are whole turns, and whose choices are public.

    The defaults fit an open game taken in turns. ``secret`` games (hidden hands) keep every choice
    private: each player opens their own.
    """

    secret = False

    def __init__(self, secret: bool | None = None) -> None:
        if secret is not None:
            self.secret = secret

    def public_choices(self, view: V) -> bool:
        """Whether the awaited player's choices may be shown on the public turn message."""
        return not self.secret

    def within_turn(self, acting_seat: int, awaiting: frozenset[int], newly_awaited: frozenset[int],
                    view: V) -> bool:
        """Whether a move was a step inside a turn rather than a whole turn (default: the same
        seat is still awaited and nobody new is)."""
        return acting_seat in awaiting and not newly_awaited

    def quiet_after(self, summary_key: str, acting_seat: int, awaiting: frozenset[int],
                    newly_awaited: frozenset[int], view: V) -> bool:
        """Whether a move needs no channel post (a step in a turn, or a secret choice).

        Open games ask :meth:`within_turn`; secret games stay quiet until someone new is awaited.
        """
        if not self.secret:
            return self.within_turn(acting_seat, awaiting, newly_awaited, view)
        return not newly_awaited


class Step:
    """One move of a replay as :meth:`StoryStyle.checkpoint` sees it; the public views are made when read."""

    def __init__(self, options: Mapping[str, Any], seat: int, kind: str, awaited_before: frozenset[int],
                 awaited_after: frozenset[int], before: Callable[[], View], after: Callable[[], View]) -> None:
        self.options = options
        """The game's options, as stored."""
        self.seat = seat
        self.kind = kind
        """The move's kind (only its kind: a move may hold a secret, such as the tiles a player kept)."""
        self.awaited_before = awaited_before
        self.awaited_after = awaited_after
        self._before = before
        self._after = after

    @cached_property
    def before(self) -> View:
        """The spectator's view before the move."""
        return self._before()

    @cached_property
    def after(self) -> View:
        """The spectator's view after the move."""
        return self._after()


class StoryStyle(ABC):
    """How a game's story is told (``bot/story.py``): its scores and its turns, read from public views only.

    A game declares a subclass; a game without one has no story. Everything here sees ``view(state,
    None)``, the spectator's view, so a story can never tell a hidden hand.
    """

    def axis(self, view: View) -> str:
        """What one point of the story is called: ``"turn"`` or ``"round"`` (``story.axis.<axis>``)."""
        return "turn"

    @abstractmethod
    def places(self, view: View) -> Sequence[str | Term | None]:
        """Everyone scored, in order: None for a seat (the caller names it), an Automa's own name (a term)."""

    @abstractmethod
    def scores(self, view: View) -> list[int]:
        """Each place's score as the game stands (final once the game is over), as :meth:`places`."""

    def round(self, view: View) -> int:
        """The round this view is in (0: the game has no rounds)."""
        return 0

    def checkpoint(self, step: Step) -> bool:
        """Whether a move closed a point of the story.

        The default: the acting seat's turn passed (it was awaited and no longer is).
        """
        return step.seat in step.awaited_before and step.seat not in step.awaited_after


Sample = tuple[str, Callable[[], Any]]
"""A named picture the render bench times: ``(kind, () -> PIL image)``."""


@dataclass(frozen=True)
class Game(Generic[V]):
    """One game, as every part of the bot knows it. ``V``: its view type, which its renderer,
    labeller and turn style read (generic code holds a ``Game[Any]``)."""

    kind: str
    rules: GameRules[Any]
    aliases: tuple[str, ...] = ()
    renderer: Renderer[V] | None = None
    labeller: Labeller[V] | None = None
    turns: TurnStyle[V] = field(default_factory=TurnStyle)
    calculator: Callable[[str], dict[str, Any]] | None = None
    """``score_text(text) -> JSON``: ``python -m bot score <kind> FILE``."""
    render_samples: Callable[[], list[Sample]] | None = None
    """Pictures of a seeded game for the render bench."""
    rules_topics: tuple[str, ...] = ("turn", "buildings", "scoring", "variants")
    """The topics of ``/game rules`` (texts ``<kind>.rules.<topic>.title`` and pages ``.1``, ``.2``…)."""
    story: StoryStyle | None = None
    """How the game's story is told at its end (scores and turns from public views); None: no story."""
    private_note: Callable[[Any, str], str | None] | None = None
    """A line only the player whose private view it is may read before choosing (Urban Panic: the tile in
    their hand), for front-ends that show no private prompt of their own (the terminal)."""

    @property
    def title_key(self) -> str:
        return self.rules.title_key or self.kind


_extra: dict[str, Game[Any]] = {}


def register(game: Game[Any]) -> None:
    """Add a game at run time (the tests' toy game)."""
    _extra[game.kind] = game


def register_rules(rules: GameRules[Any], *, secret: bool = False) -> Game[Any]:
    """Add a game that has only rules (no pictures, generic labels); ``secret``: hidden choices."""
    game: Game[Any] = Game(kind=rules.kind, rules=rules, turns=TurnStyle(secret))
    register(game)
    return game


def available() -> list[str]:
    """Kinds that can be played, in a stable order."""
    return list(GAMES) + sorted(_extra)


def resolve(name: str) -> str | None:
    """The kind a typed name means (kind or alias, any case, ``-`` or ``_`` or a space), or None."""
    wanted = name.strip().lower().replace("-", "").replace("_", "").replace(" ", "")
    for game in (*GAMES.values(), *_extra.values()):
        if wanted in {n.replace("-", "").replace("_", "").replace(" ", "") for n in (game.kind, *game.aliases)}:
            return game.kind
    return None


def get(kind: str) -> Game[Any]:
    """The game of a kind (or alias), or IllegalMove naming the unknown game."""
    found = GAMES.get(kind) or _extra.get(kind)
    if found is None:
        resolved = resolve(kind)
        found = GAMES.get(resolved) or _extra.get(resolved) if resolved else None
    if found is None:
        raise IllegalMove("error.unknown_game", game=kind)
    return found


def rules(kind: str) -> GameRules[Any]:
    """The rules of a game kind (shorthand for ``get(kind).rules``)."""
    return get(kind).rules


def option_name(kind: str, name: str, locale: str) -> str:
    """A game option's name in ``locale`` ("Mode", "Változat"); an option the catalogue does not name keeps its id."""
    return t_or(f"{get(kind).kind}.option_name.{name}", name, locale)


def option_value(kind: str, name: str, value: str, locale: str) -> str:
    """A game option's value in ``locale`` ("Expert", "parti (valós idejű)"); numbers and values the catalogue
    does not name are shown as they are typed."""
    return t_or(f"{get(kind).kind}.option_value.{name}.{value}", value, locale)


def shown_options(kind: str, options: Mapping[str, Any], locale: str) -> list[tuple[str, str]]:
    """The options a lobby lists, as (name, value) in ``locale``, in the game's own order (bookkeeping
    options, :attr:`OptionSpec.shown` False, left out)."""
    specs = {spec.name: spec for spec in get(kind).rules.option_specs}
    order = [n for n in specs if n in options] + [n for n in options if n not in specs]
    return [(option_name(kind, n, locale), option_value(kind, n, str(options[n]), locale)) for n in order
            if n not in specs or specs[n].shown]


def ai_level_name(level: str, locale: str) -> str:
    """An AI level's name in ``locale`` ("strong", "erős"); a level the catalogue does not name keeps its id."""
    return t_or(f"ai.level.{level}", level, locale)


def ai_seat_name(number: int, level: str, locale: str) -> str:
    """The name an AI seat is given in the game's language ("AI 2 (strong)", "ИИ 2 (сильный)"). It is kept with
    the seat, as a player's name is, so every message and picture of the game shows the same name."""
    return t("ai.seat_name", locale, number=number, level=ai_level_name(level, locale))


def sample_state(rules: GameRules[Any], options: dict[str, Any], seats: int, seed: int, moves: int | None) -> Any:
    """A seeded game played by the rules' second AI level for ``moves`` moves (None: to the end)."""
    state = rules.setup(options, seats, seed)
    level = rules.ai_levels[1] if len(rules.ai_levels) > 1 else rules.ai_levels[0]
    done = 0
    while not rules.is_over(state) and (moves is None or done < moves):
        for seat in sorted(rules.awaiting(state)):
            state = rules.apply(state, seat, rules.ai_move(state, seat, level, seed + done))
            done += 1
            if rules.is_over(state):
                break
    return state


def _declared() -> dict[str, Game[Any]]:
    from bot.games import btc, quadropolis, urbanpanic

    return {g.kind: g for g in (quadropolis.GAME, btc.GAME, urbanpanic.GAME)}


GAMES: dict[str, Game[Any]] = _declared()
"""kind -> Game, in the order the bot offers them."""
