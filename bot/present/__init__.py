"""Text for Discord: card names and payments, hands, turn messages, rules, recaps. No Discord calls."""
