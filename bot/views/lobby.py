"""The lobby message's buttons: *Join*, *Leave*, *Start* (persistent, like the game's buttons)."""

from __future__ import annotations

from enum import StrEnum

import discord

from bot.present.lobby import join_label, leave_label, start_label
from bot.views.ids import ComponentId
from bot.views.items import GameButton


class LobbyAction(StrEnum):
    """The ACTION part of the lobby buttons' custom ids ("ttr:join:GAME:VERSION"); stored by Discord, never renamed.

    Not game actions (`Action`, bot/views/ids.py): they act on their game whatever its version.
    """

    JOIN = "join"  # take a seat
    LEAVE = "leave"  # give up my seat
    START = "start"  # the host starts the game


def lobby_view(game: int, version: int) -> discord.ui.View:
    """Join, leave and start the game of a lobby message (they act on that game at any version)."""
    view = discord.ui.View(timeout=None)
    view.add_item(
        GameButton.make(ComponentId(LobbyAction.JOIN, game, version), join_label(), style=discord.ButtonStyle.success)
    )
    view.add_item(GameButton.make(ComponentId(LobbyAction.LEAVE, game, version), leave_label()))
    view.add_item(
        GameButton.make(ComponentId(LobbyAction.START, game, version), start_label(), style=discord.ButtonStyle.primary)
    )
    return view
