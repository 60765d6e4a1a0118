"""`/ttrmod log` and `/ttrmod export`: a moderator reads any game of the server, through the service, which
refuses a moderator seated in the running game and audits the read; the cog posts the audit's line."""

from __future__ import annotations

import io
import logging
from collections.abc import Awaitable, Callable

import discord
from discord import app_commands

from bot.cogs.common import member_names, record_file
from bot.cogs.mod_base import ModeratorBase
from bot.present.answers import file_caption
from bot.present.audit import log_text
from bot.present.mod_answers import (
    empty_log_text,
)
from bot.service import GameInfo, ModLogEntry
from bot.views.replies import guarded, private

log = logging.getLogger(__name__)

MAX_UNDO = 200
EXTEND_SUGGESTED = ("1h", "6h", "12h", "1d", "2d", "3d", "7d")


class ModReadsCog(ModeratorBase):
    """A moderator reads a game: its full log, its record."""

    # ----- reading -----------------------------------------------------------------------

    async def read(
        self,
        interaction: discord.Interaction,
        game: int | None,
        label: str,
        file_of: Callable[[GameInfo], Awaitable[tuple[discord.File, ModLogEntry | None]]],
    ) -> None:
        """A moderator reads a game (any game of this server): the file, then the moderators' log.

        `label`: what the file is ("log"); `file_of` reads it through the service, which refuses a
        moderator seated in the running game and audits the read.
        """

        async def work() -> None:
            await self.check(interaction)
            info = await self.lookup.server_game(interaction, game)
            file, entry = await file_of(info)
            await private(interaction, file_caption(label, info.id, info.status.value), file=file)
            if entry is not None:
                await self.delivery.post_mod_log(entry)

        await guarded(interaction, work)

    @app_commands.command(name="log", description="The game's full log: every move and moderator action, with times")
    @app_commands.describe(
        game="The game number (default: this channel's latest game)",
        reason="Why you read it (optional; posted to the moderators' log)",
    )
    async def log(self, interaction: discord.Interaction, game: int | None = None, reason: str | None = None) -> None:
        async def log_file(info: GameInfo) -> tuple[discord.File, ModLogEntry | None]:
            read = await self.audit.read_log(info.id, interaction.user.id, reason or "")
            ids = {e.user_id for e in read.entries if e.user_id is not None}
            text = log_text(read.game, read.entries, await member_names(interaction, ids))
            data = (text or empty_log_text()).encode("utf-8")
            return discord.File(io.BytesIO(data), filename=f"conductor-game-{info.id}-log.txt"), read.mod_log

        await self.read(interaction, game, "log", log_file)

    @app_commands.command(name="export", description="The game record (JSON), at any time")
    @app_commands.describe(
        game="The game number (default: this channel's latest game)",
        reason="Why you export it (optional; posted to the moderators' log)",
    )
    async def export(
        self, interaction: discord.Interaction, game: int | None = None, reason: str | None = None
    ) -> None:
        async def json_file(info: GameInfo) -> tuple[discord.File, ModLogEntry | None]:
            read = await self.audit.export_record(
                info.id, interaction.user.id, moderator=True, reason=reason or "", audit_after_end=True
            )
            return record_file(info, read.record), read.mod_log

        await self.read(interaction, game, "record", json_file)
