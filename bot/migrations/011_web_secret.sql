-- 011: the key that signs the web pages' links, when WEB_SECRET is not set.
-- Revises: nothing (one new table).
-- Why: a game, league or player page exists only behind a link signed with HMAC (issue 28); a key
-- generated on the first start and kept here keeps every link posted so far valid across restarts,
-- and every process sharing the database signs and checks with the same key. One row at most.
-- No player's id or name: a random key and when it was made.

CREATE TABLE web_secret (
    id          INTEGER PRIMARY KEY CHECK (id = 1),
    secret      TEXT    NOT NULL,               -- hex of 32 random bytes
    created_at  INTEGER NOT NULL
);
