"""What several cogs use: who is a moderator, the timeout policy choices, duration suggestions, record files."""

from __future__ import annotations

import io
import json
from collections.abc import Iterable, Sequence
from typing import Any

import discord
from discord import app_commands

from bot.present.i18n import current_language, speaking
from bot.present.suggestions import duration_label, no_clock_label, no_reserve_label
from bot.service import GameInfo, TimeoutPolicy, may_moderate
from bot.service.kinds import Language
from bot.service.reading import ReadingService
from bot.service.settings import SettingsService
from bot.table.lookup import MAX_CHOICES as MAX_CHOICES  # the cogs' one limit, shared with the lookups
from bot.table.parsing import DurationError, parse_duration

MAX_NAMES = 50  # members a log names by looking them up
POLICY_CHOICES = [
    app_commands.Choice(name="autopilot: it plays the turn", value=TimeoutPolicy.AUTOPILOT.value),
    app_commands.Choice(name="wait: for a moderator", value=TimeoutPolicy.WAIT.value),
]
LEVEL_CHOICES = [
    app_commands.Choice(name="steady: shortest paths for its cheapest tickets", value="steady"),
    app_commands.Choice(name="strong: plans its tickets together and looks ahead", value="strong"),
    app_commands.Choice(name="expert: plays its best moves out in imagined games", value="expert"),
]
# what the duration options suggest (Discord lets people type anything else too)
SUGGESTED = ("30m", "1h", "6h", "12h", "1d", "2d", "3d", "7d")


async def game_here(reading: ReadingService, interaction: discord.Interaction) -> GameInfo | None:
    """The lobby or running game of the channel an interaction comes from, if any (no refusal: for autocompletes)."""
    channel = interaction.channel_id
    return None if channel is None else await reading.active_game(channel)


async def is_moderator(settings: SettingsService, interaction: discord.Interaction) -> bool:
    """Server managers, and members with the moderator role set by `/ttr config`."""
    if interaction.guild_id is None:
        return False
    roles = [r.id for r in interaction.user.roles] if isinstance(interaction.user, discord.Member) else []
    config = await settings.guild_config(interaction.guild_id)
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


def reader_language(interaction: discord.Interaction) -> Language:
    """The language an autocomplete's suggestions are written in: the member's, as the command tree resolved it
    for this interaction (bot/runtime/app.py speaks `replies.reader_language` around every command and autocomplete)."""
    return current_language()


def duration_choices(
    current: str, *, values: Sequence[str] = SUGGESTED, none: str | None = None
) -> list[app_commands.Choice[str]]:
    """Suggestions for a duration option; whatever is typed stays possible (it is read by parse_duration).

    `none`: the label of a "none" choice, if the option takes one. The labels are in the language being spoken
    ("2 dagar"), the values as the commands read them ("2d"); what is typed is matched against both, and a
    duration typed in any language ("2 päivää") finds the suggestion of the same length.
    """
    typed = current.strip()
    listed = [*values, "none"] if none is not None else list(values)
    choices = [app_commands.Choice(name=_label(v, none), value=v) for v in listed]
    if typed and typed.casefold() not in listed:
        choices.insert(0, app_commands.Choice(name=typed[:100], value=typed[:100]))
    same = _seconds(typed)
    return [
        c
        for c in choices
        if typed.casefold() in c.name.casefold()
        or typed.casefold() in c.value.casefold()
        or c.value == typed[:100]
        or (same is not None and c.value != typed[:100] and _seconds(c.value) == same)
    ][:MAX_CHOICES]


def _label(value: str, none: str | None) -> str:
    if value == "none":
        return none or value
    seconds = _seconds(value)
    return value if seconds is None else duration_label(seconds)


def _seconds(text: str) -> int | None:
    """The seconds of a duration, None for "none" or what cannot be read (an autocomplete never refuses)."""
    try:
        return parse_duration(text) if text else None
    except DurationError:
        return None


def record_file(info: GameInfo, record: dict[str, Any]) -> discord.File:
    """A game record as a JSON file to attach."""
    data = json.dumps(record, ensure_ascii=False, indent=1).encode("utf-8")
    return discord.File(io.BytesIO(data), filename=f"conductor-game-{info.id}.json")


async def turn_time_choices(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
    """The suggestions of a turn time option."""
    with speaking(reader_language(interaction)):
        return duration_choices(current, none=no_clock_label())


async def reserve_choices(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
    """The suggestions of a reserve option."""
    with speaking(reader_language(interaction)):
        return duration_choices(current, none=no_reserve_label())
