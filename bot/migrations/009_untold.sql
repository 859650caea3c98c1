-- 009: an index of the games with a change not yet announced.
-- Revises: games (001, 005).
-- Why: every few seconds each process looks for moves a stopped process committed but never
-- announced (settled_version < version, last changed longer ago than a lease). Those games are
-- few at any time; the index keeps that look as small as they are however many games exist.

CREATE INDEX games_untold ON games (updated_at) WHERE settled_version < version;
