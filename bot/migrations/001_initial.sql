-- 001: the first schema.
-- Revises: nothing (a new database).
-- Why: games, their seats, the append-only move log (the truth), a snapshot cache that replay can
-- always rebuild, and per-server settings.

CREATE TABLE games (
    id              INTEGER PRIMARY KEY,
    guild_xid       INTEGER,                 -- NULL for local (terminal) games
    channel_xid     INTEGER,                 -- channel or thread; NULL for local games
    kind            TEXT    NOT NULL,
    options         TEXT    NOT NULL,        -- JSON
    seed            INTEGER NOT NULL,
    status          TEXT    NOT NULL CHECK (status IN ('lobby', 'active', 'finished', 'abandoned')),
    version         INTEGER NOT NULL DEFAULT 0,
    host_xid        INTEGER,
    created_at      INTEGER NOT NULL,        -- epoch ms, UTC
    updated_at      INTEGER NOT NULL,
    started_at      INTEGER,
    finished_at     INTEGER,
    awaiting_since  INTEGER,                 -- when the current awaited set began waiting
    result          TEXT,                    -- JSON, when finished
    lobby_message_xid  INTEGER,
    status_message_xid INTEGER,
    turn_message_xid   INTEGER
);

-- One live game per channel or thread.
CREATE UNIQUE INDEX games_one_live_per_channel ON games (channel_xid)
    WHERE status IN ('lobby', 'active') AND channel_xid IS NOT NULL;
CREATE INDEX games_by_guild ON games (guild_xid, status);
CREATE INDEX games_by_status ON games (status, awaiting_since);

CREATE TABLE seats (
    game_id      INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    seat         INTEGER NOT NULL,
    user_xid     INTEGER,                    -- NULL for an AI seat
    ai_level     TEXT,                       -- set for AI seats (and seats taken over by the AI)
    name         TEXT    NOT NULL,
    resigned     INTEGER NOT NULL DEFAULT 0,
    joined_at    INTEGER NOT NULL,
    PRIMARY KEY (game_id, seat),
    CHECK (user_xid IS NOT NULL OR ai_level IS NOT NULL)
);
CREATE UNIQUE INDEX seats_one_per_user ON seats (game_id, user_xid) WHERE user_xid IS NOT NULL;
CREATE INDEX seats_by_user ON seats (user_xid);

CREATE TABLE moves (
    game_id    INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    version    INTEGER NOT NULL,             -- the game's version after this move (1, 2, ...)
    seat       INTEGER NOT NULL,             -- -1 for system moves (timers)
    move       TEXT    NOT NULL,             -- JSON
    at         INTEGER NOT NULL,             -- epoch ms, UTC
    actor_xid  INTEGER,                      -- who clicked (NULL for AI and system)
    PRIMARY KEY (game_id, version)
) WITHOUT ROWID;

CREATE TABLE snapshots (
    game_id  INTEGER PRIMARY KEY REFERENCES games (id) ON DELETE CASCADE,
    version  INTEGER NOT NULL,
    state    TEXT    NOT NULL                -- JSON of the rules state at that version
);

CREATE TABLE guild_settings (
    guild_xid  INTEGER PRIMARY KEY,
    data       TEXT NOT NULL                 -- JSON
);
