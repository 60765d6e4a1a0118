"""The table's image drawn ahead: as soon as a member's move is made, while their private answer is sent.

The table's edit waits for the board image of the new stage (drawn in the
render queue, off the event loop). The move's private answer goes to
Discord first (a round trip); drawing the image only after it made every
edit wait for both, one after the other. So a move made at the table starts
the drawing at once (`start`), and the table's edit (bot/table/stage.py)
takes what was drawn (`take`): the same image it would draw, of the same
version of the game, in the same words. What was drawn for a version that
is not shown (the game moved on meanwhile) is dropped.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass

from bot.present.i18n import speaking
from bot.present.seats import seat_labels
from bot.service import GameInfo
from bot.service.kinds import Language
from bot.service.reading import ReadingService
from bot.service.stages import Stages, StageView
from bot.table.languages import Languages

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class Drawn:
    language: Language
    view: StageView


AT_MOST = 256  # games with an image drawn ahead and not taken yet (the oldest is dropped past this)


class DrawAhead:
    def __init__(
        self,
        reading: ReadingService,
        stages: Stages,
        languages: Languages,
        at_table: Callable[[GameInfo], Awaitable[bool]],
    ) -> None:
        self.reading = reading
        self.stages = stages
        self.languages = languages
        self.at_table = at_table
        self._drawing: dict[int, asyncio.Task[Drawn | None]] = {}

    def start(self, game_id: int) -> None:
        """Start drawing the image of the game's stage now (for the table's next edit)."""
        old = self._drawing.pop(game_id, None)
        if old is not None:
            old.cancel()  # the render itself goes on if the edit waits for it (the render queue shares it)
        task = asyncio.create_task(self._draw(game_id), name=f"conductor-ahead-{game_id}")
        task.add_done_callback(_quiet)
        self._drawing[game_id] = task
        while len(self._drawing) > AT_MOST:
            self._drawing.pop(next(iter(self._drawing))).cancel()

    async def take(self, info: GameInfo, key: str, language: Language) -> StageView | None:
        """The stage drawn ahead for the game, if it is the stage `key` of this version of the game (`info`) in
        the `language`; None if none was (then the caller draws it)."""
        task = self._drawing.pop(info.id, None)  # taken: nothing else cancels it now
        if task is None:
            return None
        try:
            drawn = await task
        except Exception:
            return None  # logged by `_quiet`
        if drawn is None:
            return None
        view = drawn.view
        if view.info.version != info.version or view.key != key or view.image is None or drawn.language != language:
            return None
        return view

    def close(self) -> None:
        for task in self._drawing.values():
            task.cancel()
        self._drawing.clear()

    async def _draw(self, game_id: int) -> Drawn | None:
        info = await self.reading.game(game_id)
        if not info.started or not await self.at_table(info):
            return None  # a message per turn: a move within a turn shows nothing new, nothing to draw
        language = await self.languages.server(info.guild_id)
        with speaking(language):  # as the table's edit draws it: the server's language
            image = (seat_labels(info), self.languages.images(language))
        return Drawn(language, await self.stages.stage(game_id, history=True, image=image))


def _quiet(task: asyncio.Task[Drawn | None]) -> None:
    """A drawing nobody took: its failure is logged, not raised (the edit draws the image itself)."""
    if not task.cancelled() and task.exception() is not None:
        log.warning("drawing a table's image ahead failed", exc_info=task.exception())
