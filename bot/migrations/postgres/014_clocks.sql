-- 014 (PostgreSQL): correspondence clocks (issue 41); see ../014_clocks.sql. Differences: BIGINT for INTEGER.

CREATE TABLE clock_turns (
    game_id  BIGINT  NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    version  BIGINT  NOT NULL,               -- the game's version after which these seats are awaited
    at       BIGINT  NOT NULL,               -- epoch ms, UTC: when they began to be awaited
    seats    TEXT    NOT NULL,               -- JSON list of seat numbers
    PRIMARY KEY (game_id, version)
);

-- A vacation on one server that paused deadlines: from since until ended (NULL: still away).
CREATE TABLE clock_aways (
    guild_xid  BIGINT  NOT NULL,
    user_xid   BIGINT  NOT NULL,
    since      BIGINT  NOT NULL,
    ended      BIGINT ,
    PRIMARY KEY (guild_xid, user_xid, since)
);

-- The bot was down (its heartbeat stopped) from since until until: no bank ran.
CREATE TABLE clock_downtime (
    since  BIGINT  PRIMARY KEY,
    until  BIGINT  NOT NULL
);

-- /game give-time: one seat gave another ms of its bank's time (at most once a day per pair).
CREATE TABLE clock_gifts (
    game_id    BIGINT  NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    at         BIGINT  NOT NULL,
    from_seat  BIGINT  NOT NULL,
    to_seat    BIGINT  NOT NULL,
    ms         BIGINT  NOT NULL CHECK (ms > 0),
    PRIMARY KEY (game_id, from_seat, to_seat, at)
);

-- A league's time control (the clock setting's presets), the default of the games its members play in it.
ALTER TABLE community_leagues ADD COLUMN clock TEXT;
