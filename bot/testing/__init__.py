"""What the tests and the load bench share, shipped in the package so ``python -m bot.bench`` runs
from an installed bot in any folder: the fake Discord (:mod:`bot.testing.fakediscord`, strict
against Discord's published OpenAPI description), the toy game (:mod:`bot.testing.toygame`) and the
bot-process entry point that registers it (:mod:`bot.testing.entry`).

Nothing here is imported by the bot itself (``python -m bot``); the layer test checks it.
"""
