"""CONDUCTOR_LOG_FORMAT=json: one JSON object a line (bot/runtime/logs.py); what members type never reaches the log
at INFO or above."""

from __future__ import annotations

import io
import json
import logging
from collections.abc import Iterator

import discord
import pytest
from discord_harness import Moderation, allow_command, end_game, make_room, slash
from discord_play import open_game
from simcord import Env

from bot.runtime.logs import PROJECT_LOGGERS, JsonFormatter, setup_logging
from bot.runtime.settings import Settings, SettingsError
from bot.views.replies import current_game

KEYS = {"time", "level", "logger", "message", "game", "shards"}


@pytest.fixture
def out() -> Iterator[io.StringIO]:
    """What the root logger writes, as JSON lines, while the test runs (loggers put back afterwards)."""
    root = logging.getLogger()
    handlers, levels = list(root.handlers), {n: logging.getLogger(n).level for n in ("", *PROJECT_LOGGERS)}
    written = io.StringIO()
    setup_logging("INFO", "WARNING", logging.StreamHandler(written), log_format="json", shards="0,1")
    yield written
    for handler in list(root.handlers):
        if handler not in handlers:
            root.removeHandler(handler)
    for name, level in levels.items():
        logging.getLogger(name).setLevel(level)


def lines(out: io.StringIO) -> list[dict[str, object]]:
    return [json.loads(line) for line in out.getvalue().splitlines()]


def test_the_format_is_a_setting() -> None:
    assert Settings.from_env({}, env_file=None).log_format == "text"
    assert Settings.from_env({"CONDUCTOR_LOG_FORMAT": "JSON"}, env_file=None).log_format == "json"
    with pytest.raises(SettingsError, match="CONDUCTOR_LOG_FORMAT"):
        Settings.from_env({"CONDUCTOR_LOG_FORMAT": "xml"}, env_file=None)


def test_each_line_is_one_json_object_with_the_game_and_the_exception(out: io.StringIO) -> None:
    log = logging.getLogger("bot.table.stage")
    log.info("game #%d: posted %s", 12, "turn-3")
    token = current_game.set(7)
    try:
        raise ValueError("boom")
    except ValueError:
        log.exception("something failed\nover two lines")
    finally:
        current_game.reset(token)
    logging.getLogger("bot.runtime.app").info("no game here")
    first, second, third = lines(out)
    assert first.keys() >= KEYS and "exception" not in first
    assert (first["level"], first["logger"], first["message"], first["game"]) == (
        "INFO",
        "bot.table.stage",
        "game #12: posted turn-3",
        12,
    )
    assert first["shards"] == "0,1" and str(first["time"]).endswith("+00:00")
    assert (second["level"], second["game"], second["message"]) == ("ERROR", 7, "something failed\nover two lines")
    assert "Traceback" in str(second["exception"]) and "ValueError: boom" in str(second["exception"])
    assert third["game"] is None


def test_the_text_format_stays_readable() -> None:
    formatter = logging.Formatter()
    record = logging.LogRecord("bot", logging.INFO, __file__, 1, "game #%d: hello", (3,), None)
    assert formatter.format(record) == "game #3: hello"
    assert json.loads(JsonFormatter().format(record))["game"] == 3


async def test_a_game_logs_json_lines_and_no_member_typed_text(simcord_env: Env, out: io.StringIO) -> None:
    room = make_room(simcord_env, ["alice", "bob"])
    managers = room.guild.create_role("Managers", permissions=discord.Permissions(manage_guild=True))
    manager = room.add_member("manager", roles=[managers])
    role = room.guild.create_role("Game mods")
    moderator = room.add_member("mod", roles=[role])
    await slash(manager, room, "ttr config", moderator_role=role)  # no moderators' log channel
    allow_command(room, "ttrmod", {role: True})
    await open_game(room, "usa", 2, trains=7)
    typed = "REASON-typed-by-a-moderator"
    await end_game(Moderation(role, moderator, manager, room.channel), room, score="no", reason=typed)
    assert (await room.bot.service.reading.active_game(room.channel.id)) is None
    found = lines(out)
    assert found, "the game wrote no log line at INFO"
    assert all(line.keys() >= KEYS for line in found)
    assert any("moderators' log channel" in str(line["message"]) for line in found)
    assert typed not in out.getvalue()
