-- 015: the after-game analysis, queued and kept (issue 40).
-- Revises: nothing (one new table).
-- Why: weighing every move of a finished game takes seconds to a minute of CPU, so it is done by worker
-- processes away from the event loop, in the background, after the game ends (or when someone asks). The
-- queue is a table so that it survives a restart and no game is analysed twice by two processes: a row is
-- claimed with a lease like the community outbox's (claim_boot, lease_until: a compare-and-set on the row
-- read, bot/store/claims.py), renewed while the workers weigh it, taken over once a dead process's lease
-- has run out. The result is kept on the row as JSON, by seat number: no player's id or name, so a
-- forget-me has nothing to change here.

CREATE TABLE game_analyses (
    id           INTEGER PRIMARY KEY,
    game_id      INTEGER NOT NULL UNIQUE REFERENCES games (id) ON DELETE CASCADE,
    status       TEXT    NOT NULL DEFAULT 'queued'
                 CHECK (status IN ('queued', 'claimed', 'done', 'failed')),
    claim_boot   TEXT    NOT NULL DEFAULT '',
    lease_until  INTEGER NOT NULL DEFAULT 0,
    attempts     INTEGER NOT NULL DEFAULT 0,
    created_at   INTEGER NOT NULL,
    done_at      INTEGER,
    samples      INTEGER NOT NULL,               -- the budget: determinizations per candidate
    result       TEXT                            -- GameAnalysis.to_json(), seats by number; NULL until done
);
CREATE INDEX game_analyses_open ON game_analyses (status, id);
