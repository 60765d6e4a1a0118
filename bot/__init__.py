"""Conductor's bot layer: store, game service, Discord cogs and the CLI.

`from bot import create_bot, Settings`: the factory of the Discord bot and its
settings. They are loaded on first use, so that `python -m bot replay` and the
other tools do not import discord.py.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from bot.runtime.app import create_bot
    from bot.runtime.settings import Settings

__all__ = ["Settings", "create_bot"]


def __getattr__(name: str) -> Any:
    if name == "create_bot":
        from bot.runtime.app import create_bot

        return create_bot
    if name == "Settings":
        from bot.runtime.settings import Settings

        return Settings
    raise AttributeError(f"module 'bot' has no attribute {name!r}")
