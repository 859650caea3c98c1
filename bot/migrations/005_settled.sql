-- 005: which moves the Discord layer has finished announcing.
-- Revises: games (001).
-- Why: a move committed just before the bot was killed, whose turn message was never posted, must
-- be announced after the restart without anyone asking. settled_version is the version of the last
-- move whose announcement completed; on start every game behind it is announced again.

ALTER TABLE games ADD COLUMN settled_version INTEGER NOT NULL DEFAULT 0;
UPDATE games SET settled_version = version;
