"""Every game's pictures, bound to its kind in one place: the picture front-end's registry.

A game's rules (:mod:`bot.games`) know nothing of pictures; here each game's renderer (``render/<kind>.py``,
its picture functions behind the one PNG adapter :class:`render.png.Pictures`) is bound to its kind, one
line per game, and the Discord presenters, the web page, the terminal, the story GIF and the benches ask
:func:`get` for it. A game bound to nothing draws no pictures (its sentences are told alone). A test or a
new front-end binds a game at run time with :func:`bind`.
"""

from __future__ import annotations

from typing import Any, Protocol, TypeVar

from bot import games
from render import btc, quadropolis, urbanpanic
from render.png import Pictures

V_contra = TypeVar("V_contra", bound=games.View, contravariant=True)


class Renderer(Protocol[V_contra]):
    """What a game's pictures offer every front-end: a view -> PNG bytes."""

    def render_turn(self, view: V_contra, seat: int, names: list[str], *, locale: str = ...) -> bytes: ...

    def render_board(self, view: V_contra, names: list[str], *, locale: str = ...) -> bytes: ...

    def render_end(self, view: V_contra, names: list[str], *, locale: str = ...) -> bytes: ...

    def render_tiles(self, *, locale: str = ...) -> bytes: ...

    def title(self, picture: str, view: V_contra, *, locale: str = ...) -> str: ...


_bound: dict[str, Renderer[Any]] = {}


def bind(kind: str, renderer: Renderer[Any]) -> None:
    """Bind a game's pictures to its kind (every game's below; the tests' toy games at run time)."""
    _bound[kind] = renderer


def get(kind: str) -> Renderer[Any] | None:
    """The pictures of a game kind (or alias), or None for a game that draws none; an unknown game is
    :func:`bot.games.get`'s refusal."""
    return _bound.get(games.get(kind).kind)


def bound() -> list[str]:
    """The kinds that have pictures."""
    return list(_bound)


bind(
    "quadropolis",
    Pictures(
        "quadropolis",
        turn=quadropolis.turn_image,
        board=quadropolis.board_image,
        end=quadropolis.end_image,
        more={"city": quadropolis.city_image},
        titles={"turn": quadropolis.turn_title, "board": quadropolis.board_title},
    ),
)
bind(
    "btc",
    Pictures(
        "btc",
        turn=btc.turn_image,
        board=btc.board_image,
        end=btc.end_image,
        titles={"turn": btc.turn_title, "board": btc.board_title},
    ),
)
bind(
    "urbanpanic",
    Pictures(
        "urbanpanic",
        turn=urbanpanic.turn_image,
        board=urbanpanic.board_image,
        end=urbanpanic.end_image,
        titles={"turn": urbanpanic.turn_title, "board": urbanpanic.board_title},
    ),
)
