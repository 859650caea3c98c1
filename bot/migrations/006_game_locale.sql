-- 006: the language a game speaks in its channel.
-- Revises: games (001).
-- Why: posts nobody clicked for (AI moves, timers, the announcements after a restart) were written in
-- English whatever the server spoke. A game now keeps the language it was opened in (the server's
-- preferred locale, or the host's choice), and every channel post of that game uses it.

ALTER TABLE games ADD COLUMN locale TEXT NOT NULL DEFAULT 'en';
