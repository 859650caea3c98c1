-- 012: who is signed in on the web pages (issue 38).
-- Revises: nothing (four new tables).
-- Why: a player plays on the game page, so the page must know who they are: a server-side session
-- behind an HttpOnly cookie. Only a hash of each random secret is kept (the cookie's id, a sign-in
-- link's token, an OAuth2 state), so a copy of the database signs no one in. A session keeps the
-- Discord user's id, when it was made, how (a link from Discord, "Sign in with Discord", the terminal)
-- and when it ends (30 days); nothing else of the browser. Forget-me deletes every row of the user.

CREATE TABLE web_sessions (
    id_hash      TEXT    PRIMARY KEY,            -- sha256 hex of the cookie's random id
    user_xid     INTEGER NOT NULL,
    how          TEXT    NOT NULL CHECK (how IN ('link', 'discord', 'local')),
    created_at   INTEGER NOT NULL,
    expires_at   INTEGER NOT NULL
);
CREATE INDEX web_sessions_by_user ON web_sessions (user_xid);

CREATE TABLE web_signins (
    token_hash   TEXT    PRIMARY KEY,            -- sha256 hex of the link's random token
    user_xid     INTEGER NOT NULL,
    game_id      INTEGER,                        -- the game the link opens (for convenience)
    expires_at   INTEGER NOT NULL,               -- 10 minutes after it was made
    used_at      INTEGER                         -- single use: set when it signed someone in
);
CREATE INDEX web_signins_by_user ON web_signins (user_xid);

CREATE TABLE web_oauth (
    state_hash   TEXT    PRIMARY KEY,            -- sha256 hex of the OAuth2 state
    verifier     TEXT    NOT NULL,               -- the PKCE code verifier (random, no person in it)
    expires_at   INTEGER NOT NULL
);

CREATE TABLE web_moves (
    session_hash TEXT    NOT NULL REFERENCES web_sessions (id_hash) ON DELETE CASCADE,
    key          TEXT    NOT NULL,               -- the page's idempotency key for one move
    digest       TEXT    NOT NULL,               -- sha256 hex of the game, version and move asked
    version      INTEGER NOT NULL,               -- the game's version after that move
    created_at   INTEGER NOT NULL,
    PRIMARY KEY (session_hash, key)
);
