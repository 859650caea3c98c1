-- 012 (PostgreSQL): who is signed in on the web pages; see ../012_web_sessions.sql. Differences:
-- BIGINT integers.

CREATE TABLE web_sessions (
    id_hash      TEXT    PRIMARY KEY,
    user_xid     BIGINT  NOT NULL,
    how          TEXT    NOT NULL CHECK (how IN ('link', 'discord', 'local')),
    created_at   BIGINT  NOT NULL,
    expires_at   BIGINT  NOT NULL
);
CREATE INDEX web_sessions_by_user ON web_sessions (user_xid);

CREATE TABLE web_signins (
    token_hash   TEXT    PRIMARY KEY,
    user_xid     BIGINT  NOT NULL,
    game_id      BIGINT,
    expires_at   BIGINT  NOT NULL,
    used_at      BIGINT
);
CREATE INDEX web_signins_by_user ON web_signins (user_xid);

CREATE TABLE web_oauth (
    state_hash   TEXT    PRIMARY KEY,
    verifier     TEXT    NOT NULL,
    expires_at   BIGINT  NOT NULL
);

CREATE TABLE web_moves (
    session_hash TEXT    NOT NULL REFERENCES web_sessions (id_hash) ON DELETE CASCADE,
    key          TEXT    NOT NULL,
    digest       TEXT    NOT NULL,
    version      BIGINT  NOT NULL,
    created_at   BIGINT  NOT NULL,
    PRIMARY KEY (session_hash, key)
);
