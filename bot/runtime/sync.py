"""Syncing the slash commands only when their definitions changed.

Discord limits how often commands may be created, so the bot does not sync at
every start: it hashes the command definitions it would send and compares the
hash with the one stored (through the game service) for the same target (the
application, and the development server or "global") at the last successful sync.
The hash covers the localizations too (bot/cogs/command_words.py): a changed
translation syncs again, an unchanged one does not.
"""

from __future__ import annotations

import hashlib
import json
import logging
from typing import Any

import discord
from discord import app_commands

from bot.service import GameService

log = logging.getLogger(__name__)


async def command_payload(tree: app_commands.CommandTree, guild: discord.abc.Snowflake | None) -> list[dict[str, Any]]:
    """What a sync of `tree` to `guild` (None: globally) sends: with the localizations, when it has a translator."""
    translator = tree.translator
    commands = tree.get_commands(guild=guild)
    if translator is None:
        return [command.to_dict(tree) for command in commands]
    return [await command.get_translated_payload(tree, translator) for command in commands]


async def command_digest(tree: app_commands.CommandTree, guild: discord.abc.Snowflake | None) -> str:
    """A fingerprint of exactly what a sync of `tree` to `guild` (None: globally) would send, translations included."""
    payload = await command_payload(tree, guild)
    payload.sort(key=lambda c: (str(c.get("type")), str(c.get("name"))))
    text = json.dumps(payload, sort_keys=True, separators=(",", ":"), ensure_ascii=False, default=str)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def sync_target(application_id: int | None, guild_id: int | None) -> str:
    scope = f"guild:{guild_id}" if guild_id is not None else "global"
    return f"{application_id or 0}:{scope}"


async def sync_if_changed(
    tree: app_commands.CommandTree, service: GameService, application_id: int | None, guild_id: int | None
) -> bool:
    """Sync to the development server `guild_id` (copying the global commands there) or globally; True if synced."""
    guild = discord.Object(guild_id) if guild_id is not None else None
    if guild is not None:
        tree.copy_global_to(guild=guild)
    digest = await command_digest(tree, guild)
    target = sync_target(application_id, guild_id)
    if await service.front.synced_commands(target) == digest:
        log.info("slash commands unchanged since the last sync (%s): not syncing", target)
        return False
    try:
        synced = await tree.sync(guild=guild)
    except discord.HTTPException:
        log.exception("syncing the slash commands (%s) failed; the bot runs with the commands Discord has", target)
        return False
    await service.front.set_synced_commands(target, digest)
    log.info("synced %d slash commands (%s)", len(synced), target)
    return True
