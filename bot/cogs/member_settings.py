"""`/ttr settings`: a member's own settings (confirmations on or off), the same in every server."""

from __future__ import annotations

import discord
from discord import app_commands

from bot.cogs.ttr import TtrCog
from bot.present.confirm import member_settings_text, on_or_off_text
from bot.replies import Refusal, guarded, private
from bot.table.front import Front

ON_OFF = [app_commands.Choice(name="on", value="on"), app_commands.Choice(name="off", value="off")]


class MemberSettingsCog(TtrCog):
    """A member's own settings."""

    def __init__(self, ttr: app_commands.Group, front: Front) -> None:
        super().__init__(ttr)
        self.service = front.service

    @app_commands.command(name="settings", description="Your own settings (in every server); without options: see them")
    @app_commands.describe(
        confirmations="on: Draw tickets and a route chosen from a menu ask you to confirm first; off: they act at once"
    )
    @app_commands.choices(confirmations=ON_OFF)
    async def settings(self, interaction: discord.Interaction, confirmations: str | None = None) -> None:
        async def work() -> None:
            user = interaction.user.id
            if confirmations is None:
                settings = await self.service.member_settings(user)
                await private(interaction, member_settings_text(settings, changed=False))
                return
            if confirmations not in ("on", "off"):  # only a forged request sends another value
                raise Refusal(on_or_off_text())
            settings = await self.service.set_confirmations(user, confirmations == "on")
            await private(interaction, member_settings_text(settings, changed=True))

        await guarded(interaction, work)
