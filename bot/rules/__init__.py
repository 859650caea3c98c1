"""Pure rules of every game. Look games up with :func:`bot.rules.registry.get`."""
