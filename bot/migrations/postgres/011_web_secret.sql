-- 011 (PostgreSQL): the key that signs the web pages' links when WEB_SECRET is not set; see
-- ../011_web_secret.sql. Differences: BIGINT integers.

CREATE TABLE web_secret (
    id          BIGINT  PRIMARY KEY CHECK (id = 1),
    secret      TEXT    NOT NULL,
    created_at  BIGINT  NOT NULL
);
