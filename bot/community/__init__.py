"""Asynchronous play for communities (issue 5), without Discord, one module per feature:

- :mod:`.base`: time units, the refusal error, the loop's actions, what every feature shares;
- :mod:`.settings`: server and game settings, player preferences (time zone, quiet hours, DMs);
- :mod:`.reminders`: the reminder loop (waits, reminders, notices, vacations, snooze, deadlines);
- :mod:`.votes`: what happens at a deadline (timeout votes, AI moves, more time);
- :mod:`.clock`: correspondence clocks, pure (each seat's time bank from committed timestamps);
- :mod:`.undo`: taking a move back by agreement;
- :mod:`.history`: finished games, replay and export;
- :mod:`.followers`: spectators mentioned on a game's turns;
- :mod:`.leagues`: leagues, seasons, standings and ratings.

Each feature is built once, and subscribed once to the service, by :func:`bot.composition.compose`;
each forgets a player on request (``forget_user``).
"""
