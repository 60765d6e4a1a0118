"""Finding the game a command means: by its number on this server, or this channel's latest."""

from __future__ import annotations

import discord

from bot.replies import Refusal, current_game
from bot.service import GameInfo, GameService, NotFound


async def server_game(service: GameService, interaction: discord.Interaction, game_id: int | None) -> GameInfo:
    """Game `game_id` of this server, or the latest game played in this channel."""
    if game_id is None:
        channel = interaction.channel_id
        row = None if channel is None else await service.store.latest_game(channel)
        if row is None:
            raise Refusal("No game was ever played in this channel. Give the game's number with `game`.")
        game_id = row.id
    current_game.set(game_id)
    try:
        info = await service.game(game_id)
    except NotFound:
        raise Refusal(f"There is no game #{game_id}.") from None
    if info.guild_id != interaction.guild_id:
        raise Refusal(f"There is no game #{game_id} on this server.")
    return info
