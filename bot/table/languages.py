"""Who reads what, in which language.

A **private** text (an ephemeral answer, a DM, a private image) is written
in its reader's language: their `/ttr settings language`, else the language
of their Discord client (`interaction.locale`; the last one seen is kept as a
member setting, written only when it changes, for DMs sent later), else the
server's language.

A **public** text (a stage message, the board image and its caption, the
announcements, the lobby message, the moderators' log) is written in the
server's language: its `/ttr config language`, else the server's preferred
locale in Discord, else English.

`bot/views/replies.py` speaks the reader's language for a whole interaction; the
code that writes public texts and DMs (delivery, stage and lobby messages)
asks this class and speaks the language it answers (`speaking`).
"""

from __future__ import annotations

import logging

import discord

from bot.present.i18n import DEFAULT_LANGUAGE, language_of_locale
from bot.present.image_words import image_words
from bot.service.kinds import Language
from bot.service.member_settings import MemberSettings, MemberSettingsService
from bot.service.settings import SettingsService
from render.words import ImageWords

log = logging.getLogger(__name__)


def locale_code(locale: object) -> str:
    """A Discord locale as its code ("sv-SE"), from a `discord.Locale` or a string."""
    return str(getattr(locale, "value", locale))


class Languages:
    def __init__(self, client: discord.Client, members: MemberSettingsService, settings: SettingsService) -> None:
        self.client = client
        self.members = members  # each member's language
        self.settings = settings  # each server's language

    async def server(self, guild_id: int | None) -> Language:
        """The language of a server's public texts: its setting, else its preferred locale, else English."""
        if guild_id is None:
            return DEFAULT_LANGUAGE
        try:
            config = await self.settings.guild_config(guild_id)
        except Exception:
            log.warning("could not read the language of server %s; English meanwhile", guild_id, exc_info=True)
            return DEFAULT_LANGUAGE
        if config.language is not None:
            return config.language
        guild = self.client.get_guild(guild_id)
        if guild is not None:
            found = language_of_locale(guild.preferred_locale)
            if found is not None:
                return found
        return DEFAULT_LANGUAGE

    async def member(self, user_id: int, guild_id: int | None) -> Language:
        """The language of a member's private texts sent outside an interaction (DMs), in a server's game:
        their setting, else their client's language last seen, else the server's."""
        if user_id <= 0:
            return await self.server(guild_id)
        try:
            settings = await self.members.member_settings(user_id)
        except Exception:
            log.warning("could not read the language of user %d", user_id, exc_info=True)
            return await self.server(guild_id)
        return await self._private(settings, settings.client_locale, guild_id)

    async def reader(self, interaction: discord.Interaction) -> Language:
        """The language of the private answers to an interaction; the client's locale is kept if it changed."""
        user = interaction.user.id
        locale = locale_code(interaction.locale)
        try:
            settings = await self.members.member_settings(user)
            if settings.client_locale != locale:
                await self.members.remember_client_locale(user, locale)
        except Exception:
            log.warning("could not read or keep the language of user %d", user, exc_info=True)
            settings = MemberSettings(user)
        return await self._private(settings, locale, interaction.guild_id)

    async def _private(self, settings: MemberSettings, locale: str | None, guild_id: int | None) -> Language:
        if settings.language is not None:
            return settings.language
        found = language_of_locale(locale) if locale else None
        return found if found is not None else await self.server(guild_id)

    @staticmethod
    def images(language: Language) -> ImageWords:
        """The words of images drawn in `language`."""
        return image_words(language)
