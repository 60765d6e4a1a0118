"""The board after any turn of a game, for walking through it afterwards (`/ttr replay`).

Turn N is the turn the history calls "Turn N": the board after turn N is the
game once every move of that turn is made; turn 0 is the board before the
first turn (after the starting tickets, and San Francisco's stacks). Only
completed turns are shown: a running game's turn in progress is not. The
image is the public board, as it was then: never a hand, a ticket or a deck.
"""

from __future__ import annotations

import asyncio
from collections.abc import Mapping
from dataclasses import dataclass
from functools import partial

from bot.service.core import ServiceCore
from bot.service.dealt import dealt_game
from bot.service.errors import Why, WrongState
from bot.service.history import stage_key
from bot.service.images import Images
from engine import Game
from render import RenderedImage, render_board
from render.words import ImageWords


@dataclass(frozen=True)
class ReplayFrame:
    turn: int  # 0: before the first turn
    turns: int  # the last turn that can be shown (the completed turns)
    image: RenderedImage


def turn_ends(game: Game, over: bool) -> list[int]:
    """How many moves were made by the end of each completed turn: [0] before the first turn, [n] after turn n."""
    start = game.initial()
    keys = []
    for move in game.moves:
        keys.append(stage_key(start))
        start.apply(move)
    now = "final" if over else stage_key(start)
    ends = [next((i for i, key in enumerate(keys) if key.startswith("turn:")), len(keys))]
    for i, key in enumerate(keys):
        following = keys[i + 1] if i + 1 < len(keys) else now
        if key.startswith("turn:") and following != key:
            ends.append(i + 1)
    return ends


def _frame(game: Game, over: bool, turn: int, labels: Mapping[int, str], words: ImageWords) -> ReplayFrame:
    ends = turn_ends(game, over)
    if not 0 <= turn < len(ends):
        raise WrongState(Why.BAD_TURN, {"turns": len(ends) - 1, "value": turn})
    image = render_board(game.replay_until(ends[turn]), labels, words=words)
    return ReplayFrame(turn, len(ends) - 1, image)


class Replays:
    def __init__(self, core: ServiceCore, images: Images) -> None:
        self.core = core
        self.images = images

    async def replay_frame(
        self, game_id: int, turn: int | None, labels: Mapping[int, str], *, words: ImageWords
    ) -> ReplayFrame:
        """The public board after turn `turn` (None: the last completed turn); `labels` names the seats."""
        dealt = await dealt_game(self.core, game_id)
        over = dealt.game.finished or not dealt.info.status.active
        if turn is None:
            turn = len(await asyncio.to_thread(turn_ends, dealt.game, over)) - 1
        key = ("replay", game_id, dealt.info.version, turn, words.language)
        return await self.images.renders.render(game_id, key, partial(_frame, dealt.game, over, turn, labels, words))
