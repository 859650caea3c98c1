-- 016 (PostgreSQL): a host's or moderator's correction of a player's time bank (issue 41); see
-- ../016_clock_corrections.sql. Differences: BIGINT for INTEGER.

CREATE TABLE clock_corrections (
    game_id  BIGINT  NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    at       BIGINT  NOT NULL,               -- epoch ms, UTC: when the correction was made
    seat     BIGINT  NOT NULL,               -- whose bank
    ms       BIGINT  NOT NULL CHECK (ms <> 0)  -- added (negative: taken away)
);
-- Two corrections of one seat in the same millisecond are two corrections: no key but the game's index.
CREATE INDEX clock_corrections_game ON clock_corrections (game_id, at);
