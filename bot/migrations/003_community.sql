-- 003: asynchronous play for communities (issue 5): reminders, deadlines, votes, away, undo
-- proposals, followers, leagues.
-- Revises: nothing of 001/002 (new tables only; they point at games by id and cascade with them).
-- Why: players play over days, so everything the reminder loop knows must survive a restart: who
-- is awaited since when (community_waits, with the next moment anything is due), every reminder,
-- vote, AI move or notice claimed before it is sent and confirmed after (community_outbox, unique
-- nonce), open votes and undo proposals with their answers, per-player preferences and vacations,
-- per-server / per-game settings, and league membership and counted results. Ratings are not
-- stored: they are recomputed from the counted results, in finishing order, by the rating library.

-- Settings layered server -> game: only the keys set at each level (JSON).
CREATE TABLE community_settings (
    scope     TEXT    NOT NULL CHECK (scope IN ('guild', 'game')),
    scope_id  INTEGER NOT NULL,
    data      TEXT    NOT NULL,
    PRIMARY KEY (scope, scope_id)
) WITHOUT ROWID;

-- A player's own preferences, the same on every server: time zone, quiet hours, DM opt-ins (JSON).
CREATE TABLE community_players (
    user_xid  INTEGER PRIMARY KEY,
    data      TEXT    NOT NULL
);

-- Vacation on one server ("/game away"): reminders stop; deadlines pause if the server says so.
CREATE TABLE community_away (
    guild_xid        INTEGER NOT NULL,
    user_xid         INTEGER NOT NULL,
    since            INTEGER NOT NULL,            -- epoch ms, UTC
    until            INTEGER NOT NULL,
    pauses_deadlines INTEGER NOT NULL DEFAULT 1,
    PRIMARY KEY (guild_xid, user_xid)
);
CREATE INDEX community_away_by_until ON community_away (until);

-- One row per awaited human seat of an active game: the reminder loop's whole state.
CREATE TABLE community_waits (
    game_id          INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    seat             INTEGER NOT NULL,
    guild_xid        INTEGER,
    channel_xid      INTEGER,
    user_xid         INTEGER NOT NULL,
    since            INTEGER NOT NULL,            -- when this seat began to be awaited (this turn)
    since_version    INTEGER NOT NULL,            -- the game's version then
    reminders_sent   INTEGER NOT NULL DEFAULT 0,
    last_reminder_at INTEGER,
    snoozed_until    INTEGER,
    credit_ms        INTEGER NOT NULL DEFAULT 0,  -- time not counted against the deadline
    paused_since     INTEGER,                     -- away with deadlines paused, since then
    deadline_state   TEXT    NOT NULL DEFAULT 'pending'
                     CHECK (deadline_state IN ('pending', 'voting', 'acting', 'taking_over', 'done')),
    state_at         INTEGER,                     -- when deadline_state last changed
    vote_version     INTEGER,                     -- key of the open vote about this seat
    turn_notice      INTEGER NOT NULL DEFAULT 0,  -- a "your turn" DM is owed (opt-in)
    last_notice      INTEGER NOT NULL DEFAULT 0,  -- a "you are the last to choose" mention is owed
    due_at           INTEGER,                     -- next moment anything may be due; NULL: nothing
    PRIMARY KEY (game_id, seat)
);
CREATE INDEX community_waits_due ON community_waits (due_at) WHERE due_at IS NOT NULL;
CREATE INDEX community_waits_by_user ON community_waits (user_xid, guild_xid);

-- Every side effect of the loop: claimed (recorded) before it is sent, confirmed after. Rows a
-- listener records outside a loop pass start 'queued'; the next pass hands them out.
CREATE TABLE community_outbox (
    id           INTEGER PRIMARY KEY,
    kind         TEXT    NOT NULL,
    nonce        TEXT    NOT NULL UNIQUE,        -- sent to Discord, which refuses a second message
    game_id      INTEGER,
    seat         INTEGER,
    user_xid     INTEGER,
    guild_xid    INTEGER,
    channel_xid  INTEGER,
    params       TEXT    NOT NULL,               -- JSON
    created_at   INTEGER NOT NULL,
    claimed_at   INTEGER NOT NULL,
    claim_boot   TEXT    NOT NULL,               -- which process run claimed it
    attempts     INTEGER NOT NULL DEFAULT 1,
    status       TEXT    NOT NULL DEFAULT 'claimed'
                 CHECK (status IN ('queued', 'claimed', 'sent', 'skipped', 'failed')),
    done_at      INTEGER,
    message_xid  INTEGER
);
CREATE INDEX community_outbox_open ON community_outbox (claimed_at)
    WHERE status IN ('queued', 'claimed');
CREATE INDEX community_outbox_by_user ON community_outbox (guild_xid, user_xid, kind, created_at);

