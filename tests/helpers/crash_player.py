"""Plays random moves on a few games through the service, forever, until it is killed.

Usage: python crash_player.py DATABASE LOG SEED   (DATABASE: an SQLite file or a postgresql:// URL)

After each committed action it appends `COMMIT game index move-json` to LOG
(one write of one line). The crash test kills this process with SIGKILL at
random moments and then checks that every line it wrote is in the database.
"""

from __future__ import annotations

import asyncio
import json
import os
import random
import sys
from pathlib import Path

from bot.service import GameService
from bot.service.settings import MAX_OPEN_GAMES
from bot.store import Database, GameStatus, parse_database
from engine.moves import move_to_json
from engine.random_play import random_move
from maps import MAP_NAMES

CHANNELS = (1, 2, 3, 4)
USERS = (100, 101, 102)


async def ensure_game(service: GameService, channel: int, rng: random.Random) -> int:
    """The channel's game, created, filled and started as needed (a kill may have stopped any step)."""
    info = await service.reading.active_game(channel)
    if info is None:
        map_name = MAP_NAMES[rng.randrange(len(MAP_NAMES))]
        info = (await service.lobby.create_game(1, channel, USERS[0], "host", map_name, max_players=3)).game
    if info.status is GameStatus.LOBBY:
        for user in USERS:
            if info.seat_of(user) is None:
                info = (await service.lobby.join(info.id, user, f"user{user}")).game
        await service.lobby.start(info.id, USERS[0])
    return info.id


async def drive(service: GameService, channel: int, log: int, rng: random.Random) -> None:
    while True:
        game_id = await ensure_game(service, channel, rng)
        game = await service.reading.engine_game(game_id)
        move = random_move(game, rng)
        if move is None:
            continue  # finished: the next round opens a new game in the channel
        info = await service.core.game(game_id)
        user = info.user_of(move.player)
        assert user is not None
        await service.play.act(game_id, user, move, expected_version=info.version)
        line = f"COMMIT {game_id} {len(game.moves)} {json.dumps(move_to_json(move), sort_keys=True)}\n"
        os.write(log, line.encode())


async def main(database: Database, log_path: Path, seed: int) -> None:
    rng = random.Random(seed)
    service = await GameService.open(database, rng=random.Random(seed))
    service.settings.default_open_games = (MAX_OPEN_GAMES, MAX_OPEN_GAMES)  # it hosts many games
    log = os.open(log_path, os.O_WRONLY | os.O_APPEND | os.O_CREAT)
    os.write(log, b"READY\n")
    await asyncio.gather(*(drive(service, c, log, random.Random(rng.random())) for c in CHANNELS))


if __name__ == "__main__":
    asyncio.run(main(parse_database(sys.argv[1]), Path(sys.argv[2]), int(sys.argv[3])))
