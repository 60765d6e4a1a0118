"""`/ttr settings`: a member's own settings (confirmations on or off, their language), the same in every server."""

from __future__ import annotations

import discord
from discord import app_commands

from bot.cogs.ttr import TtrCog
from bot.present.confirm import bad_language_text, member_language_text, member_settings_text, on_or_off_text
from bot.present.i18n import speaking
from bot.replies import Refusal, guarded, private
from bot.service.kinds import Language
from bot.table.front import Front

ON_OFF = [app_commands.Choice(name="on", value="on"), app_commands.Choice(name="off", value="off")]
AUTOMATIC = "auto"
# the languages by their own names, and "automatic" (the member's Discord app's; the server's guild locale for
# /ttr config)
LANGUAGE_CHOICES = [
    app_commands.Choice(name="English", value=Language.EN.value),
    app_commands.Choice(name="svenska", value=Language.SV.value),
    app_commands.Choice(name="suomi", value=Language.FI.value),
    app_commands.Choice(name="automatic", value=AUTOMATIC),
]


def chosen_language(value: str) -> Language | None:
    """The language of a choice (None: automatic); a Refusal for a value no menu offers (a forged request)."""
    if value == AUTOMATIC:
        return None
    if value in set(Language):
        return Language(value)
    raise Refusal(bad_language_text())


class MemberSettingsCog(TtrCog):
    """A member's own settings."""

    def __init__(self, ttr: app_commands.Group, front: Front) -> None:
        super().__init__(ttr)
        self.service = front.service
        self.languages = front.languages

    @app_commands.command(name="settings", description="Your own settings (in every server); without options: see them")
    @app_commands.describe(
        confirmations="on: Draw tickets and a route chosen from a menu ask you to confirm first; off: they act at once",
        language="The language of your answers, private images and DMs (automatic: your Discord app's)",
    )
    @app_commands.choices(confirmations=ON_OFF, language=LANGUAGE_CHOICES)
    async def settings(
        self, interaction: discord.Interaction, confirmations: str | None = None, language: str | None = None
    ) -> None:
        async def work() -> None:
            user = interaction.user.id
            if confirmations is not None and confirmations not in ("on", "off"):
                raise Refusal(on_or_off_text())  # only a forged request sends another value
            wanted = None if language is None else chosen_language(language)
            settings = await self.service.member_settings(user)
            if confirmations is not None:
                settings = await self.service.set_confirmations(user, confirmations == "on")
            if language is not None:
                settings = await self.service.set_language(user, wanted)
            changed = confirmations is not None or language is not None
            spoken = await self.languages.reader(interaction)  # the answer speaks the language just chosen
            with speaking(spoken):
                text = member_settings_text(settings, changed=changed) + "\n" + member_language_text(settings, spoken)
                await private(interaction, text)

        await guarded(interaction, work)
