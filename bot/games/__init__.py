"""Every game, declared once: the one registry the bot, the terminal, the calculator and the bench read.

A game is one :class:`Game`: its kind (the one spelling used for the package, the catalogue prefix and
the files), other names people type, its rules, its move labels, its turn style, its score calculator and
its story. Each game declares itself in ``bot/games/<kind>.py``; adding a game means creating its own
files and adding one line to :data:`GAMES` below, then one line per front-end binding its own parts to the
kind: its pictures (:mod:`render.pictures`), its Discord presenter and cog (:mod:`cogs.games`), its bench
pictures (:mod:`bot.benches.render`). ``tests/test_registry.py`` keeps them in step. Nothing here imports
picture code.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from bot.games import btc, quadropolis, urbanpanic
from bot.games.base import Game, Labeller, Step, StoryStyle, TurnStyle, V, View, sample_state
from bot.i18n import t, t_or
from bot.rules.core import GameRules, IllegalMove

__all__ = [
    "GAMES",
    "Game",
    "Labeller",
    "Step",
    "StoryStyle",
    "TurnStyle",
    "V",
    "View",
    "ai_level_name",
    "ai_seat_name",
    "available",
    "get",
    "option_name",
    "option_value",
    "register",
    "register_rules",
    "resolve",
    "rules",
    "sample_state",
    "shown_options",
]

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
    return [
        (option_name(kind, n, locale), option_value(kind, n, str(options[n]), locale))
        for n in order
        if n not in specs or specs[n].shown
    ]


def ai_level_name(level: str, locale: str) -> str:
    """An AI level's name in ``locale`` ("strong", "erős"); a level the catalogue does not name keeps its id."""
    return t_or(f"ai.level.{level}", level, locale)


def ai_seat_name(number: int, level: str, locale: str) -> str:
    """The name an AI seat is given in the game's language ("AI 2 (strong)", "ИИ 2 (сильный)"). It is kept with
    the seat, as a player's name is, so every message and picture of the game shows the same name."""
    return t("ai.seat_name", locale, number=number, level=ai_level_name(level, locale))


def _declared() -> dict[str, Game[Any]]:
    return {g.kind: g for g in (quadropolis.GAME, btc.GAME, urbanpanic.GAME)}


GAMES: dict[str, Game[Any]] = _declared()
"""kind -> Game, in the order the bot offers them."""
