-- 002 (PostgreSQL): taking a move back; see ../002_undo.sql.

ALTER TABLE moves ADD COLUMN undone_at BIGINT;