-- A vote of the other players when a deadline passed (policy "vote").
CREATE TABLE community_votes (
    game_id      INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    version      INTEGER NOT NULL,               -- the game's version when the vote opened (its key)
    seat         INTEGER NOT NULL,               -- the late seat
    user_xid     INTEGER,                        -- the late player
    voters       TEXT    NOT NULL,               -- JSON list of user ids who may vote
    opened_at    INTEGER NOT NULL,
    closes_at    INTEGER NOT NULL,
    status       TEXT    NOT NULL DEFAULT 'open'
                 CHECK (status IN ('open', 'decided', 'cancelled')),
    decision     TEXT,
    message_xid  INTEGER,
    PRIMARY KEY (game_id, version, seat)
);
CREATE INDEX community_votes_open ON community_votes (closes_at) WHERE status = 'open';

CREATE TABLE community_ballots (
    game_id    INTEGER NOT NULL,
    version    INTEGER NOT NULL,
    seat       INTEGER NOT NULL,
    voter_xid  INTEGER NOT NULL,
    choice     TEXT    NOT NULL,
    at         INTEGER NOT NULL,
    PRIMARY KEY (game_id, version, seat, voter_xid),
    FOREIGN KEY (game_id, version, seat) REFERENCES community_votes (game_id, version, seat)
        ON DELETE CASCADE
);

-- "/game undo": a proposal to take back a move, accepted by every other human player.
CREATE TABLE community_undo (
    game_id      INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    version      INTEGER NOT NULL,               -- the game's version the proposal is about
    proposer_xid INTEGER NOT NULL,
    seat         INTEGER NOT NULL,
    move         TEXT    NOT NULL,               -- JSON of the move to take back
    voters       TEXT    NOT NULL,               -- JSON list of user ids who must accept
    created_at   INTEGER NOT NULL,
    status       TEXT    NOT NULL DEFAULT 'open'
                 CHECK (status IN ('open', 'accepted', 'refused', 'expired')),
    message_xid  INTEGER,
    channel_xid  INTEGER,
    PRIMARY KEY (game_id, version)
);

CREATE TABLE community_undo_answers (
    game_id    INTEGER NOT NULL,
    version    INTEGER NOT NULL,
    voter_xid  INTEGER NOT NULL,
    accepted   INTEGER NOT NULL,
    at         INTEGER NOT NULL,
    PRIMARY KEY (game_id, version, voter_xid),
    FOREIGN KEY (game_id, version) REFERENCES community_undo (game_id, version) ON DELETE CASCADE
);

-- Spectators mentioned on a game's turns and end.
CREATE TABLE community_followers (
    game_id   INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    user_xid  INTEGER NOT NULL,
    since     INTEGER NOT NULL,
    PRIMARY KEY (game_id, user_xid)
) WITHOUT ROWID;

-- The loop's bookkeeping: heartbeat (to credit downtime) and the reconcile watermark.
CREATE TABLE community_meta (
    key    TEXT PRIMARY KEY,
    value  TEXT NOT NULL
) WITHOUT ROWID;

CREATE TABLE community_leagues (
    id          INTEGER PRIMARY KEY,
    guild_xid   INTEGER NOT NULL,
    name        TEXT    NOT NULL,
    kind        TEXT    NOT NULL,                -- game kind
    mode        TEXT,                            -- value of the game's first option, or NULL: any
    rated       INTEGER NOT NULL DEFAULT 0,      -- ratings shown (opt-in)
    forfeits    TEXT    NOT NULL DEFAULT 'loss' CHECK (forfeits IN ('loss', 'ignore')),
    abandoned   TEXT    NOT NULL DEFAULT 'ignore' CHECK (abandoned IN ('ignore', 'draw')),
    created_by  INTEGER,
    created_at  INTEGER NOT NULL
);
CREATE UNIQUE INDEX community_leagues_name ON community_leagues (guild_xid, name COLLATE NOCASE);

CREATE TABLE community_seasons (
    id          INTEGER PRIMARY KEY,
    league_id   INTEGER NOT NULL REFERENCES community_leagues (id) ON DELETE CASCADE,
    number      INTEGER NOT NULL,
    starts_at   INTEGER NOT NULL,
    ends_at     INTEGER NOT NULL,
    UNIQUE (league_id, number)
);

CREATE TABLE community_league_members (
    league_id  INTEGER NOT NULL REFERENCES community_leagues (id) ON DELETE CASCADE,
    user_xid   INTEGER NOT NULL,
    name       TEXT    NOT NULL,
    joined_at  INTEGER NOT NULL,
    PRIMARY KEY (league_id, user_xid)
) WITHOUT ROWID;

-- A finished game counted by a league: members' finishing order (JSON [{user, rank, ...}]).
CREATE TABLE community_league_games (
    league_id    INTEGER NOT NULL REFERENCES community_leagues (id) ON DELETE CASCADE,
    season_id    INTEGER NOT NULL REFERENCES community_seasons (id) ON DELETE CASCADE,
    game_id      INTEGER NOT NULL,
    finished_at  INTEGER NOT NULL,
    outcome      TEXT    NOT NULL,
    PRIMARY KEY (league_id, game_id)
);
CREATE INDEX community_league_games_order ON community_league_games (season_id, finished_at, game_id);
