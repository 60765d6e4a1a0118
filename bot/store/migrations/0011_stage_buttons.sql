-- Which stage messages may still carry buttons (bot/table/stage.py). A stage message posted with buttons is
-- marked in the same write that records it; the mark is cleared once its buttons are taken off, or given up
-- on (the message was deleted or cannot be edited). A crash between posting a new stage message and taking
-- the buttons off the one before leaves the older one marked, and the next start takes them off then.

ALTER TABLE messages ADD COLUMN buttons INTEGER NOT NULL DEFAULT 0;

-- The buttons live now: the newest stage message of every game being played, when it is not the final one.
UPDATE messages SET buttons = 1
WHERE (kind = 'setup' OR kind LIKE 'setup#%' OR kind LIKE 'place:%' OR kind LIKE 'turn:%')
  AND game_id IN (SELECT id FROM games WHERE status IN ('setup', 'playing'))
  AND NOT EXISTS (
      SELECT 1 FROM messages AS newer
      WHERE newer.game_id = messages.game_id
        AND (newer.kind = 'setup' OR newer.kind LIKE 'setup#%' OR newer.kind LIKE 'place:%'
             OR newer.kind LIKE 'turn:%' OR newer.kind = 'final' OR newer.kind LIKE 'final#%')
        AND (newer.created_at > messages.created_at
             OR (newer.created_at = messages.created_at AND newer.message_id > messages.message_id))
  );

CREATE INDEX messages_buttons ON messages (game_id) WHERE buttons = 1;
