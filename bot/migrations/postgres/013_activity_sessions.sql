-- 013 (PostgreSQL): a session opened by the Discord Activity is bound to its instance; see
-- ../013_activity_sessions.sql. Differences: the CHECK is dropped and added again in place (no rebuild).

ALTER TABLE web_sessions DROP CONSTRAINT web_sessions_how_check;
ALTER TABLE web_sessions ADD COLUMN instance_id TEXT;
ALTER TABLE web_sessions ADD CONSTRAINT web_sessions_how_check
    CHECK (how IN ('link', 'discord', 'local', 'activity'));
ALTER TABLE web_sessions ADD CONSTRAINT web_sessions_instance_check
    CHECK ((how = 'activity') = (instance_id IS NOT NULL));
CREATE INDEX web_sessions_by_instance ON web_sessions (instance_id) WHERE instance_id IS NOT NULL;
