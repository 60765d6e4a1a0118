"""The lobby message's buttons: *Join*, *Leave*, *Start* (persistent, like the game's buttons)."""

from __future__ import annotations

import discord

from bot.table.actions import Action
from bot.views.ids import ComponentId
from bot.views.items import GameButton


def lobby_view(game: int, version: int) -> discord.ui.View:
    """Join, leave and start the game of a lobby message (they act on that game at any version)."""
    view = discord.ui.View(timeout=None)
    view.add_item(GameButton.make(ComponentId(Action.JOIN, game, version), "Join", style=discord.ButtonStyle.success))
    view.add_item(GameButton.make(ComponentId(Action.LEAVE, game, version), "Leave"))
    view.add_item(GameButton.make(ComponentId(Action.START, game, version), "Start", style=discord.ButtonStyle.primary))
    return view
