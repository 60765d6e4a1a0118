"""The undo previews waiting for their moderator's Confirm or Cancel, and their two buttons.

A preview is kept in memory under a random token that its buttons carry
("ttrmod:undo:yes:TOKEN"); a press is answered by the moderation cog. A
preview lives 15 minutes and serves once: a press after that (or after a
restart) finds nothing and is refused as out of date.
"""

from __future__ import annotations

import re
import secrets
import time
from collections import OrderedDict
from dataclasses import dataclass
from typing import Any, Protocol, cast

import discord

from bot.present.mod_answers import undo_button_labels

PREFIX = "ttrmod:undo:"
CONFIRM = "yes"
CANCEL = "no"
TEMPLATE = r"ttrmod:undo:(?P<choice>yes|no):(?P<token>[0-9a-f]{16})"
COG = "ModerationCog"  # the cog that answers a press
LIFETIME = 15 * 60.0  # seconds a preview can be confirmed
MAX_PENDING = 200  # the oldest previews are forgotten beyond this


@dataclass(frozen=True)
class PendingUndo:
    """An undo a moderator asked for and has not confirmed yet."""

    moderator_user_id: int
    game_id: int
    count: int
    reason: str
    version: int  # the game's version at the preview: any change since makes the preview out of date
    made: float  # time.monotonic() at the preview


class PendingUndos:
    """The previews not answered yet, by token."""

    def __init__(self, lifetime: float = LIFETIME, limit: int = MAX_PENDING) -> None:
        self.lifetime = lifetime
        self.limit = limit
        self._pending: OrderedDict[str, PendingUndo] = OrderedDict()

    def add(self, moderator_user_id: int, game_id: int, count: int, reason: str, version: int) -> str:
        """Keep a preview; its token, for the buttons."""
        token = secrets.token_hex(8)
        self._pending[token] = PendingUndo(moderator_user_id, game_id, count, reason, version, time.monotonic())
        while len(self._pending) > self.limit:
            self._pending.popitem(last=False)
        return token

    def get(self, token: str) -> PendingUndo | None:
        """The preview of `token`, if it can still be answered."""
        pending = self._pending.get(token)
        if pending is not None and time.monotonic() - pending.made > self.lifetime:
            del self._pending[token]
            return None
        return pending

    def pop(self, token: str) -> None:
        self._pending.pop(token, None)


class UndoPresses(Protocol):
    async def on_undo_press(self, interaction: discord.Interaction, choice: str, token: str) -> None: ...


class UndoButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=TEMPLATE):
    """Confirm or Cancel of a preview: discord.py matches a press by its custom id, also after a restart."""

    def __init__(self, choice: str, token: str) -> None:
        confirm, cancel = undo_button_labels()
        yes = choice == CONFIRM
        super().__init__(
            discord.ui.Button(
                label=confirm if yes else cancel,
                style=discord.ButtonStyle.danger if yes else discord.ButtonStyle.secondary,
                custom_id=f"{PREFIX}{choice}:{token}",
            )
        )
        self.choice = choice
        self.token = token

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> UndoButton:
        return cls(match.group("choice"), match.group("token"))

    async def callback(self, interaction: discord.Interaction) -> None:
        handler = getattr(interaction.client, "get_cog", lambda name: None)(COG)
        if handler is None:
            raise RuntimeError(f"no {COG} to answer an undo preview")
        await cast(UndoPresses, handler).on_undo_press(interaction, self.choice, self.token)


def undo_buttons(token: str) -> discord.ui.View:
    """Confirm and Cancel for the preview of `token`."""
    view = discord.ui.View(timeout=None)
    view.add_item(UndoButton(CONFIRM, token))
    view.add_item(UndoButton(CANCEL, token))
    return view
