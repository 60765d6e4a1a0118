"""Direct messages: "your turn" notes, reminders and seat news for players who accept them.

Discord refuses a DM to a user who has closed them (403, code 50007). The
refusal is remembered in the database (through the game service) and that user gets no more attempts:
failed requests count towards Discord's limit of invalid requests, and the
game never depends on a DM anyway (the channel mention and the private
replies carry everything).
"""

from __future__ import annotations

import logging

import discord

from bot.service import GameService

log = logging.getLogger(__name__)

CANNOT_SEND_TO_USER = 50007


class Notifier:
    def __init__(self, client: discord.Client, service: GameService) -> None:
        self._client = client
        self._service = service

    async def dm(self, user_id: int, text: str, *, game_id: int | None = None) -> bool:
        """Send `text` to the user; False if they refuse DMs or Discord failed. Never raises for Discord errors.

        Autopilot players (negative ids) are nobody to write to: False.
        """
        if user_id <= 0:
            return False
        if await self._service.refuses_dms(user_id):
            return False
        try:
            channel = await self._client.create_dm(discord.Object(user_id))
            await channel.send(text[:2000], allowed_mentions=discord.AllowedMentions.none())
        except discord.Forbidden as exc:
            if exc.code == CANNOT_SEND_TO_USER:
                await self._service.set_refuses_dms(user_id, True)
                log.info("game #%s: user %d does not accept DMs; no more DMs to them", game_id, user_id)
            else:
                log.warning("game #%s: DM to user %d refused (%s)", game_id, user_id, exc.code)
            return False
        except discord.HTTPException as exc:
            log.warning("game #%s: DM to user %d failed (%s %s)", game_id, user_id, exc.status, exc.code)
            return False
        return True
