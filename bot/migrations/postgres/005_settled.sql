-- 005 (PostgreSQL): which moves the Discord layer has finished announcing; see ../005_settled.sql.

ALTER TABLE games ADD COLUMN settled_version BIGINT NOT NULL DEFAULT 0;
UPDATE games SET settled_version = version;
