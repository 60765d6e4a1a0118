"""The bot's command tree: every command counts against the member's rate, autocomplete speaks the reader's
language, and its error handler is the last line of defence for commands."""

from __future__ import annotations

from typing import Any

import discord
from discord import app_commands

from bot.present.i18n import DEFAULT_LANGUAGE, language_of_locale, speaking
from bot.service import GameService
from bot.views.ratelimit import admitted
from bot.views.replies import current_game, reader_language, report_failure


class ConductorTree(app_commands.CommandTree[Any]):
    """The command tree; its error handler is the last line of defence for commands."""

    async def interaction_check(self, interaction: discord.Interaction, /) -> bool:
        """Every command counts against the member's command rate; autocomplete does not, and is never refused."""
        return interaction.type is discord.InteractionType.autocomplete or await admitted(interaction)

    async def _call(self, interaction: discord.Interaction, /) -> None:
        """Autocomplete choices are read by the member who types: in their language (commands speak it in
        `guarded`)."""
        if interaction.type is not discord.InteractionType.autocomplete:
            await super()._call(interaction)
            return
        with speaking(await reader_language(interaction)):
            await super()._call(interaction)

    async def on_error(self, interaction: discord.Interaction, error: app_commands.AppCommandError) -> None:
        if current_game.get() is None and interaction.channel_id is not None:
            bot = interaction.client
            service = getattr(bot, "service", None)
            try:
                if isinstance(service, GameService):
                    info = await service.reading.active_game(interaction.channel_id)
                    current_game.set(None if info is None else info.id)
            except Exception:  # the log line must not fail for want of a game id
                pass
        with speaking(language_of_locale(interaction.locale) or DEFAULT_LANGUAGE):
            await report_failure(interaction, error)
