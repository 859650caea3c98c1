-- 013: a session opened by the Discord Activity is bound to its instance (issue 39).
-- Revises: 012's web_sessions (a new column, instance_id; "how" may also be 'activity').
-- Why: the Activity's sign-in (POST /api/token) holds for a user Discord lists in one instance; its session
-- lives as long as that instance does (a short server-side lifetime, and it ends when Discord no longer knows
-- the instance), so it keeps the instance's id. Exactly the Activity's sessions have one.
-- How: SQLite cannot widen a CHECK in place, so web_sessions is rebuilt: every row is copied, its index made
-- again. web_moves (which refers to it, ON DELETE CASCADE) is set aside first and put back after, so that
-- dropping the old table deletes none of its rows.

CREATE TABLE web_moves_kept AS SELECT session_hash, key, digest, version, created_at FROM web_moves;
DROP TABLE web_moves;

CREATE TABLE web_sessions_new (
    id_hash      TEXT    PRIMARY KEY,            -- sha256 hex of the cookie's random id
    user_xid     INTEGER NOT NULL,
    how          TEXT    NOT NULL CHECK (how IN ('link', 'discord', 'local', 'activity')),
    created_at   INTEGER NOT NULL,
    expires_at   INTEGER NOT NULL,
    instance_id  TEXT,                           -- the Activity's instance (Discord's id); NULL for the others
    CHECK ((how = 'activity') = (instance_id IS NOT NULL))
);
INSERT INTO web_sessions_new (id_hash, user_xid, how, created_at, expires_at)
    SELECT id_hash, user_xid, how, created_at, expires_at FROM web_sessions;
DROP TABLE web_sessions;
ALTER TABLE web_sessions_new RENAME TO web_sessions;
CREATE INDEX web_sessions_by_user ON web_sessions (user_xid);
CREATE INDEX web_sessions_by_instance ON web_sessions (instance_id) WHERE instance_id IS NOT NULL;

CREATE TABLE web_moves (
    session_hash TEXT    NOT NULL REFERENCES web_sessions (id_hash) ON DELETE CASCADE,
    key          TEXT    NOT NULL,               -- the page's idempotency key for one move
    digest       TEXT    NOT NULL,               -- sha256 hex of the game, version and move asked
    version      INTEGER NOT NULL,               -- the game's version after that move
    created_at   INTEGER NOT NULL,
    PRIMARY KEY (session_hash, key)
);
INSERT INTO web_moves (session_hash, key, digest, version, created_at)
    SELECT session_hash, key, digest, version, created_at FROM web_moves_kept;
DROP TABLE web_moves_kept;
