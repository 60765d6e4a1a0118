"""Where the bot's log goes and how much of it: the project's level, and discord.py's level apart from it.

discord.py logs at DEBUG what it sends and receives (message bodies, which may
name a player's tickets in a direct message, and interaction tokens), so
turning the project's own logging up never turns discord.py's up with it.

Two formats (CONDUCTOR_LOG_FORMAT): readable text lines (the default), or `json`, one JSON object a line for
a log collector: time (UTC, ISO 8601), level, logger, message, the game the line is about (when known), this
process's shards, and the exception's traceback when there is one.
"""

from __future__ import annotations

import json
import logging
import re
from datetime import UTC, datetime
from typing import Any

import discord

from bot.views.replies import current_game

# the project's packages: CONDUCTOR_LOG_LEVEL applies to their loggers
PROJECT_LOGGERS = ("bot", "engine", "render", "maps")
# discord.py's loggers (discord.http, discord.gateway, discord.client, ...): CONDUCTOR_DISCORD_LOG_LEVEL
DISCORD_LOGGER = "discord"
# everything else (other libraries) logs warnings and worse
OTHERS_LEVEL = logging.WARNING
# the project's log lines name their game so: "game #12: ..."
GAME_IN_MESSAGE = re.compile(r"\bgame #(\d+)")


class JsonFormatter(logging.Formatter):
    """One JSON object a line: time, level, logger, message, game, shards, and exception when there is one."""

    def __init__(self, shards: str = "all") -> None:
        super().__init__()
        self.shards = shards

    def format(self, record: logging.LogRecord) -> str:
        message = record.getMessage()
        game = current_game.get()
        if game is None and (found := GAME_IN_MESSAGE.search(message)) is not None:
            game = int(found.group(1))
        line: dict[str, object] = {
            "time": datetime.fromtimestamp(record.created, UTC).isoformat(timespec="milliseconds"),
            "level": record.levelname,
            "logger": record.name,
            "message": message,
            "game": game,
            "shards": self.shards,
        }
        if record.exc_info:
            line["exception"] = self.formatException(record.exc_info)
        elif record.exc_text:
            line["exception"] = record.exc_text
        if record.stack_info:
            line["stack"] = self.formatStack(record.stack_info)
        return json.dumps(line, ensure_ascii=False, default=str)


def setup_logging(
    project_level: str,
    discord_level: str,
    handler: logging.Handler | None = None,
    *,
    log_format: str = "text",
    shards: str = "all",
) -> None:
    """One handler on the root logger (stderr by default); each group of loggers at its own level.

    `project_level` and `discord_level` are names like "DEBUG" (checked by bot/runtime/settings.py);
    `log_format`: "text" or "json" (`JsonFormatter`, its lines naming `shards`).
    """
    options: dict[str, Any] = {} if handler is None else {"handler": handler}
    if log_format == "json":
        options["formatter"] = JsonFormatter(shards)
    discord.utils.setup_logging(level=OTHERS_LEVEL, root=True, **options)
    for name in PROJECT_LOGGERS:
        logging.getLogger(name).setLevel(getattr(logging, project_level))
    logging.getLogger(DISCORD_LOGGER).setLevel(getattr(logging, discord_level))
