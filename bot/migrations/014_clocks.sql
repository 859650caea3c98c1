-- 014: correspondence clocks (issue 41): what each player's time bank is computed from.
-- Revises: community_leagues (003: a new column, clock); otherwise new tables (a game's rows cascade with it).
-- Why: a bank is never a counter that ticks; it is computed (bot/community/clock.py) from committed
-- times: the move log (001), who was awaited from when (clock_turns, one row each time the awaited seats
-- changed), the vacations that paused deadlines (clock_aways: community_away keeps only the current one),
-- the time the bot was down (clock_downtime) and the time players gave each other (clock_gifts). The
-- time control itself is a setting (community_settings, key "clock").

CREATE TABLE clock_turns (
    game_id  INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    version  INTEGER NOT NULL,               -- the game's version after which these seats are awaited
    at       INTEGER NOT NULL,               -- epoch ms, UTC: when they began to be awaited
    seats    TEXT    NOT NULL,               -- JSON list of seat numbers
    PRIMARY KEY (game_id, version)
);

-- A vacation on one server that paused deadlines: from since until ended (NULL: still away).
CREATE TABLE clock_aways (
    guild_xid  INTEGER NOT NULL,
    user_xid   INTEGER NOT NULL,
    since      INTEGER NOT NULL,
    ended      INTEGER,
    PRIMARY KEY (guild_xid, user_xid, since)
);

-- The bot was down (its heartbeat stopped) from since until until: no bank ran.
CREATE TABLE clock_downtime (
    since  INTEGER PRIMARY KEY,
    until  INTEGER NOT NULL
);

-- /game give-time: one seat gave another ms of its bank's time (at most once a day per pair).
CREATE TABLE clock_gifts (
    game_id    INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    at         INTEGER NOT NULL,
    from_seat  INTEGER NOT NULL,
    to_seat    INTEGER NOT NULL,
    ms         INTEGER NOT NULL CHECK (ms > 0),
    PRIMARY KEY (game_id, from_seat, to_seat, at)
);

-- A league's time control (the clock setting's presets), the default of the games its members play in it.
ALTER TABLE community_leagues ADD COLUMN clock TEXT;
