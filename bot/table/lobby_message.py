"""The lobby message: the one public message of a game before its start, with *Join*, *Leave* and *Start*.

`/ttr new` posts it (remembered through the service as "lobby"); every change
of the lobby (a join, a leave, an autopilot player) brings its list of players
up to date in place, with that change at its top (no new message), and when the game
starts or is cancelled its buttons are taken off (and it is forgotten). If
Discord fails an edit, nothing is lost: the buttons act on their game as it
is, and the service refuses what is no longer possible. It is written in the
server's language (bot/table/languages.py).
"""

from __future__ import annotations

import logging
from collections.abc import Sequence

import discord

from bot.present.i18n import speaking
from bot.present.lobby import lobby_text
from bot.service import GameInfo, GameStatus
from bot.service.front_records import FrontRecords
from bot.service.reading import ReadingService
from bot.table.languages import Languages
from bot.views.lobby import lobby_view

log = logging.getLogger(__name__)

LOBBY = "lobby"  # the kind of the remembered lobby message


class LobbyMessage:
    def __init__(
        self, client: discord.Client, reading: ReadingService, front: FrontRecords, languages: Languages
    ) -> None:
        self.client = client
        self.reading = reading  # the games
        self.front = front  # the lobby messages posted
        self.languages = languages

    def _channel(self, info: GameInfo) -> discord.PartialMessageable:
        return self.client.get_partial_messageable(info.channel_id, guild_id=info.guild_id)

    async def post(self, info: GameInfo, head: str) -> None:
        """Post the lobby message of a game just opened: `head` (what happened, in the server's language),
        the lobby, the buttons."""
        with speaking(await self.languages.server(info.guild_id)):
            content = "\n".join([*([head] if head else []), lobby_text(info)])[:2000]
            view = lobby_view(info.id, info.version)
        message = await self._channel(info).send(content, view=view, allowed_mentions=discord.AllowedMentions.none())
        await self.front.remember_message(info.id, LOBBY, info.channel_id, message.id)

    async def refresh(self, game_id: int, head: Sequence[str] | None = None) -> bool:
        """The lobby message as the game now stands: its list of players, or no buttons once the lobby is over.

        `head`: what happened last (in the server's language), in place of the message's first lines. True if a
        lobby message was brought up to date in place.
        """
        rows = await self.front.posted_messages(game_id, LOBBY)
        if not rows:
            return False
        info = await self.reading.game(game_id)
        language = await self.languages.server(info.guild_id)
        updated = False
        for row in rows:
            try:
                message = self._channel(info).get_partial_message(row.message_id)
                if info.status is GameStatus.LOBBY:
                    if head is None:
                        current = await message.fetch()
                        top = current.content.split("\n")[:-1]
                    else:
                        top = list(head)
                    with speaking(language):
                        content = "\n".join([*top, lobby_text(info)])[:2000]
                        view = lobby_view(info.id, info.version)
                    await message.edit(content=content, view=view, allowed_mentions=discord.AllowedMentions.none())
                    updated = True
                    continue
                await message.edit(view=None, allowed_mentions=discord.AllowedMentions.none())
            except discord.NotFound:
                pass  # deleted by someone: nothing to update
            except discord.HTTPException:
                log.warning("game #%d: could not update the lobby message %d", game_id, row.message_id, exc_info=True)
                continue
            await self.front.forget_message(row.message_id)
        return updated

    async def close(self, info: GameInfo) -> None:
        """After an action of a game that is out of its lobby: take the lobby's buttons off if they are still there."""
        if info.status is not GameStatus.LOBBY:
            await self.refresh(info.id)
