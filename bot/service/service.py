"""The service: the only writer, in parts (:mod:`~bot.service.lobby`, :mod:`~bot.service.play`,
:mod:`~bot.service.ending`, :mod:`~bot.service.reads`) over one base (:mod:`~bot.service.base`)."""

from __future__ import annotations

from bot.service.ending import Ending
from bot.service.play import Play
from bot.service.reads import Reads


class Service(Play, Ending, Reads):
    """Lobby, turns and games over a :class:`bot.store.Store`, which is private to it (``_store``)."""
