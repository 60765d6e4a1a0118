"""Autopilot levels: `/ttr config autopilot_level`, `/ttr new ... bots_level`, kept across a restart."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from discord_harness import Room, make_room, moderate, reply_text, restart, slash
from discord_play import Player
from helpers.service_support import refused
from simcord import Env

import bot.service.thinking as thinking
from bot.runtime.settings import Settings
from bot.service import GameInfo, GameService, InvalidInput, Why
from bot.service.thinking import Thinking
from engine import Game, Move
from engine.autopilot import Level


@pytest.fixture
def backend() -> str:
    """SimCord tests run on SQLite only; the store's and the service's own tests cover PostgreSQL."""
    return "sqlite"


@pytest.fixture
def bot_settings(tmp_path: Path) -> Settings:
    """The tests' bot, its expert thinking at most 0.2 s a move (CONDUCTOR_EXPERT_SECONDS)."""
    return Settings(database=tmp_path / "conductor.sqlite3", commands_per_window=0, expert_seconds=0.2)


@pytest.fixture
def levels(monkeypatch: pytest.MonkeyPatch) -> list[tuple[str, Level]]:
    """Every autopilot decision the service asks for: (player, level)."""
    asked: list[tuple[str, Level]] = []
    real = Thinking.move

    async def spy(self: Thinking, game: Game, name: str, level: Level) -> Move:
        asked.append((name, Level(level)))
        return await real(self, game, name, level)

    monkeypatch.setattr(Thinking, "move", spy)
    return asked


@pytest.fixture
def in_threads(monkeypatch: pytest.MonkeyPatch) -> list[tuple[str, Level]]:
    """Every decision the autopilot makes in a thread of this process: (player, level)."""
    asked: list[tuple[str, Level]] = []
    real = thinking.choose_move

    def spy(game: Game, name: str, level: Any = Level.STEADY, *more: Any) -> Move:
        asked.append((name, Level(level)))
        return real(game, name, level, *more)

    monkeypatch.setattr(thinking, "choose_move", spy)
    return asked


async def play_against_bots(room: Room, bots: int, level: str) -> tuple[GameInfo, Game]:
    """Alice opens a short USA game against `bots` autopilot players at `level` and plays it out."""
    alice = room.members[0]
    opened = await slash(alice, room, "ttr new", map="usa", trains=6, bots=bots, bots_level=level)
    assert "You opened game" in reply_text(opened), reply_text(opened)
    info = await room.bot.service.reading.active_game(room.channel.id)
    assert info is not None
    await slash(alice, room, "ttr start")
    game = await Player(room, info.id).play()
    assert game.finished
    return info, game


async def test_a_practice_game_against_strong_bots_plays_through(
    simcord_env: Env, levels: list[tuple[str, Level]]
) -> None:
    room = make_room(simcord_env, ["alice"])
    info, _game = await play_against_bots(room, 2, "strong")
    assert info.bots_level is Level.STRONG and info.autopilot_level is Level.STEADY  # the server's default
    assert levels and {level for _, level in levels} == {Level.STRONG}
    assert {name for name, _ in levels} == {"Autopilot 1", "Autopilot 2"}
    await restart(simcord_env)
    again = await room.bot.service.core.game(info.id)
    assert again.bots_level is Level.STRONG


@pytest.mark.simcord(settle_timeout=60)  # the worker process starts at the first decision: slow on a busy machine
async def test_a_game_against_an_expert_bot_plays_through_its_searches_in_a_worker_process(
    simcord_env: Env, levels: list[tuple[str, Level]], in_threads: list[tuple[str, Level]]
) -> None:
    room = make_room(simcord_env, ["alice"])
    info, game = await play_against_bots(room, 1, "expert")
    assert info.bots_level is Level.EXPERT
    assert levels and set(levels) == {("Autopilot 1", Level.EXPERT)}
    assert not in_threads  # every decision was the worker process's
    assert any(m.player == "Autopilot 1" for m in game.moves)
    mods = await moderate(room)
    answer = reply_text(await slash(mods.manager, room, "ttr config", autopilot_level="expert"))
    assert "Autopilot of new games: expert" in answer, answer
    assert (await room.bot.service.settings.guild_config(room.guild.id)).autopilot_level is Level.EXPERT


async def test_the_server_chooses_the_level_of_new_games(simcord_env: Env, levels: list[tuple[str, Level]]) -> None:
    room = make_room(simcord_env, ["alice"])
    alice = room.members[0]
    mods = await moderate(room)
    answer = reply_text(await slash(mods.manager, room, "ttr config", autopilot_level="strong"))
    assert "Autopilot of new games: strong" in answer, answer
    refused_answer = reply_text(await slash(alice, room, "ttr config", autopilot_level="steady"))
    assert "Autopilot of new games" not in refused_answer
    config = await room.bot.service.settings.guild_config(room.guild.id)
    assert config.autopilot_level is Level.STRONG
    await slash(alice, room, "ttr new", map="usa", trains=5, bots=1)
    info = await room.bot.service.reading.active_game(room.channel.id)
    assert info is not None and info.bots_level is Level.STRONG and info.autopilot_level is Level.STRONG
    await slash(alice, room, "ttr start")
    await Player(room, info.id).play()
    assert levels and {level for _, level in levels} == {Level.STRONG}
    # a level chosen for the game wins over the server's
    await slash(mods.manager, room, "ttr config", autopilot_level="steady")
    config = await room.bot.service.settings.guild_config(room.guild.id)
    assert config.autopilot_level is Level.STEADY
    assert "Autopilot of new games: steady" in reply_text(await slash(mods.manager, room, "ttr config"))


async def test_a_timed_out_seat_and_a_bot_play_at_their_own_levels(service: GameService) -> None:
    await service.settings.set_guild_config(1, "autopilot_level", "strong")
    created = await service.lobby.create_game(1, 10, 100, "Ann", "usa", bots=1, bots_level="steady")
    info = created.game
    assert info.autopilot_level is Level.STRONG and info.bots_level is Level.STEADY
    seats = {s.user_id: s for s in info.seats}
    assert info.level_of(info.seats.index(seats[100])) is Level.STRONG
    assert info.level_of(info.seats.index(seats[-1])) is Level.STEADY


async def test_bad_levels_are_refused_and_change_nothing(service: GameService) -> None:
    with refused(InvalidInput, Why.BAD_LEVEL, key="autopilot_level", levels="steady, strong, expert", value="genius"):
        await service.settings.set_guild_config(1, "autopilot_level", "genius")
    assert (await service.settings.guild_config(1)).autopilot_level is Level.STEADY
    with refused(InvalidInput, Why.BAD_LEVEL, key="bots_level", levels="steady, strong, expert"):
        await service.lobby.create_game(1, 10, 100, "Ann", "usa", bots=1, bots_level="genius")
    assert await service.reading.active_game(10) is None
