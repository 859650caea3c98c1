-- 008 (PostgreSQL): leases, so several bot processes (shards) can share one database; see ../008_leases.sql.

ALTER TABLE community_outbox ADD COLUMN lease_until BIGINT NOT NULL DEFAULT 0;
CREATE INDEX community_outbox_lease ON community_outbox (lease_until)
    WHERE status IN ('queued', 'claimed');

CREATE TABLE leases (
    work         TEXT    PRIMARY KEY,            -- what: 'ai:<game id>', 'timer:<game id>', 'tell:<game id>'
    game_id      BIGINT,
    held_by      TEXT    NOT NULL,               -- which process run (its boot id)
    lease_until  BIGINT  NOT NULL                -- epoch ms; after it anyone may take the work over
);
CREATE INDEX leases_by_expiry ON leases (lease_until);
