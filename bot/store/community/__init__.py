"""The community tables (migration 003), one module per feature; the only code that speaks their SQL.

Writes go through :meth:`bot.store.Store.transaction` (one writer at a time); reads use the shared
connection. Rows come back as plain dataclasses; JSON columns are decoded here. Time is always a
parameter (epoch ms, UTC); nothing here reads a clock.

Modules: :mod:`.outbox` (every side effect, claimed before it is sent), :mod:`.columns` (the column
lists of waits and votes, written together in one transaction), :mod:`.settings` (server and
game settings, player preferences), :mod:`.reminders` (waits, vacations, the loop's bookkeeping),
:mod:`.votes` (timeout votes and ballots), :mod:`.undo` (undo proposals and answers),
:mod:`.followers` and :mod:`.leagues` (leagues, seasons, members, counted games). Each declares the
columns that hold a player's Discord id or name (``PERSONAL_COLUMNS``) and forgets them in
``forget_user``.
"""
