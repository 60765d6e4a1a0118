-- What the Discord front end keeps: the fingerprint of the slash commands as
-- last synced (per target), and the users who refuse direct messages. Twin of ../0003_discord.sql.

CREATE TABLE command_syncs (
    target     TEXT PRIMARY KEY,  -- 'global' or 'guild:<id>'
    digest     TEXT NOT NULL,     -- sha256 of the command definitions synced
    synced_at  TEXT COLLATE "C" NOT NULL
);

CREATE TABLE dm_refusals (
    user_id    BIGINT PRIMARY KEY,  -- Discord answered 50007: cannot send messages to this user
    refused_at TEXT   COLLATE "C" NOT NULL
);
