-- The tournament's message (its settings, players and buttons) in its channel: kept, so that after a restart
-- the bot goes on updating the same message (bot/table/tournaments.py). One per tournament.

CREATE TABLE tournament_messages (
    tournament_id INTEGER PRIMARY KEY REFERENCES tournaments (id),
    channel_id    INTEGER NOT NULL,
    message_id    INTEGER NOT NULL
);
