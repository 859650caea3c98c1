-- 006 (PostgreSQL): the language a game speaks in its channel; see ../006_game_locale.sql.

ALTER TABLE games ADD COLUMN locale TEXT NOT NULL DEFAULT 'en';
