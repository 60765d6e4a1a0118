"""The stage a game is in, as its stage message shows it.

The channel shows one message per stage: the ticket choice at the start, each
tourist-stack placement (San Francisco), each turn, the end (the stages and
their keys: bot/service/history.py). `stage` gives the front end what such a
message needs, all read from one moment of the game: the stage, the table as
everyone sees it, whether the player to move can only pass, on request every
stage so far (the message's recap tells those since the last message), and on
request its image, drawn by the render queue (urgent: ahead of boards asked
for on demand) with the caller's words.
"""

from __future__ import annotations

import asyncio
from collections.abc import Mapping
from dataclasses import dataclass
from functools import partial

from bot.service.core import ServiceCore
from bot.service.dealt import Dealt, dealt_game
from bot.service.history import Stage, stage_key, stages
from bot.service.images import Images
from bot.service.models import GameInfo
from bot.service.record import posted_commitment
from bot.service.views import TableView, public_view
from bot.store.protocols import HistoryStore
from render import RenderedImage, render_board, render_final
from render.words import ImageWords

# What to draw a stage's image with: the seat labels (seat number -> label) and the words.
ImageAsk = tuple[Mapping[int, str], ImageWords]


@dataclass(frozen=True)
class StageView:
    """A started game at its current stage."""

    info: GameInfo
    key: str  # "setup", "place:N", "turn:N" or "final"
    table: TableView
    stuck: bool  # the player to move can do nothing but pass
    early: bool  # at "final": a moderator ended the game before its end, scored as it stood
    history: tuple[Stage, ...]  # every stage so far, when asked for
    image: RenderedImage | None  # the board (at "final" the final scores; none at "setup"), when asked for
    commitment: str = ""  # the deal's commitment (engine/verify.py), published with the start


def _view(dealt: Dealt, with_history: bool, image: ImageAsk | None, commitment: str) -> StageView:
    """The stage view of a game (CPU work: runs in a worker thread)."""
    info, game = dealt.info, dealt.game
    key = stage_key(game, info.status)
    table = public_view(info, game).table
    assert table is not None  # the game is dealt
    to_move = game.to_move()
    drawn = None
    if image is not None and key != "setup":
        labels, words = image
        if key == "final":
            drawn = render_final(game, ended=True, words=words)
        else:
            drawn = render_board(game, labels, words=words)
    return StageView(
        info=info,
        key=key,
        table=table,
        stuck=to_move is not None and not game.has_action(to_move.player),
        early=key == "final" and not game.finished,
        history=stages(info, game, dealt.actors) if with_history else (),
        image=drawn,
        commitment=commitment,
    )


class Stages:
    def __init__(self, core: ServiceCore, history_store: HistoryStore, images: Images) -> None:
        self.core = core
        self.history_store = history_store
        self.images = images

    async def stage(
        self, game_id: int, *, history: bool = False, image: ImageAsk | None = None, commitment: bool = False
    ) -> StageView:
        """The game's current stage; with `history` every stage so far, with `image` its image drawn with
        those seat labels and words; with `commitment` the deal's commitment past the setup too (for the start
        message, written once more when the choice is over). WrongState before the deal.
        """
        dealt = await dealt_game(self.core, game_id)
        committed = ""
        if commitment or stage_key(dealt.game, dealt.info.status) == "setup":  # the start message shows it
            committed = posted_commitment(dealt.info, dealt.game, await self.history_store.audit_log(game_id))
        if image is None:
            return await asyncio.to_thread(_view, dealt, history, image, committed)
        # the image every player waits for: urgent in the render queue
        key = ("stage", game_id, dealt.info.version, history, image[1].language)
        return await self.images.renders.render(
            game_id, key, partial(_view, dealt, history, image, committed), urgent=True
        )
