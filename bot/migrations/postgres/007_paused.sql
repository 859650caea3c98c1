-- 007 (PostgreSQL): a game whose channel or thread was deleted is paused; see ../007_paused.sql.

ALTER TABLE games ADD COLUMN paused_at BIGINT;
