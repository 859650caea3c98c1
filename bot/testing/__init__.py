"""What the tests and the load bench share, left out of the installed package (``pip install .`` and the image
install the bot alone): a clone installed with ``pip install -e ".[bench]"`` (or the test extra) imports it, so
``python -m bot.bench`` runs from any folder: the fake Discord (:mod:`bot.testing.fakediscord`, strict
against Discord's published OpenAPI description), the toy game (:mod:`bot.testing.toygame`) and the
bot-process entry point that registers it (:mod:`bot.testing.entry`).

Nothing here is imported by the bot itself (``python -m bot``); the layer test checks it.
"""
