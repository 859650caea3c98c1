-- 002: taking a move back.
-- Revises: moves (001).
-- Why: /game undo must not rewrite the log. A taken-back move stays in the log, marked with the
-- time it was undone; replay skips it, and the game's version still moves forward so old buttons
-- stay stale.

ALTER TABLE moves ADD COLUMN undone_at INTEGER;
