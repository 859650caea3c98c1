"""Domain errors of the service layer. Each carries a catalogue message id (bot/locales/en/)."""

from __future__ import annotations

from bot.rules.core import GameError, GameOver, IllegalMove, NotYourTurn

__all__ = [
    "AlreadyJoined",
    "ChannelBusy",
    "GameError",
    "GameOver",
    "IllegalMove",
    "LobbyFull",
    "NoGameHere",
    "NotAllowed",
    "NotHost",
    "NotInGame",
    "NotInLobby",
    "NotYourTurn",
    "SeatCount",
    "StaleAction",
    "UnknownGame",
]


class NoGameHere(GameError):
    default_key = "error.no_game_here"


class UnknownGame(GameError):
    default_key = "error.unknown_game_id"


class ChannelBusy(GameError):
    default_key = "error.channel_busy"


class NotInGame(GameError):
    default_key = "error.not_in_game"


class AlreadyJoined(GameError):
    default_key = "error.already_joined"


class LobbyFull(GameError):
    default_key = "error.lobby_full"


class NotInLobby(GameError):
    default_key = "error.not_in_lobby"


class NotHost(GameError):
    default_key = "error.not_host"


class NotAllowed(GameError):
    default_key = "error.not_allowed"


class SeatCount(GameError):
    default_key = "error.seat_count"


class StaleAction(GameError):
    """A button or command computed for an older version of the game."""

    default_key = "error.stale"
