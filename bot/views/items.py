"""The two persistent component classes: every button and menu of a game is one of them.

discord.py matches a click's custom id against the templates registered with
`bot.add_dynamic_items`, also after a restart, and rebuilds the item; its
callback hands the parsed id (and, for a menu, the values chosen) to the bot's
component handler. No game logic here.
"""

from __future__ import annotations

import re
from typing import Any, Self

import discord

from bot.views.ids import BUTTON, BUTTON_TEMPLATE, SELECT, SELECT_TEMPLATE, ComponentId


class _GameItem:
    """What both component classes share: the parsed custom id, rebuilding from it, handing a click over."""

    def __init__(self, item: Any, cid: ComponentId) -> None:
        super().__init__(item)  # type: ignore[call-arg]  # DynamicItem.__init__, next in the classes' order
        self.cid = cid

    def chosen(self) -> list[str]:
        """The values chosen (a menu's); none for a button."""
        return []

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> Self:
        return cls(item, ComponentId.from_match(match))

    async def callback(self, interaction: discord.Interaction) -> None:
        handler = getattr(interaction.client, "components", None)
        if handler is None:
            raise RuntimeError("the bot has no component handler (was setup_hook run?)")
        await handler.on_component(interaction, self.cid, self.chosen())


class GameButton(_GameItem, discord.ui.DynamicItem[discord.ui.Button[Any]], template=BUTTON_TEMPLATE):
    @classmethod
    def make(
        cls,
        cid: ComponentId,
        label: str,
        *,
        style: discord.ButtonStyle = discord.ButtonStyle.secondary,
        emoji: str | None = None,
        disabled: bool = False,
        row: int | None = None,
    ) -> GameButton:
        button: discord.ui.Button[Any] = discord.ui.Button(
            label=label[:80], custom_id=cid.text(BUTTON), style=style, emoji=emoji, disabled=disabled, row=row
        )
        return cls(button, cid)


class GameSelect(_GameItem, discord.ui.DynamicItem[discord.ui.Select[Any]], template=SELECT_TEMPLATE):
    @classmethod
    def make(
        cls,
        cid: ComponentId,
        placeholder: str,
        options: list[discord.SelectOption],
        *,
        min_values: int = 1,
        max_values: int = 1,
        row: int | None = None,
    ) -> GameSelect:
        select: discord.ui.Select[Any] = discord.ui.Select(
            custom_id=cid.text(SELECT),
            placeholder=placeholder[:150],
            options=options[:25],
            min_values=min_values,
            max_values=min(max_values, len(options[:25])),
            row=row,
        )
        return cls(select, cid)

    def chosen(self) -> list[str]:
        return list(self.item.values)
