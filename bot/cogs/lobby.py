"""The `/ttr` commands of the lobby: new, join, leave, start, cancel, addbot, removebot."""

from __future__ import annotations

import discord
from discord import app_commands

from bot.cogs.common import LEVEL_CHOICES, MAX_CHOICES, POLICY_CHOICES, game_here, reserve_choices, turn_time_choices
from bot.cogs.ttr import TtrCog
from bot.present.misread import Span
from bot.service import ClockSettings, TimeoutPolicy
from bot.table.front import Front
from bot.table.parsing import read_duration
from bot.views.replies import guarded
from engine.game import MAX_TRAINS_OPTION, MIN_TRAINS_OPTION
from maps import MAP_NAMES, load_board

MAP_CHOICES = [app_commands.Choice(name=load_board(m).rules.title, value=m) for m in MAP_NAMES]
MAX_BOTS = 4


def game_clock(default: ClockSettings, turn_time: str | None, reserve: str | None, policy: str | None) -> ClockSettings:
    """A new game's clock: the server's default with what `/ttr new` was given instead."""
    turn = default.turn_seconds if turn_time is None else read_duration(turn_time, Span.TURN_TIME)
    spare = default.reserve_seconds if reserve is None else read_duration(reserve, Span.RESERVE) or 0
    chosen = TimeoutPolicy(policy or default.policy)
    if turn is None:
        return ClockSettings(turn_seconds=None, reserve_seconds=spare, policy=chosen, reminders=())
    return ClockSettings(turn, spare, chosen, default.reminders)


class LobbyCog(TtrCog):
    """Opening a game in a channel and taking seats."""

    def __init__(self, ttr: app_commands.Group, front: Front) -> None:
        super().__init__(ttr)
        self.lobby = front.lobby
        self.settings = front.service.settings
        self.reading = front.service.reading

    @app_commands.command(name="new", description="Open a game in this channel; you take the first seat")
    @app_commands.describe(
        map="The board to play",
        max_players="How many seats (default: as many as the map allows)",
        trains="House rule: trains per player, for a shorter game",
        turn_time='Time per turn, like "12h", "2d", "30m", or "none" for no clock (default: the server\'s)',
        reserve='Extra time per player for the whole game, like "1d" (default: the server\'s)',
        timeout_policy="When time runs out (default: the server's)",
        bots="Seats to fill with autopilot players now",
        bots_level="How well the autopilot players play (default: the server's autopilot level)",
    )
    @app_commands.choices(map=MAP_CHOICES, timeout_policy=POLICY_CHOICES, bots_level=LEVEL_CHOICES)
    @app_commands.autocomplete(turn_time=turn_time_choices, reserve=reserve_choices)
    async def new(
        self,
        interaction: discord.Interaction,
        map: str,
        max_players: app_commands.Range[int, 2, 5] | None = None,
        trains: app_commands.Range[int, MIN_TRAINS_OPTION, MAX_TRAINS_OPTION] | None = None,
        turn_time: str | None = None,
        reserve: str | None = None,
        timeout_policy: str | None = None,
        bots: app_commands.Range[int, 0, MAX_BOTS] | None = None,
        bots_level: str | None = None,
    ) -> None:
        async def work() -> None:
            clock = None
            if turn_time is not None or reserve is not None or timeout_policy is not None:
                assert interaction.guild_id is not None
                default = (await self.settings.guild_config(interaction.guild_id)).clock
                clock = game_clock(default, turn_time, reserve, timeout_policy)
            await self.lobby.new(
                interaction, map, max_players, trains, clock=clock, bots=bots or 0, bots_level=bots_level
            )

        await guarded(interaction, work)

    @app_commands.command(name="join", description="Take a seat in this channel's game")
    async def join(self, interaction: discord.Interaction) -> None:
        await guarded(interaction, lambda: self.lobby.join(interaction))

    @app_commands.command(name="leave", description="Give up your seat before the game starts")
    async def leave(self, interaction: discord.Interaction) -> None:
        await guarded(interaction, lambda: self.lobby.leave(interaction))

    @app_commands.command(name="start", description="Host: start the game now with the players seated")
    async def start(self, interaction: discord.Interaction) -> None:
        await guarded(interaction, lambda: self.lobby.start(interaction))

    @app_commands.command(name="cancel", description="Host: cancel the game before it starts")
    async def cancel(self, interaction: discord.Interaction) -> None:
        await guarded(interaction, lambda: self.lobby.cancel(interaction))

    @app_commands.command(name="addbot", description="Host: fill an empty seat with an autopilot player")
    async def addbot(self, interaction: discord.Interaction) -> None:
        await guarded(interaction, lambda: self.lobby.add_bot(interaction))

    @app_commands.command(
        name="removebot", description="Host: take an autopilot player out of the game before it starts"
    )
    @app_commands.describe(name="Which autopilot player (default: the last one)")
    async def removebot(self, interaction: discord.Interaction, name: str | None = None) -> None:
        await guarded(interaction, lambda: self.lobby.remove_bot(interaction, name))

    @removebot.autocomplete("name")
    async def removebot_choices(self, interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
        info = await game_here(self.reading, interaction)
        if info is None:
            return []
        typed = current.casefold().strip()
        names = [s.display_name for s in info.seats if s.bot and typed in s.display_name.casefold()]
        return [app_commands.Choice(name=n, value=n) for n in names][:MAX_CHOICES]
