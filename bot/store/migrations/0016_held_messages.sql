-- Direct messages held for later (bot/notify.py): a member's quiet hours, or a "your turn" note the member wants
-- only once a turn has waited some hours. Each is sent once when due (deleted as it is taken), and a note about a
-- wait that is over by then (`wait`: the seat's wait key, like "turn:12") is dropped instead.

CREATE TABLE held_messages (
    id         INTEGER PRIMARY KEY,
    user_id    INTEGER NOT NULL,
    game_id    INTEGER,
    kind       TEXT    NOT NULL,  -- what the message is: turn, start, reminder, played_for, seat, away
    wait       TEXT,              -- the wait it is about (NULL: about no wait, always sent)
    text       TEXT    NOT NULL,
    due_at     TEXT    NOT NULL,  -- UTC ISO-8601, sorts as text
    created_at TEXT    NOT NULL
);

CREATE INDEX held_messages_due ON held_messages (due_at);
CREATE INDEX held_messages_user ON held_messages (user_id);
