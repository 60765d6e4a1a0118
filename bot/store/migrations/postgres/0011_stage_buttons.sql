-- Which stage messages may still carry buttons (twin of ../0011_stage_buttons.sql; see the notes there).

ALTER TABLE messages ADD COLUMN buttons INTEGER NOT NULL DEFAULT 0;

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
