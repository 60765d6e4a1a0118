"""What several cogs use: who is a moderator, the timeout policy choices, duration suggestions, record files."""

from __future__ import annotations

import io
import json
from collections.abc import Iterable, Sequence
from typing import Any

import discord
from discord import app_commands

from bot.service import GameInfo, GameService, TimeoutPolicy, may_moderate

MAX_CHOICES = 25  # Discord shows at most 25 choices
MAX_NAMES = 50  # members a log names by looking them up
POLICY_CHOICES = [
    app_commands.Choice(name="autopilot: it plays the turn", value=TimeoutPolicy.AUTOPILOT.value),
    app_commands.Choice(name="wait: for a moderator", value=TimeoutPolicy.WAIT.value),
]
LEVEL_CHOICES = [
    app_commands.Choice(name="steady: shortest paths for its cheapest tickets", value="steady"),
    app_commands.Choice(name="strong: plans its tickets together and looks ahead", value="strong"),
]
# what the duration options suggest (Discord lets people type anything else too)
SUGGESTED = ("30m", "1h", "6h", "12h", "1d", "2d", "3d", "7d")


async def game_here(service: GameService, interaction: discord.Interaction) -> GameInfo | None:
    """The lobby or running game of the channel an interaction comes from, if any (no refusal: for autocompletes)."""
    channel = interaction.channel_id
    return None if channel is None else await service.active_game(channel)


async def is_moderator(service: GameService, interaction: discord.Interaction) -> bool:
    """Server managers, and members with the moderator role set by `/ttr config`."""
    if interaction.guild_id is None:
        return False
    roles = [r.id for r in interaction.user.roles] if isinstance(interaction.user, discord.Member) else []
    config = await service.guild_config(interaction.guild_id)
    return may_moderate(config, role_ids=roles, manage_guild=interaction.permissions.manage_guild)


async def member_names(interaction: discord.Interaction, user_ids: Iterable[int]) -> dict[int, str]:
    """The display names of the server's members among `user_ids` (at most MAX_NAMES looked up; the rest unnamed)."""
    guild = interaction.guild
    names: dict[int, str] = {}
    if guild is None:
        return names
    for user_id in sorted(u for u in set(user_ids) if u > 0)[:MAX_NAMES]:
        member = guild.get_member(user_id)
        if member is None:
            try:
                member = await guild.fetch_member(user_id)
            except discord.HTTPException:  # left the server, or not a member (an autopilot player)
                continue
        names[user_id] = member.display_name
    return names


def duration_choices(
    current: str, *, values: Sequence[str] = SUGGESTED, none: str | None = None
) -> list[app_commands.Choice[str]]:
    """Suggestions for a duration option; whatever is typed stays possible (it is read by parse_duration).

    `none`: the label of a "none" choice, if the option takes one.
    """
    typed = current.strip()
    listed = [*values, "none"] if none is not None else list(values)
    choices = [app_commands.Choice(name=none if v == "none" and none else v, value=v) for v in listed]
    if typed and typed.casefold() not in listed:
        choices.insert(0, app_commands.Choice(name=typed[:100], value=typed[:100]))
    return [c for c in choices if typed.casefold() in c.name.casefold() or c.value == typed[:100]][:MAX_CHOICES]


def record_file(info: GameInfo, record: dict[str, Any]) -> discord.File:
    """A game record as a JSON file to attach."""
    data = json.dumps(record, ensure_ascii=False, indent=1).encode("utf-8")
    return discord.File(io.BytesIO(data), filename=f"conductor-game-{info.id}.json")


async def turn_time_choices(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
    """The suggestions of a turn time option."""
    return duration_choices(current, none="none (no clock)")


async def reserve_choices(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
    """The suggestions of a reserve option."""
    return duration_choices(current, none="none (no reserve)")
