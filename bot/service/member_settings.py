"""Each member's own settings: the same in every server and every game.

Member settings (member_settings keys, JSON values):
- `confirmations`: true (the default) or false. On, the *Draw tickets* button
  and a route chosen in the claim menu (or `/ttr claim` without `pay`) ask for
  a confirmation first; off, they act at once. Typed moves with all their
  options (`/ttr tickets`, `/ttr claim` with `pay`) always act at once.

More keys (a member's language) can be added here without a new table.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from bot.service.checks import check_id
from bot.service.core import ServiceCore
from bot.service.errors import IdKind

CONFIRMATIONS = "confirmations"
MEMBER_KEYS = (CONFIRMATIONS,)


@dataclass(frozen=True)
class MemberSettings:
    user_id: int
    confirmations: bool = True

    @classmethod
    def of(cls, user_id: int, stored: dict[str, Any]) -> MemberSettings:
        """From the stored values; a value of the wrong type is ignored (the default holds)."""
        confirm = stored.get(CONFIRMATIONS)
        return cls(user_id, confirm if isinstance(confirm, bool) else True)


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
