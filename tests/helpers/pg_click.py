"""One process's click: apply one move to one game through the service, when a start file appears.

Usage: python pg_click.py DATABASE GAME USER VERSION MOVE-JSON GO-FILE

Prints `applied` if the move counted, `refused KIND` if the service refused it.
The test starts two of these on the same game and version, then creates
GO-FILE so that both act at once.
"""

from __future__ import annotations

import asyncio
import json
import sys
import time
from pathlib import Path

from bot.service import GameService, ServiceError
from bot.store import parse_database
from engine.moves import move_from_json


async def main(database: str, game_id: int, user: int, version: int, move_text: str, go: Path) -> None:
    service = await GameService.open(parse_database(database))
    try:
        await service.core.game(game_id)  # loaded and connected before the start signal
        print("ready", flush=True)
        deadline = time.monotonic() + 30
        while not go.exists() and time.monotonic() < deadline:
            await asyncio.sleep(0.001)
        try:
            await service.play.act(game_id, user, move_from_json(json.loads(move_text)), expected_version=version)
        except ServiceError as exc:
            print(f"refused {type(exc).__name__}", flush=True)
        else:
            print("applied", flush=True)
    finally:
        await service.close()


if __name__ == "__main__":
    a = sys.argv
    asyncio.run(main(a[1], int(a[2]), int(a[3]), int(a[4]), a[5], Path(a[6])))
