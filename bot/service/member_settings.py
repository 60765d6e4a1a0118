"""Each member's own settings: the same in every server and every game.

Member settings (member_settings keys, JSON values):
- `confirmations`: true (the default) or false. On, the *Draw tickets* button
  and a route chosen in the claim menu (or `/ttr claim` without `pay`) ask for
  a confirmation first; off, they act at once. Typed moves with all their
  options (`/ttr tickets`, `/ttr claim` with `pay`) always act at once.
- `language`: "en", "sv" or "fi": the language of the member's private texts
  (answers, DMs, private images); unset (the default): their Discord client's.
- `client_locale`: the Discord locale ("sv-SE") of the member's client, as
  last seen on an interaction: the language of DMs sent later, while
  `language` is unset. Written only when it changes.

More keys can be added here without a new table.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from bot.service.checks import check_id
from bot.service.core import ServiceCore
from bot.service.errors import IdKind
from bot.service.kinds import Language

CONFIRMATIONS = "confirmations"
LANGUAGE = "language"
CLIENT_LOCALE = "client_locale"
MEMBER_KEYS = (CONFIRMATIONS, LANGUAGE, CLIENT_LOCALE)
MAX_LOCALE_LENGTH = 16  # Discord's locales are short ("en-US", "zh-TW"); a longer one is not kept


@dataclass(frozen=True)
class MemberSettings:
    user_id: int
    confirmations: bool = True
    language: Language | None = None  # None: the client's language (else the server's)
    client_locale: str | None = None  # the Discord locale last seen on the member's interactions

    @classmethod
    def of(cls, user_id: int, stored: dict[str, Any]) -> MemberSettings:
        """From the stored values; a value of the wrong type is ignored (the default holds)."""
        confirm = stored.get(CONFIRMATIONS)
        language = stored.get(LANGUAGE)
        locale = stored.get(CLIENT_LOCALE)
        return cls(
            user_id,
            confirm if isinstance(confirm, bool) else True,
            Language(language) if language in set(Language) else None,
            locale if isinstance(locale, str) and 0 < len(locale) <= MAX_LOCALE_LENGTH else None,
        )


class MemberSettingsService(ServiceCore):
    async def member_settings(self, user_id: int) -> MemberSettings:
        """A member's own settings (defaults for a member who set none; an autopilot player has the defaults)."""
        if user_id <= 0:
            return MemberSettings(user_id)
        user_id = check_id(user_id, IdKind.USER)
        return MemberSettings.of(user_id, await self.store.member_settings(user_id))

    async def set_confirmations(self, user_id: int, on: bool) -> MemberSettings:
        """Turn a member's confirmations on or off."""
        user_id = check_id(user_id, IdKind.USER)
        await self.store.set_member_setting(user_id, CONFIRMATIONS, bool(on))
        return await self.member_settings(user_id)

    async def set_language(self, user_id: int, language: Language | None) -> MemberSettings:
        """Set the language of a member's private texts; None: their Discord client's again."""
        user_id = check_id(user_id, IdKind.USER)
        await self.store.set_member_setting(user_id, LANGUAGE, None if language is None else Language(language).value)
        return await self.member_settings(user_id)

    async def remember_client_locale(self, user_id: int, locale: str) -> None:
        """Keep the Discord locale a member's client sent last (for DMs sent later); an odd one is not kept."""
        user_id = check_id(user_id, IdKind.USER)
        if 0 < len(locale) <= MAX_LOCALE_LENGTH:
            await self.store.set_member_setting(user_id, CLIENT_LOCALE, locale)
