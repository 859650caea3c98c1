-- 010: the bot's own posts a forget-me must reach, and the edits it plans.
-- Revises: nothing (two new tables).
-- Why: /game forget-me cleared the database, but the lobbies, status messages, turn posts and recaps
-- the bot had posted still showed the player's name (issue 31). A turn post's id is kept when it is
-- posted (game_posts; also a recap, and a 'line': a sentence about the game that names a player, such
-- as a campaign's record), so a later forget-me can find every post of the player's games; the edits it
-- plans wait in privacy_edits until the background loop makes them, a few at a time, within
-- Discord's rate limits, each claimed with a lease (resumed after a restart) and marked done once.
-- Neither table holds a player's id or name: only where the bot's own messages are.

CREATE TABLE game_posts (
    message_xid  INTEGER PRIMARY KEY,            -- the bot's own message
    game_id      INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    channel_xid  INTEGER NOT NULL,
    kind         TEXT    NOT NULL CHECK (kind IN ('turn', 'recap', 'line')),
    version      INTEGER NOT NULL                -- the game's version the post shows
);
CREATE INDEX game_posts_by_game ON game_posts (game_id);

CREATE TABLE privacy_edits (
    id           INTEGER PRIMARY KEY,
    request      TEXT    NOT NULL,               -- one forget-me (a random token, not the player)
    kind         TEXT    NOT NULL CHECK (kind IN ('lobby', 'status', 'turn', 'recap', 'note')),
    game_id      INTEGER,
    version      INTEGER,                        -- a turn post's version
    channel_xid  INTEGER NOT NULL,
    message_xid  INTEGER NOT NULL,
    created_at   INTEGER NOT NULL,
    status       TEXT    NOT NULL DEFAULT 'planned'
                 CHECK (status IN ('planned', 'queued', 'claimed', 'done', 'gone', 'failed')),
    claim_boot   TEXT    NOT NULL DEFAULT '',
    lease_until  INTEGER NOT NULL DEFAULT 0,
    attempts     INTEGER NOT NULL DEFAULT 0,
    done_at      INTEGER
);
CREATE INDEX privacy_edits_open ON privacy_edits (status, id);
CREATE INDEX privacy_edits_by_request ON privacy_edits (request);
