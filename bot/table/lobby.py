"""The lobby: opening a game, taking and leaving seats, autopilot players, starting and cancelling.

Each change is shown at the top of the lobby message, which is brought up to
date in place (no new message per join); the member who asked is answered
privately. Starting deals the cards: from then on
the stage messages (bot/table/stage.py) show the game.
"""

from __future__ import annotations

from typing import Protocol

import discord

from bot.present.answers import (
    bot_seated_text,
    cancelled_text,
    joined_text,
    left_text,
    no_bot_to_remove_text,
    no_such_bot_text,
    opened_text,
    started_text,
    you_left_text,
)
from bot.present.events import public_text
from bot.present.i18n import speaking
from bot.present.lobby import lobby_text
from bot.service import ActionResult, ClockSettings, GameInfo, GameStatus
from bot.service.images import Images
from bot.service.lobby import LobbyService
from bot.service.reading import ReadingService
from bot.table import decisions
from bot.table.delivery import Delivery
from bot.table.lookup import Lookup
from bot.views.lobby import LobbyAction
from bot.views.replies import Refusal, current_game, private


class LobbyParts(Protocol):
    """The parts of the game service the lobby uses (the service itself has them all)."""

    lobby: LobbyService
    reading: ReadingService
    images: Images


class Lobby:
    def __init__(self, parts: LobbyParts, lookup: Lookup, delivery: Delivery) -> None:
        self.lobby, self.reading, self.images = parts.lobby, parts.reading, parts.images
        self.lookup = lookup
        self.delivery = delivery

    async def announce(self, info: GameInfo, result: ActionResult, *, lobby: bool = True) -> None:
        """A lobby change (and its moderators' log lines, if it has any): shown at the top of the lobby message,
        which is brought up to date in place (with its buttons); a message of its own only without a lobby
        message to show it (it was deleted) or for the end of the lobby (`lobby` False: cancelled)."""
        with speaking(await self.delivery.public(result.game)):
            lines = [public_text(result.game, e) for e in result.public]
        in_place = lobby and result.game.status is GameStatus.LOBBY
        if not (in_place and await self.delivery.lobby_message.refresh(info.id, head=lines)):
            if in_place:
                with speaking(await self.delivery.public(result.game)):
                    lines.append(lobby_text(result.game))
            channel = self.delivery.stage.channel(info)
            await channel.send("\n".join(lines)[:2000], allowed_mentions=discord.AllowedMentions.none())
            await self.delivery.lobby_message.refresh(info.id)
        for entry in result.mod_log:
            await self.delivery.post_mod_log(entry)

    async def pressed(self, interaction: discord.Interaction, info: GameInfo, action: LobbyAction) -> None:
        """A button of the lobby message: join, leave or start its game, as the commands do (same refusals)."""
        current_game.set(info.id)
        if action is LobbyAction.JOIN:
            await self.join(interaction, info)
        elif action is LobbyAction.LEAVE:
            await self.leave(interaction, info)
        else:
            await self.start(interaction, info)

    async def new(
        self,
        interaction: discord.Interaction,
        map_name: str,
        max_players: int | None,
        trains: int | None,
        *,
        clock: ClockSettings | None = None,
        bots: int = 0,
        bots_level: str | None = None,
    ) -> None:
        """Open a game; `clock` None takes the server's default clock, `bots` seats go to autopilot players
        (playing at `bots_level`, None for the server's autopilot level)."""
        assert interaction.guild_id is not None and interaction.channel_id is not None
        user = interaction.user
        result = await self.lobby.create_game(
            interaction.guild_id,
            interaction.channel_id,
            user.id,
            user.display_name,
            map_name,
            max_players,
            trains,
            clock=clock,
            bots=bots,
            bots_level=bots_level,
        )
        current_game.set(result.game.id)
        with speaking(await self.delivery.public(result.game)):
            lines = [public_text(result.game, e) for e in result.public]
        await self.delivery.lobby_message.post(result.game, "\n".join(lines))
        for entry in result.mod_log:
            await self.delivery.post_mod_log(entry)
        await private(interaction, opened_text(result.game.id))

    async def join(self, interaction: discord.Interaction, info: GameInfo | None = None) -> None:
        """`info`: the game of the lobby message's button (by default the channel's game)."""
        info = info or await self.lookup.channel_game(interaction)
        result = await self.lobby.join(info.id, interaction.user.id, interaction.user.display_name)
        await self.announce(info, result)
        await private(interaction, joined_text(info.id))

    async def leave(self, interaction: discord.Interaction, info: GameInfo | None = None) -> None:
        """`info`: the game of the lobby message's button (by default the channel's game)."""
        info = info or await self.lookup.channel_game(interaction)
        result = await self.lobby.leave(info.id, interaction.user.id)
        await self.announce(info, result)
        await private(interaction, you_left_text(info.id))

    async def cancel(self, interaction: discord.Interaction) -> None:
        info = await self.lookup.channel_game(interaction)
        result = await self.lobby.cancel(info.id, interaction.user.id)
        await self.announce(info, result, lobby=False)
        await private(interaction, cancelled_text(info.id))

    async def start(self, interaction: discord.Interaction, info: GameInfo | None = None) -> None:
        """`info`: the game of the lobby message's button (by default the channel's game)."""
        info = info or await self.lookup.channel_game(interaction)
        result = await self.lobby.start(info.id, interaction.user.id)
        await self.delivery.deliver(result, actor=interaction.user.id, interaction=interaction)
        text, view = await decisions.panel(self.reading, result.game, interaction.user.id)
        offer = await decisions.offer_image(self.images, self.reading, result.game, interaction.user.id)
        if offer is not None:
            text = f"{text}\n{offer[0]}"
        await private(interaction, started_text(info.id, text), view=view, file=None if offer is None else offer[1])

    async def add_bot(self, interaction: discord.Interaction) -> None:
        info = await self.lookup.channel_game(interaction)
        result = await self.lobby.add_bot(info.id, interaction.user.id)
        await self.announce(info, result)
        await private(interaction, bot_seated_text(info.id))

    async def remove_bot(self, interaction: discord.Interaction, name: str | None) -> None:
        info = await self.lookup.channel_game(interaction)
        bots = [s for s in info.seats if s.bot]
        if not bots:
            raise Refusal(no_bot_to_remove_text(info.id))
        if name is None or not name.strip():
            seat = bots[-1]
        else:
            wanted = " ".join(name.split()).casefold()
            found = [s for s in bots if s.display_name.casefold() == wanted or str(s.user_id) == name.strip()]
            if not found:
                raise Refusal(no_such_bot_text(name, [s.display_name for s in bots]))
            seat = found[0]
        result = await self.lobby.remove_bot(info.id, interaction.user.id, seat.user_id)
        await self.announce(info, result)
        await private(interaction, left_text(seat.display_name, info.id))
