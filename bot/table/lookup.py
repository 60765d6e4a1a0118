"""Finding what a request is about: the game (of this channel, of a button, by number) and the player who asks."""

from __future__ import annotations

import discord

from bot.present.stage import must_text
from bot.replies import Refusal, current_game
from bot.service import GameInfo, GameService, NotFound
from maps import load_board

NOT_STARTED = "The game has not started yet: the host starts it with `/ttr start`."


async def channel_game(service: GameService, interaction: discord.Interaction) -> GameInfo:
    """The active game of the channel the command was used in."""
    channel_id = interaction.channel_id
    info = None if channel_id is None else await service.active_game(channel_id)
    if info is None:
        mine = await service.games_of_user(interaction.user.id)
        if mine:
            where = ", ".join(f"#{g.id} in <#{g.channel_id}>" for g in mine[:3])
            raise Refusal(f"There is no game in this channel. Your games: {where}; use the commands there.")
        raise Refusal("There is no game in this channel. Open one with `/ttr new`.")
    current_game.set(info.id)
    return info


async def component_game(service: GameService, interaction: discord.Interaction, game_id: int) -> GameInfo:
    """The game a button or menu belongs to, refused outside that game's channel."""
    current_game.set(game_id)
    info = await service.game(game_id)
    if interaction.channel_id != info.channel_id:
        raise Refusal(f"Game #{info.id} is played in <#{info.channel_id}>; act there.")
    return info


async def server_game(service: GameService, interaction: discord.Interaction, game_id: int | None) -> GameInfo:
    """Game `game_id` of this server, or the latest game played in this channel."""
    if game_id is None:
        channel = interaction.channel_id
        game_id = None if channel is None else await service.latest_game_id(channel)
        if game_id is None:
            raise Refusal("No game was ever played in this channel. Give the game's number with `game`.")
    current_game.set(game_id)
    try:
        info = await service.game(game_id)
    except NotFound:
        raise Refusal(f"There is no game #{game_id}.") from None
    if info.guild_id != interaction.guild_id:
        raise Refusal(f"There is no game #{game_id} on this server.")
    return info


def player_of(info: GameInfo, user_id: int) -> str:
    """The player a member plays in the game; refused for anyone else, and before the game starts."""
    seat = info.seat_of(user_id)
    if seat is None:
        raise Refusal(
            f"You are not playing in game #{info.id}, so you cannot act in it. "
            "Watch along, or play the next one (`/ttr new`, `/ttr join`)."
        )
    if seat.player is None:
        raise Refusal(NOT_STARTED)
    return seat.player


async def waiting_text(service: GameService, info: GameInfo) -> str:
    """Whom the game waits for, and for what."""
    waiting = await service.waiting(info.id)
    if waiting is None:
        return "The game is over."
    rules = load_board(info.map).rules
    names = ", ".join(waiting.players)
    return f"Now waiting for {names} to {must_text(rules, waiting.must)}."
