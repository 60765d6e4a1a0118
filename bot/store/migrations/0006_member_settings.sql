-- Each member's own settings, the same in every server (a key per setting: "confirmations" now,
-- "language" later), as JSON values. A member without a row has the defaults.

CREATE TABLE member_settings (
    user_id    INTEGER NOT NULL,
    key        TEXT    NOT NULL,
    value      TEXT    NOT NULL,  -- JSON
    updated_at TEXT    NOT NULL,
    PRIMARY KEY (user_id, key)
) WITHOUT ROWID;
