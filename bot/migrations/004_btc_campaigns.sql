-- 004: Between Two Cities solo campaigns kept per player (issue 6; spec 10.10, D-23, D-24).
-- Revises: nothing of 001-003 (new tables only). Campaign games are ordinary rows of `games`
-- (kind 'btc' with the options campaign / campaign_game / campaign_used); these tables point at
-- them by id without a foreign key, so a campaign's record outlives any clean-up of old games.
-- Why: a campaign is a series of 3 or 6 solo games played over days, so its record must survive a
-- restart: the player, length, difficulty and mode, which game is next, the bonus types used so
-- far (letters S F T O P H, as the rules' `campaign_used` option), the game now open for it, each
-- game's result (score, won or lost against the Automas, campaign points, bonus) and the outcome
-- (the campaign's total CP, compared with the player's earlier campaigns).

CREATE TABLE btc_campaigns (
    id               INTEGER PRIMARY KEY,
    user_xid         INTEGER NOT NULL,
    guild_xid        INTEGER,                   -- where it was started (information only)
    length           INTEGER NOT NULL CHECK (length IN (3, 6)),
    difficulty       INTEGER NOT NULL CHECK (difficulty BETWEEN 1 AND 7),
    mode             TEXT    NOT NULL CHECK (mode IN ('solo_simple', 'solo_full')),
    status           TEXT    NOT NULL DEFAULT 'running'
                     CHECK (status IN ('running', 'complete', 'abandoned')),
    next_game        INTEGER NOT NULL DEFAULT 1, -- 1..length while running; length + 1 once complete
    used             TEXT    NOT NULL DEFAULT '', -- bonus type letters used so far, in game order
    total            INTEGER NOT NULL DEFAULT 0, -- campaign points so far (score + bonus per game)
    game_id          INTEGER,                   -- the game open for next_game (lobby or play), if any
    game_channel_xid INTEGER,                   -- where that game is
    started_at       INTEGER NOT NULL,          -- epoch ms, UTC
    updated_at       INTEGER NOT NULL,
    ended_at         INTEGER                    -- complete or abandoned
);
-- One running campaign per player.
CREATE UNIQUE INDEX btc_campaigns_one_running ON btc_campaigns (user_xid) WHERE status = 'running';
CREATE INDEX btc_campaigns_by_user ON btc_campaigns (user_xid, status, ended_at);
CREATE UNIQUE INDEX btc_campaigns_by_game ON btc_campaigns (game_id) WHERE game_id IS NOT NULL;

-- One row per counted game of a campaign (played to its bonus, or forfeited).
CREATE TABLE btc_campaign_games (
    campaign_id  INTEGER NOT NULL REFERENCES btc_campaigns (id) ON DELETE CASCADE,
    number       INTEGER NOT NULL,               -- 1..length
    game_id      INTEGER NOT NULL UNIQUE,
    outcome      TEXT    NOT NULL CHECK (outcome IN ('played', 'forfeit')),
    score        INTEGER NOT NULL,               -- the player's final score (the lower city)
    rank         INTEGER NOT NULL,               -- among the player and the two Automas
    won          INTEGER NOT NULL,               -- ranked first (D-22)
    points       INTEGER NOT NULL,               -- campaign points from the score
    bonus_type   TEXT    NOT NULL,               -- shops ... houses (a forfeit uses one up with 0)
    bonus_city   INTEGER,                        -- the city the bonus was read from
    bonus        INTEGER NOT NULL,               -- bonus points (doubled if won)
    total        INTEGER NOT NULL,               -- points + bonus
    automas      TEXT    NOT NULL,               -- JSON [{name, total, rank}]
    finished_at  INTEGER NOT NULL,
    PRIMARY KEY (campaign_id, number)
) WITHOUT ROWID;
