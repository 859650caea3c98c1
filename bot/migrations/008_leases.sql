-- 008: leases, so several bot processes (shards) can share one database.
-- Revises: community_outbox (003); adds leases.
-- Why: with several processes on one database exactly one may act on each timed thing, and a process
-- killed mid-claim must be taken over. An outbox claim now carries its owner (claim_boot) and
-- lease_until: another process takes it over (compare-and-set on the owner) only once the lease ran
-- out, with the same nonce. leases holds the other background work of a game (an awaited AI seat, a
-- timer, telling a move nobody announced): the row exists while the work is pending, its owner renews
-- it while working, and a row whose lease ran out is work a dead process left behind.

ALTER TABLE community_outbox ADD COLUMN lease_until INTEGER NOT NULL DEFAULT 0;
CREATE INDEX community_outbox_lease ON community_outbox (lease_until)
    WHERE status IN ('queued', 'claimed');

CREATE TABLE leases (
    work         TEXT    PRIMARY KEY,            -- what: 'ai:<game id>', 'timer:<game id>', 'tell:<game id>'
    game_id      INTEGER,
    held_by      TEXT    NOT NULL,               -- which process run (its boot id)
    lease_until  INTEGER NOT NULL                -- epoch ms; after it anyone may take the work over
);
CREATE INDEX leases_by_expiry ON leases (lease_until);
