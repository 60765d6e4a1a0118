"""Sets a member's plan (two cards from the deck) in a game through the service, marks that it did, then waits to be
killed: the test kills it with SIGKILL between the plan being set and being played.

Usage: python plan_setter.py DATABASE GAME_ID USER_ID READY_FILE
"""

from __future__ import annotations

import asyncio
import sys
from pathlib import Path

from bot.service import GameService
from bot.service.plan_eval import ItemKind, PlanItem
from bot.store import parse_database


async def main(database: str, game_id: int, user_id: int, ready: Path) -> None:
    service = await GameService.open(parse_database(database))
    await service.plans.add(game_id, user_id, PlanItem(ItemKind.DECK))
    ready.write_text("SET\n")
    await asyncio.sleep(3600)  # killed here


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), Path(sys.argv[4])))
