"""Where the bot's log goes and how much of it: the project's level, and discord.py's level apart from it.

discord.py logs at DEBUG what it sends and receives (message bodies, which may
name a player's tickets in a direct message, and interaction tokens), so
turning the project's own logging up never turns discord.py's up with it.
"""

from __future__ import annotations

import logging

import discord

# the project's packages: CONDUCTOR_LOG_LEVEL applies to their loggers
PROJECT_LOGGERS = ("bot", "engine", "render", "maps")
# discord.py's loggers (discord.http, discord.gateway, discord.client, ...): CONDUCTOR_DISCORD_LOG_LEVEL
DISCORD_LOGGER = "discord"
# everything else (other libraries) logs warnings and worse
OTHERS_LEVEL = logging.WARNING


def setup_logging(project_level: str, discord_level: str, handler: logging.Handler | None = None) -> None:
    """One handler on the root logger (stderr by default); each group of loggers at its own level.

    `project_level` and `discord_level` are names like "DEBUG" (checked by bot/runtime/settings.py).
    """
    if handler is None:
        discord.utils.setup_logging(level=OTHERS_LEVEL, root=True)
    else:
        discord.utils.setup_logging(handler=handler, level=OTHERS_LEVEL, root=True)
    for name in PROJECT_LOGGERS:
        logging.getLogger(name).setLevel(getattr(logging, project_level))
    logging.getLogger(DISCORD_LOGGER).setLevel(getattr(logging, discord_level))
