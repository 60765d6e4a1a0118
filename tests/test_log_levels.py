"""CONDUCTOR_LOG_LEVEL sets the project's loggers only; discord.py's stay at CONDUCTOR_DISCORD_LOG_LEVEL."""

from __future__ import annotations

import io
import logging
from collections.abc import Iterator

import pytest

from bot.runtime.logs import DISCORD_LOGGER, PROJECT_LOGGERS, setup_logging
from bot.runtime.settings import Settings, SettingsError

WATCHED = ("", *PROJECT_LOGGERS, DISCORD_LOGGER, "discord.http", "discord.gateway", "discord.client")


@pytest.fixture
def clean_logging() -> Iterator[None]:
    """Put the loggers (levels and root handlers) back as they were after the test."""
    levels = {name: logging.getLogger(name).level for name in WATCHED}
    handlers = list(logging.getLogger().handlers)
    yield
    root = logging.getLogger()
    for handler in list(root.handlers):
        if handler not in handlers:
            root.removeHandler(handler)
    for name, level in levels.items():
        logging.getLogger(name).setLevel(level)


def test_the_discord_log_level_is_its_own_setting() -> None:
    default = Settings.from_env({"CONDUCTOR_LOG_LEVEL": "DEBUG"}, env_file=None)
    assert (default.log_level, default.discord_log_level) == ("DEBUG", "WARNING")
    asked = Settings.from_env({"CONDUCTOR_DISCORD_LOG_LEVEL": "info"}, env_file=None)
    assert (asked.log_level, asked.discord_log_level) == ("INFO", "INFO")
    with pytest.raises(SettingsError, match="CONDUCTOR_DISCORD_LOG_LEVEL"):
        Settings.from_env({"CONDUCTOR_DISCORD_LOG_LEVEL": "everything"}, env_file=None)


@pytest.mark.usefixtures("clean_logging")
def test_debug_for_the_project_leaves_discord_http_at_warning() -> None:
    out = io.StringIO()
    settings = Settings.from_env({"CONDUCTOR_LOG_LEVEL": "DEBUG"}, env_file=None)
    setup_logging(settings.log_level, settings.discord_log_level, logging.StreamHandler(out))
    for name in ("discord.http", "discord.gateway", "discord.client", "discord.webhook.async_"):
        assert logging.getLogger(name).getEffectiveLevel() == logging.WARNING
    for name in ("bot.runtime.app", "engine", "render.board", "maps"):
        assert logging.getLogger(name).getEffectiveLevel() == logging.DEBUG
    logging.getLogger("discord.http").debug("POST /channels/1/messages with body: your tickets")
    logging.getLogger("bot.runtime.app").debug("project debug line")
    logging.getLogger("discord.http").warning("rate limited")
    written = out.getvalue()
    assert "your tickets" not in written
    assert "project debug line" in written
    assert "rate limited" in written


@pytest.mark.usefixtures("clean_logging")
def test_discord_debug_only_when_asked_for() -> None:
    out = io.StringIO()
    setup_logging("WARNING", "DEBUG", logging.StreamHandler(out))
    logging.getLogger("discord.http").debug("http debug line")
    logging.getLogger("bot.runtime.app").info("project info line")
    assert "http debug line" in out.getvalue()
    assert "project info line" not in out.getvalue()
