"""The log thread: for servers that like to scroll back, a thread under each game's table with a line per turn.

Off by default; `/ttr config log_thread:on` turns it on for the server's
games at the table (not in the old style, `turn_messages` on, whose turn
messages are the log already). The thread is started from the table message
the first time a turn is over, named after the game, and kept (recorded
under the kind `log_thread`): the table may move down below the chat, its
thread stays. Each stage shown at the table posts the turns since the
previous one in it, one line each ("**Turn 7:** alice claims ..."), which
pings nobody; each line is recorded under its stage's key ("log:turn:7"),
so that a stage is logged once, a restart included.

Tournament tables are threads themselves, and a thread holds no thread: no
log there (`/ttr config` says so). A thread that cannot be started or
written to (deleted, the bot lacks the permission) is logged once for the
game, and the game goes on without it.
"""

from __future__ import annotations

import logging
from collections.abc import Collection, Sequence
from typing import Literal

import discord

from bot.present.i18n import speaking
from bot.present.layout import clip
from bot.present.recap import SAID_BY_THE_START_MESSAGE, stage_lines, stage_title
from bot.present.table_notices import log_thread_name
from bot.service import GameInfo, Stage
from bot.service.front_records import FrontRecords
from bot.service.settings import SettingsService
from bot.service.stages import StageView
from bot.table.languages import Languages

log = logging.getLogger(__name__)

Channel = discord.PartialMessageable | discord.Thread  # what a line is posted in
THREAD = "log_thread"  # the kind under which a game's log thread is recorded (its id as the message id)
LINE = "log:"  # the kinds of the lines posted in it: "log:" and the stage's key
ARCHIVE_MINUTES: Literal[10080] = 10080  # a week without lines: Discord archives the thread (a new line brings it back)


def logged_stages(stages: Sequence[Stage], shown: Collection[str], current: str) -> list[Stage]:
    """The stages a new stage's log tells: those since the newest one `shown` (itself included, its moves came
    after it was shown), without the `current` stage (its moves are still to come)."""
    picked: list[Stage] = []
    for stage in reversed(stages):
        if stage.key != current:
            picked.append(stage)
        if stage.key in shown:
            break
    return picked[::-1]


class LogThread:
    def __init__(
        self, client: discord.Client, front: FrontRecords, settings: SettingsService, languages: Languages
    ) -> None:
        self.client = client
        self.front = front
        self.settings = settings
        self.languages = languages
        self._failed: set[int] = set()  # games whose log failed once (logged): left alone until the next start

    async def wanted(self, info: GameInfo) -> bool:
        return info.id not in self._failed and (await self.settings.guild_config(info.guild_id)).log_thread

    async def record(self, view: StageView, table_id: int, shown: Collection[str], generation: str) -> None:
        """Post the turns since the stages `shown` in the game's log thread (started from the table `table_id`
        if the game has none yet); `generation`: the stage keys' suffix ("" or "#1") of this publish."""
        info = view.info
        if not await self.wanted(info):
            return
        logged = {m.kind for m in await self.front.posted_messages(info.id) if m.kind.startswith(LINE)}
        todo: list[tuple[str, str]] = []
        with speaking(await self.languages.server(info.guild_id)):
            for stage in logged_stages(view.history, shown, view.key):
                kind = f"{LINE}{stage.key}{generation}"
                lines = stage_lines(info, stage, SAID_BY_THE_START_MESSAGE)
                if lines and kind not in logged:
                    todo.append((kind, clip(f"**{stage_title(stage.key, info.title)}:** {' '.join(lines)}")))
            name = log_thread_name(info)
        if not todo:
            return
        thread = await self._thread(info, table_id, name)
        if thread is None:
            return
        for kind, line in todo:
            try:
                sent = await thread.send(line, allowed_mentions=discord.AllowedMentions.none())
            except discord.HTTPException as error:
                self._give_up(info, f"could not post in its log thread {thread.id} ({error.status})")
                return
            await self.front.remember_message(info.id, kind, thread.id, sent.id)

    async def _thread(self, info: GameInfo, table_id: int, name: str) -> Channel | None:
        """The game's log thread, started from the table now if it has none; None if it cannot have one."""
        kept = await self.front.posted_messages(info.id, THREAD)
        if kept:
            return self.client.get_partial_messageable(kept[-1].message_id, guild_id=info.guild_id)
        if isinstance(self.client.get_channel(info.channel_id), discord.Thread):
            self._failed.add(info.id)  # a tournament's table: a thread holds no thread (not an error)
            return None
        table = self.client.get_partial_messageable(info.channel_id, guild_id=info.guild_id)
        try:
            thread = await table.get_partial_message(table_id).create_thread(
                name=name[:100], auto_archive_duration=ARCHIVE_MINUTES
            )
        except discord.HTTPException as error:
            self._give_up(info, f"could not start its log thread ({error.status})")
            return None
        await self.front.remember_message(info.id, THREAD, info.channel_id, thread.id)
        log.info("game #%d: started its log thread %d", info.id, thread.id)
        return thread

    def _give_up(self, info: GameInfo, why: str) -> None:
        """Log the failure once for the game; its log is left alone from now on (the game goes on)."""
        if info.id not in self._failed:
            self._failed.add(info.id)
            log.warning("game #%d: %s; the game goes on without it", info.id, why)
