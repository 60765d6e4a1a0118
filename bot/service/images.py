"""Images of a game: the board, one player's private view, the final scores.

Drawing is CPU work, so it runs in a worker thread, off the event loop; the
caller gives the words to draw with (`render.words.ImageWords`) and how to
label the seats. The private view is drawn for the member who asks only.
"""

from __future__ import annotations

import asyncio
from collections.abc import Mapping
from functools import partial

from bot.service.core import ServiceCore
from bot.service.dealt import dealt_game, seated
from render import RenderedImage, render_board, render_private
from render.words import ImageWords


class Images(ServiceCore):
    async def board_image(self, game_id: int, labels: Mapping[int, str], *, words: ImageWords) -> RenderedImage:
        """The board as everyone sees it; `labels` names the seats (seat number -> label)."""
        dealt = await dealt_game(self, game_id)
        return await asyncio.to_thread(partial(render_board, dealt.game, labels, words=words))

    async def hand_image(
        self, game_id: int, user_id: int, labels: Mapping[int, str], *, words: ImageWords
    ) -> RenderedImage:
        """The board with this member's own cards and tickets: for their eyes only."""
        dealt = await dealt_game(self, game_id)
        _, _, seat = seated(dealt.info, user_id)
        return await asyncio.to_thread(partial(render_private, dealt.game, seat, labels, words=words))
