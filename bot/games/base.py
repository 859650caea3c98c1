"""What a game is, as every part of the bot knows it: :class:`Game` (its rules, once), its turn style,
its story style and the protocol of its labeller. The registry of the games is :mod:`bot.games`; each
game's declaration (``bot/games/<kind>.py``) imports this module, not the registry, so the two never
import each other. A game's pictures, Discord side and bench pictures are no part of it: each front-end
binds its own to the game's kind (:mod:`render.pictures`, :mod:`cogs.games`, :mod:`bot.benches.render`),
so nothing here imports picture code."""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any, Generic, TypeVar

from bot.i18n import t
from bot.rules.core import GameRules, Term

View = Mapping[str, Any]
"""A view as generic code (service, turn flow, front-ends) holds it: read-only. Each game's own code
reads its precise TypedDict (``bot/rules/<kind>/viewtypes.py``)."""

V = TypeVar("V", bound=View)
"""A game's view type (its TypedDict)."""

Labeller = Callable[[Mapping[str, Any], V, str], "str | None"]
"""(move, the seat's view, locale) -> a short label, or None for the generic one."""

Teller = Callable[[str, dict[str, Any], V, "list[str] | None", str], list[str]]
"""(catalogue key, parameters with the names filled by :func:`bot.service.named`, the public view after
the move, the seats' names or None, locale) -> the lines that tell the move (:meth:`Game.tell`)."""


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

    def within_turn(self, acting_seat: int, awaiting: frozenset[int], newly_awaited: frozenset[int], view: V) -> bool:
        """Whether a move was a step inside a turn rather than a whole turn (default: the same
        seat is still awaited and nobody new is)."""
        return acting_seat in awaiting and not newly_awaited

    def quiet_after(
        self, summary_key: str, acting_seat: int, awaiting: frozenset[int], newly_awaited: frozenset[int], view: V
    ) -> bool:
        """Whether a move needs no channel post (a step in a turn, or a secret choice).

        Open games ask :meth:`within_turn`; secret games stay quiet until someone new is awaited.
        """
        if not self.secret:
            return self.within_turn(acting_seat, awaiting, newly_awaited, view)
        return not newly_awaited


class Step:
    """One move of a replay as :meth:`StoryStyle.checkpoint` sees it; the public views are made when read."""

    def __init__(
        self,
        options: Mapping[str, Any],
        seat: int,
        kind: str,
        awaited_before: frozenset[int],
        awaited_after: frozenset[int],
        before: Callable[[], View],
        after: Callable[[], View],
    ) -> None:
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


@dataclass(frozen=True)
class Game(Generic[V]):
    """One game's rules, declared once, as every part of the bot knows it. ``V``: its view type, which its
    labeller and turn style read (generic code holds a ``Game[Any]``)."""

    kind: str
    rules: GameRules[Any]
    aliases: tuple[str, ...] = ()
    labeller: Labeller[V] | None = None
    turns: TurnStyle[V] = field(default_factory=TurnStyle)
    calculator: Callable[[str], dict[str, Any]] | None = None
    """``score_text(text) -> JSON``: ``python -m bot score <kind> FILE``."""
    rules_topics: tuple[str, ...] = ("turn", "buildings", "scoring", "variants")
    """The topics of ``/game rules`` (texts ``<kind>.rules.<topic>.title`` and pages ``.1``, ``.2``…)."""
    story: StoryStyle | None = None
    """How the game's story is told at its end (scores and turns from public views); None: no story."""
    private_note: Callable[[Any, str], str | None] | None = None
    """A line only the player whose private view it is may read before choosing (a tile drawn into the
    hand), for front-ends that show no private prompt of their own (the terminal)."""
    teller: Teller[V] | None = None
    """How a move is told, when not by the rules' sentence alone (a game may tell a whole turn at the
    END_TURN); every front-end tells a move through :meth:`tell`."""

    def tell(
        self, key: str, params: Mapping[str, Any], view: V, locale: str, names: list[str] | None = None
    ) -> list[str]:
        """The lines that tell a move, the same in the channel, on the web page and in the terminal:
        the game's :attr:`teller`, else the rules' sentence. ``view``: the public view after the move
        (``view(state, None)``); ``names``: the seats' names as the front-end shows them."""
        if self.teller is None:
            return [t(key, locale, **params)]
        return self.teller(key, dict(params), view, names, locale)

    @property
    def title_key(self) -> str:
        return self.rules.title_key or self.kind


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
