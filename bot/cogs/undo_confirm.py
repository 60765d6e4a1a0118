"""Moderator actions waiting for their moderator's Confirm or Cancel (undo, end), and their two buttons.

An action asked for is kept in memory under a random token that its buttons
carry ("ttrmod:KIND:yes:TOKEN", KIND `undo` or `end`); a press is answered by
the moderation cog. A pending action lives 15 minutes and serves once: a
press after that (or after a restart) finds nothing and is refused as out of
date.
"""

from __future__ import annotations

import re
import secrets
import time
from collections import OrderedDict
from dataclasses import dataclass
from typing import Any, Protocol, cast

import discord

from bot.present.mod_answers import confirm_button_labels
from bot.views.ratelimit import admitted

PREFIX = "ttrmod:"
UNDO = "undo"
END = "end"
CONFIRM = "yes"
CANCEL = "no"
TEMPLATE = r"ttrmod:(?P<kind>undo|end):(?P<choice>yes|no):(?P<token>[0-9a-f]{16})"
COG = "ModerationCog"  # the cog that answers a press
LIFETIME = 15 * 60.0  # seconds an action can be confirmed
MAX_PENDING = 200  # the oldest pending actions are forgotten beyond this


@dataclass(frozen=True)
class PendingAction:
    """A moderator action asked for and not confirmed yet.

    `count`: the moves an undo takes back; `score`: whether an end scores the game. An end is not tied
    to a version: moves made meanwhile do not change what the moderator asked for.
    """

    kind: str  # UNDO or END
    moderator_user_id: int
    game_id: int
    reason: str
    public: bool  # the reason is posted in the game's channel too
    made: float  # time.monotonic() when asked
    version: int | None = None  # an undo's: the game's version at the preview (any change since: out of date)
    count: int = 0
    score: bool = False


class PendingActions:
    """The actions not answered yet, by token."""

    def __init__(self, lifetime: float = LIFETIME, limit: int = MAX_PENDING) -> None:
        self.lifetime = lifetime
        self.limit = limit
        self._pending: OrderedDict[str, PendingAction] = OrderedDict()

    def add(self, kind: str, moderator_user_id: int, game_id: int, reason: str, **facts: Any) -> str:
        """Keep an action (`facts`: public, version and count or score); its token, for the buttons."""
        token = secrets.token_hex(8)
        self._pending[token] = PendingAction(kind, moderator_user_id, game_id, reason, made=time.monotonic(), **facts)
        while len(self._pending) > self.limit:
            self._pending.popitem(last=False)
        return token

    def get(self, token: str) -> PendingAction | None:
        """The action of `token`, if it can still be answered."""
        pending = self._pending.get(token)
        if pending is not None and time.monotonic() - pending.made > self.lifetime:
            del self._pending[token]
            return None
        return pending

    def pop(self, token: str) -> None:
        self._pending.pop(token, None)


class ConfirmPresses(Protocol):
    async def on_confirm_press(self, interaction: discord.Interaction, kind: str, choice: str, token: str) -> None: ...


class ConfirmButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=TEMPLATE):
    """Confirm or Cancel of a pending action: discord.py matches a press by its custom id, also after a restart."""

    def __init__(self, kind: str, choice: str, token: str) -> None:
        confirm, cancel = confirm_button_labels(kind == END)
        yes = choice == CONFIRM
        super().__init__(
            discord.ui.Button(
                label=confirm if yes else cancel,
                style=discord.ButtonStyle.danger if yes else discord.ButtonStyle.secondary,
                custom_id=f"{PREFIX}{kind}:{choice}:{token}",
            )
        )
        self.kind = kind
        self.choice = choice
        self.token = token

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> ConfirmButton:
        return cls(match.group("kind"), match.group("choice"), match.group("token"))

    async def interaction_check(self, interaction: discord.Interaction, /) -> bool:
        return await admitted(interaction)  # a press counts against the member's command rate (bot/views/ratelimit.py)

    async def callback(self, interaction: discord.Interaction) -> None:
        handler = getattr(interaction.client, "get_cog", lambda name: None)(COG)
        if handler is None:
            raise RuntimeError(f"no {COG} to answer a confirmation")
        await cast(ConfirmPresses, handler).on_confirm_press(interaction, self.kind, self.choice, self.token)


def confirm_buttons(kind: str, token: str) -> discord.ui.View:
    """Confirm and Cancel for the pending action of `token`."""
    view = discord.ui.View(timeout=None)
    view.add_item(ConfirmButton(kind, CONFIRM, token))
    view.add_item(ConfirmButton(kind, CANCEL, token))
    return view
