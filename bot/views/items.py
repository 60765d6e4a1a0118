"""The two persistent component classes: every button and menu of a game is one of them.

discord.py matches a click's custom id against the templates registered with
`bot.add_dynamic_items`, also after a restart, and rebuilds the item; its
callback hands the parsed id to the bot's component handler. No game logic here.
"""

from __future__ import annotations

from typing import Any, Protocol

import discord

from bot.views.ids import BUTTON, BUTTON_TEMPLATE, SELECT, SELECT_TEMPLATE, ComponentId


class ComponentHandler(Protocol):
    async def on_component(self, interaction: discord.Interaction, cid: ComponentId, values: list[str]) -> None: ...


def _handler(interaction: discord.Interaction) -> ComponentHandler:
    handler = getattr(interaction.client, "components", None)
    if handler is None:
        raise RuntimeError("the bot has no component handler (was setup_hook run?)")
    return handler  # type: ignore[no-any-return]


class GameButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=BUTTON_TEMPLATE):
    def __init__(self, item: discord.ui.Button[Any], cid: ComponentId) -> None:
        super().__init__(item)
        self.cid = cid

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

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: Any, /
    ) -> GameButton:
        assert isinstance(item, discord.ui.Button)
        return cls(item, ComponentId.from_match(match))

    async def callback(self, interaction: discord.Interaction) -> None:
        await _handler(interaction).on_component(interaction, self.cid, [])


class GameSelect(discord.ui.DynamicItem[discord.ui.Select[Any]], template=SELECT_TEMPLATE):
    def __init__(self, item: discord.ui.Select[Any], cid: ComponentId) -> None:
        super().__init__(item)
        self.cid = cid

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

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: Any, /
    ) -> GameSelect:
        assert isinstance(item, discord.ui.Select)
        return cls(item, ComponentId.from_match(match))

    async def callback(self, interaction: discord.Interaction) -> None:
        await _handler(interaction).on_component(interaction, self.cid, list(self.item.values))
