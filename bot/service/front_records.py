"""What the Discord front end keeps in the database, through the service: the messages it posted for a game
(and each tournament's message), the members who refuse direct messages, the slash command definitions last
synced, and which games to look at.

A thin layer over the store, so that nothing outside the service touches the store.
"""

from __future__ import annotations

from dataclasses import dataclass

from bot.service.checks import check_id
from bot.service.core import ServiceCore
from bot.service.errors import IdKind
from bot.store import ACTIVE, GameStatus
from bot.store.protocols import GameStore, MessageStore, SettingsStore


@dataclass(frozen=True)
class PostedMessage:
    """A message the bot posted for a game: `kind` says what it is (a stage, a reminder, a score breakdown).

    `buttons`: it was posted with buttons that may still be on it (neither taken off nor given up on yet).
    """

    kind: str
    channel_id: int
    message_id: int
    buttons: bool = False


class FrontRecords:
    def __init__(
        self, core: ServiceCore, game_store: GameStore, message_store: MessageStore, settings_store: SettingsStore
    ) -> None:
        self.core = core
        self.game_store = game_store
        self.message_store = message_store
        self.settings_store = settings_store

    async def posted_messages(self, game_id: int, kind: str | None = None) -> list[PostedMessage]:
        """The messages posted for a game (of one kind, or all), oldest first."""
        rows = await self.message_store.messages(game_id, kind)
        return [PostedMessage(r.kind, r.channel_id, r.message_id, r.buttons) for r in rows]

    async def remember_message(
        self, game_id: int, kind: str, channel_id: int, message_id: int, *, buttons: bool = False
    ) -> None:
        """Record a message posted for a game; `buttons`: it carries buttons (marked until `buttons_gone`)."""
        await self.message_store.add_message(game_id, kind, channel_id, message_id, buttons)

    async def buttons_gone(self, message_id: int) -> None:
        """The message's buttons were taken off, or given up on (deleted, cannot be edited): not looked at again."""
        await self.message_store.clear_buttons(message_id)

    async def games_with_buttons(self) -> list[int]:
        """The games (of this process's shards, any status, finished ones too) with a message still marked as
        carrying buttons: each may have an older stage message whose buttons must come off."""
        rows = await self.message_store.games_with_buttons()
        return [row.id for row in rows if self.core.shards is None or self.core.shards.owns(row.guild_id)]

    async def forget_message(self, message_id: int) -> None:
        await self.message_store.delete_message(message_id)

    async def tournament_message(self, tournament_id: int) -> int | None:
        """The id of a tournament's message in its channel, if the front kept one (`remember_tournament_message`)."""
        kept = await self.message_store.tournament_message(tournament_id)
        return None if kept is None else kept[1]

    async def remember_tournament_message(self, tournament_id: int, channel_id: int, message_id: int) -> None:
        """Keep a tournament's message (in place of the one kept before), so a restart goes on updating it."""
        await self.message_store.set_tournament_message(tournament_id, channel_id, message_id)

    async def refuses_dms(self, user_id: int) -> bool:
        """Has Discord refused a direct message to this member (they closed them)?"""
        return await self.message_store.dm_refused(user_id)

    async def set_refuses_dms(self, user_id: int, refused: bool) -> None:
        await self.message_store.set_dm_refused(user_id, refused)
        if refused:
            self.core.observer.dm_refused()

    async def synced_commands(self, target: str) -> str | None:
        """The fingerprint of the slash commands last synced to `target` (an application and a server, or global)."""
        return await self.settings_store.command_digest(target)

    async def set_synced_commands(self, target: str, digest: str) -> None:
        await self.settings_store.set_command_digest(target, digest)

    async def latest_game_id(self, channel_id: int) -> int | None:
        """The newest game ever opened in a channel, whatever its status."""
        row = await self.game_store.latest_game(check_id(channel_id, IdKind.CHANNEL))
        return None if row is None else row.id

    async def running_games(self) -> list[int]:
        """The games that have started and are not over (of this process's shards): each has a stage to show."""
        rows = await self.game_store.games_with_status(ACTIVE - {GameStatus.LOBBY})
        return [row.id for row in rows if self.core.shards is None or self.core.shards.owns(row.guild_id)]
