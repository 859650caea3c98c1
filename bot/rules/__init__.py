"""Pure rules of every game. Games are declared in :mod:`bot.games`."""
