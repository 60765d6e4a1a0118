-- Each member's own settings, the same in every server (twin of ../0006_member_settings.sql).

CREATE TABLE member_settings (
    user_id    BIGINT NOT NULL,
    key        TEXT   NOT NULL,
    value      TEXT   NOT NULL,  -- JSON
    updated_at TEXT   COLLATE "C" NOT NULL,
    PRIMARY KEY (user_id, key)
);
