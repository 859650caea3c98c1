"""``python -m bot local``: play a game in a terminal, or replay an exported one.

Three modules: :mod:`bot.local.args` (the command line: parser, checks, the command), :mod:`bot.local.terminal`
(the terminal front-end: an Announcer that prints and draws, the game's loop, ``--web``) and
:mod:`bot.local.replay` (``--replay FILE``, over :mod:`bot.export`). The names below are re-exported.
"""

from __future__ import annotations

from bot.local.args import check_arguments, command, main, parser
from bot.local.replay import check_claims, read_export, replay, replay_command
from bot.local.terminal import DEFAULT_DB, Quit, Terminal

__all__ = [
    "DEFAULT_DB",
    "Quit",
    "Terminal",
    "check_arguments",
    "check_claims",
    "command",
    "main",
    "parser",
    "read_export",
    "replay",
    "replay_command",
]
