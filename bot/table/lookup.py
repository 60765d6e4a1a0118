"""Finding what a request is about: the game (of this channel, of a button, by number) and the player who asks."""

from __future__ import annotations

import logging
from typing import NoReturn

import discord
from discord import app_commands

from bot.present.lookup import (
    game_choice_name,
    game_over_text,
    never_played_here_text,
    no_game_here_text,
    no_such_game_text,
    not_a_player_text,
    not_on_this_server_text,
    not_started_text,
    played_elsewhere_text,
    waiting_for_text,
)
from bot.service import GameInfo, NotFound
from bot.service.front_records import FrontRecords
from bot.service.reading import ReadingService
from bot.views.replies import Refusal, current_game
from maps import load_board

log = logging.getLogger(__name__)

MAX_CHOICES = 25  # Discord shows at most 25 choices


class Lookup:
    """Finding the game a request is about, through the parts of the service that know games."""

    def __init__(self, reading: ReadingService, front: FrontRecords) -> None:
        self.reading = reading
        self.front = front  # the channels' latest games

    async def channel_game(self, interaction: discord.Interaction) -> GameInfo:
        """The active game of the channel the command was used in."""
        channel_id = interaction.channel_id
        info = None if channel_id is None else await self.reading.active_game(channel_id)
        if info is None:
            await self._refuse_no_game(interaction)
        current_game.set(info.id)
        return info

    async def _refuse_no_game(self, interaction: discord.Interaction) -> NoReturn:
        mine = await self.reading.games_of_user(interaction.user.id)
        raise Refusal(no_game_here_text([(g.id, g.channel_id) for g in mine[:3]]))

    async def viewed_game(self, interaction: discord.Interaction, game_id: int | None) -> GameInfo:
        """The game a looking command is about: game `game_id` of this server, else the channel's active game,
        else the channel's latest game if it was played (it stays viewable after its end until a new one opens)."""
        if game_id is not None:
            return await self.server_game(interaction, game_id)
        channel_id = interaction.channel_id
        info = None if channel_id is None else await self.reading.active_game(channel_id)
        if info is None and channel_id is not None:
            latest = await self.front.latest_game_id(channel_id)
            info = None if latest is None else await self.reading.game(latest)
            if info is not None and not info.started:
                info = None  # cancelled before it started: nothing to look at
        if info is None:
            await self._refuse_no_game(interaction)
        current_game.set(info.id)
        return info

    async def component_game(self, interaction: discord.Interaction, game_id: int) -> GameInfo:
        """The game a button or menu belongs to, refused outside that game's channel."""
        current_game.set(game_id)
        info = await self.reading.game(game_id)
        if interaction.channel_id != info.channel_id:
            raise Refusal(played_elsewhere_text(info.id, info.channel_id))
        return info

    async def server_game(self, interaction: discord.Interaction, game_id: int | None) -> GameInfo:
        """Game `game_id` of this server, or the latest game played in this channel."""
        if game_id is None:
            channel = interaction.channel_id
            game_id = None if channel is None else await self.front.latest_game_id(channel)
            if game_id is None:
                raise Refusal(never_played_here_text())
        current_game.set(game_id)
        try:
            info = await self.reading.game(game_id)
        except NotFound:
            raise Refusal(no_such_game_text(game_id)) from None
        if info.guild_id != interaction.guild_id:
            raise Refusal(not_on_this_server_text(game_id))
        return info

    async def viewable_choices(self, interaction: discord.Interaction, current: str) -> list[app_commands.Choice[int]]:
        """What the `game` option offers, newest first: this channel's latest game and the member's games here."""
        ids = await self.reading.games_of_user(interaction.user.id, active_only=False)
        games = {g.id: g for g in ids if g.guild_id == interaction.guild_id}
        latest = None if interaction.channel_id is None else await self.front.latest_game_id(interaction.channel_id)
        if latest is not None and latest not in games:
            games[latest] = await self.reading.game(latest)
        typed = current.strip().lstrip("#")
        return [
            app_commands.Choice(name=game_choice_name(g.id, g.title, g.status.value), value=g.id)
            for g in sorted(games.values(), key=lambda g: -g.id)
            if g.started and str(g.id).startswith(typed)
        ]

    async def game_choices(self, interaction: discord.Interaction, current: str) -> list[app_commands.Choice[int]]:
        """The `game` option's autocomplete (in the language the command tree speaks around it): at most
        MAX_CHOICES of `viewable_choices`, and nothing if anything fails (an autocomplete gets no refusal)."""
        try:
            return (await self.viewable_choices(interaction, current))[:MAX_CHOICES]
        except Exception:
            log.debug("game autocomplete gave up", exc_info=True)
            return []


def player_of(info: GameInfo, user_id: int) -> str:
    """The player a member plays in the game; refused for anyone else, and before the game starts."""
    seat = info.seat_of(user_id)
    if seat is None:
        raise Refusal(not_a_player_text(info.id))
    if seat.player is None:
        raise Refusal(not_started_text())
    return seat.player


async def waiting_text(reading: ReadingService, info: GameInfo) -> str:
    """Whom the game waits for, and for what."""
    waiting = await reading.waiting(info.id)
    if waiting is None:
        return game_over_text()
    return waiting_for_text(load_board(info.map).rules, waiting.players, waiting.must)
