-- 007: a game whose channel or thread was deleted is paused.
-- Revises: games (001).
-- Why: Discord answers 10003 Unknown Channel when a game's channel or thread is deleted; the game went
-- on unseen (votes closed, the AI played the missing players' turns for days). paused_at records when
-- the bot found the channel gone: the AI, timers, reminders and deadlines leave the game alone, it is
-- never counted in a league, and an admin can abandon it from another channel (/game abandon game:).

ALTER TABLE games ADD COLUMN paused_at INTEGER;
