-- 016 (PostgreSQL): a host's or moderator's correction of a player's time bank, and a league season's
-- time control (issue 41); see ../016_clock_corrections_seasons.sql. Differences: BIGINT for INTEGER.

CREATE TABLE clock_corrections (
    game_id  BIGINT  NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    at       BIGINT  NOT NULL,               -- epoch ms, UTC: when the correction was made
    seat     BIGINT  NOT NULL,               -- whose bank
    ms       BIGINT  NOT NULL CHECK (ms <> 0)  -- added (negative: taken away)
);
-- Two corrections of one seat in the same millisecond are two corrections: no key but the game's index.
CREATE INDEX clock_corrections_game ON clock_corrections (game_id, at);

-- A season's time control (a preset of the clock setting; NULL: none, the server's), the one the games of
-- its members start with while it runs. A league's own clock (014) is now what its next seasons start
-- with; the seasons there already take it, as it was "for all its seasons" until now.
ALTER TABLE community_seasons ADD COLUMN clock TEXT;
UPDATE community_seasons
    SET clock = (SELECT clock FROM community_leagues WHERE community_leagues.id = community_seasons.league_id);
