"""Images of a game: the board, one player's private view, the final scores.

Drawing is CPU work, so it is done by the render queue (render_queue.py): in a
worker thread, off the event loop, fairly across games, and once for the same
picture asked for again while it is drawn. The caller gives the words to draw
with (`render.words.ImageWords`) and how to label the seats. The private view
is drawn for the member who asks only.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Mapping
from functools import partial

from bot.service.core import ServiceCore
from bot.service.dealt import dealt_game, seated
from bot.service.render_queue import RenderQueue
from bot.store import ACTIVE
from bot.store.protocols import GameStore
from maps import MAP_NAMES
from render import RenderedImage, render_board, render_private, static_board
from render.words import ImageWords

log = logging.getLogger(__name__)

RENDER_WORKERS = 1  # images drawn at once (each holds a thread; drawing is CPU work)


class Images:
    def __init__(self, core: ServiceCore, game_store: GameStore) -> None:
        self.core = core
        self.game_store = game_store
        self._render_queue: RenderQueue | None = None

    @property
    def renders(self) -> RenderQueue:
        """The queue every image of this service is drawn through."""
        if self._render_queue is None:
            observer = self.core.observer
            self._render_queue = RenderQueue(RENDER_WORKERS, drawn=observer.drawn if observer.listening else None)
        return self._render_queue

    async def close(self) -> None:
        if self._render_queue is not None:
            await self._render_queue.stop()

    async def warm_up(self, *, words: ImageWords) -> list[str]:
        """Build every map's static layer now, off the event loop: the maps of running games first.

        Without it the first image of a map after a restart builds the layer
        itself (most of a second). The layers are built one after the other in
        a worker thread, so the bot answers meanwhile; a render that needs a
        layer being built waits for that one only. Returns the maps in the
        order they were built.
        """
        order = await self.warm_order()
        started = time.perf_counter()
        for map_name in order:
            await asyncio.to_thread(static_board, map_name, words=words)
        log.info("static board layers of %d maps built in %.2f s", len(order), time.perf_counter() - started)
        return order

    async def warm_order(self) -> list[str]:
        """Every map, the maps of running games first: the order to build their static layers in at start."""
        rows = await self.game_store.games_with_status(ACTIVE)
        active = [row.map for row in rows]
        return list(dict.fromkeys([*(m for m in active if m in MAP_NAMES), *MAP_NAMES]))

    async def board_image(self, game_id: int, labels: Mapping[int, str], *, words: ImageWords) -> RenderedImage:
        """The board as everyone sees it; `labels` names the seats (seat number -> label)."""
        dealt = await dealt_game(self.core, game_id)
        key = ("board", game_id, dealt.info.version, words.language)
        return await self.renders.render(game_id, key, partial(render_board, dealt.game, labels, words=words))

    async def hand_image(
        self, game_id: int, user_id: int, labels: Mapping[int, str], *, words: ImageWords
    ) -> RenderedImage:
        """The board with this member's own cards and tickets: for their eyes only."""
        dealt = await dealt_game(self.core, game_id)
        _, _, seat = seated(dealt.info, user_id)
        key = ("hand", game_id, dealt.info.version, user_id, words.language)
        draw = partial(render_private, dealt.game, seat, labels, words=words)
        return await self.renders.render(game_id, key, draw)
