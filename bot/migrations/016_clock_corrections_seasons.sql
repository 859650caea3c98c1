-- 016: a host's or moderator's correction of a player's time bank, and a league season's time control
-- (issue 41).
-- Revises: community_seasons (003: a new column, clock); otherwise one new table (a game's rows cascade
-- with it).
-- Why: /game settings bank_player: bank_hours: adds time to one player's bank or takes some away. Like a
-- gift (clock_gifts, 014) it is a committed record the bank is computed from (bot/community/clock.py),
-- never an edit of a counter; unlike a gift it may be negative and is not limited to once a day. Who
-- corrected is not kept here: the channel was told, in a post forget-me edits like the others.

CREATE TABLE clock_corrections (
    game_id  INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    at       INTEGER NOT NULL,               -- epoch ms, UTC: when the correction was made
    seat     INTEGER NOT NULL,               -- whose bank
    ms       INTEGER NOT NULL CHECK (ms <> 0)  -- added (negative: taken away)
);
-- Two corrections of one seat in the same millisecond are two corrections: no key but the game's index.
CREATE INDEX clock_corrections_game ON clock_corrections (game_id, at);

-- A season's time control (a preset of the clock setting; NULL: none, the server's), the one the games of
-- its members start with while it runs. A league's own clock (014) is now what its next seasons start
-- with; the seasons there already take it, as it was "for all its seasons" until now.
ALTER TABLE community_seasons ADD COLUMN clock TEXT;
UPDATE community_seasons
    SET clock = (SELECT clock FROM community_leagues WHERE community_leagues.id = community_seasons.league_id);
