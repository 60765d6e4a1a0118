"""The stage message: what shows each stage of a game in its channel, kept up to date.

Each stage of the game (the ticket choice at the start, each tourist-stack
placement, each turn, the end) is shown by a message posted with the bot's
token and remembered (through the service) under the stage's key: at the
table (the default) the placements and turns by the game's one live table
message, edited in place (bot/table/live_table.py); in the old style
(`/ttr config turn_messages:on`) by a message each.
`publish` posts the message of the current stage if it is missing, so calling
it after every action, and once for every game after a restart (`recover`),
is always right. If Discord fails, the message is posted again later, with
backoff (bot/table/outbox.py) until it is delivered: a game has at most one
pending retry, which posts the stage the game is at by then.

A moderator's undo can take the game back to a stage whose message was posted
long ago, and a replacement or a resume changes whose buttons count; then the
stage messages start a new *generation* ("turn:5#1"): the current stage is
posted again with buttons of the game's current version, and every stage
after it gets a message of its own again.

Only the newest stage message of a game being played holds live buttons: a
new one takes them off the older ones. Each stage message posted with buttons
is marked in the store (in the write that records it) until they are taken
off, or given up on (deleted, not editable), so a crash between posting a new
message and that edit loses nothing: every start (and reconnection) sweeps
the marked messages of all games, finished and cancelled ones too, once. A
message Discord took but the store never recorded (a kill in between) is
found in the channel when the start posts that stage again.

A new stage also takes the game's notices and reminders out of the channel,
and tells who must act now (everyone at the start; later the member to move,
unless a "your turn" note from the action tells them): at the table by one
notice (bot/table/notices.py), in the old style by DM.
"""

from __future__ import annotations

import asyncio
import logging
import weakref
from collections.abc import Awaitable, Callable, Sequence
from typing import Any, Protocol

import discord

from bot.present.clock import deadline_line, out_of_time_line, paused_line, with_clock
from bot.present.i18n import speaking
from bot.present.layout import chunks
from bot.present.seats import seat_labels
from bot.present.stage import breakdown_lines, setup_content, start_text
from bot.service import GameInfo, GameStatus, TurnNotice
from bot.service.front_records import FrontRecords, PostedMessage
from bot.service.member_settings import MemberSettingsService
from bot.service.reading import ReadingService
from bot.service.settings import SettingsService
from bot.service.stages import Stages, StageView
from bot.table.ahead import DrawAhead
from bot.table.languages import Languages
from bot.table.live_table import LiveTable, is_table, live_row
from bot.table.log_thread import LogThread
from bot.table.notices import REMINDER, Notices
from bot.table.notify import Notifier
from bot.table.old_buttons import OldButtons
from bot.table.outbox import Sleep, backoff
from bot.table.stage_kinds import generation_key, is_stage, stage_base, stage_generation
from bot.table.stage_words import final_view, stage_buttons, stage_content, stage_mentions, table_view
from bot.views.replies import current_game, image_file
from bot.views.table_layout import is_layout, rebuilt
from maps import load_board

__all__ = ["REMINDER", "StageMessages", "StageParts", "stage_buttons", "stage_content", "stage_mentions"]

log = logging.getLogger(__name__)

BOARD = "board.png"  # the file name of the table's board image, which its layout shows
FINAL = "final.png"  # the final board's
Layout = discord.ui.LayoutView


class StageParts(Protocol):
    """The parts of the game service the stage messages use (the service itself has them all)."""

    front: FrontRecords
    reading: ReadingService
    stages: Stages
    members: MemberSettingsService
    settings: SettingsService


class StageMessages:
    def __init__(
        self,
        client: discord.Client,
        parts: StageParts,
        notifier: Notifier,
        sleep: Sleep = asyncio.sleep,
        *,
        languages: Languages,
    ) -> None:
        self.client = client
        self.front, self.reading, self.stages = parts.front, parts.reading, parts.stages
        self.notifier = notifier
        self.languages = languages
        self.settings = parts.settings
        self.old_buttons = OldButtons(client, parts.reading, parts.front)
        self.notices = Notices(client, parts.front, parts.members, notifier, languages)
        self.table = LiveTable(client, parts.front, self.old_buttons)
        self.ahead = DrawAhead(parts.reading, parts.stages, languages, self.at_table)  # the table's image, early
        self.log_thread = LogThread(client, parts.front, parts.settings, languages)  # a line per turn, if wanted
        self._sleep = sleep
        self._publishing: weakref.WeakValueDictionary[int, asyncio.Lock] = weakref.WeakValueDictionary()
        self._pending: dict[int, bool] = {}  # game -> its stage message waits to be posted (True: as a refresh)
        self._retries: dict[int, asyncio.Task[None]] = {}

    def channel(self, info: GameInfo) -> discord.PartialMessageable:
        return self.client.get_partial_messageable(info.channel_id, guild_id=info.guild_id)

    async def latest(self, game_id: int) -> int | None:
        """The newest stage message of the game (the one whose buttons count), if any."""
        rows = [m for m in await self.front.posted_messages(game_id) if is_stage(m.kind)]
        return rows[-1].message_id if rows else None

    def _lock(self, game_id: int) -> asyncio.Lock:
        lock = self._publishing.get(game_id)
        if lock is None:
            lock = asyncio.Lock()
            self._publishing[game_id] = lock
        return lock

    async def publish(
        self,
        game_id: int,
        *,
        lead: Sequence[str] = (),
        refresh: bool = False,
        notices: Sequence[TurnNotice] | None = None,
    ) -> bool:
        """Show the game's current stage unless it is shown already; True if a message was posted or edited now.

        `lead`: lines told at its top. `refresh`: show the current stage again
        as a new generation (after an undo, a replacement, a resume), with
        buttons of the game's current version. `notices`: the result's "your
        turn" notes, which the caller sends; without them (after a restart)
        the member to move is told here. At the table (the default style) the
        table message is edited (bot/table/live_table.py); in the old style
        each stage posts a message of its own.
        """
        async with self._lock(game_id):
            info = await self.reading.game(game_id)
            if not info.started or info.status is GameStatus.CANCELLED:
                return False
            language = await self.languages.server(info.guild_id)
            rows = [m for m in await self.front.posted_messages(game_id) if is_stage(m.kind)]
            generation = max((stage_generation(m.kind) for m in rows), default=0)
            if refresh and rows:
                generation += 1
            posted = {m.kind: m for m in rows}
            now = await self.stages.stage(game_id)
            key = generation_key(now.key, generation)
            table = now.key != "setup" and await self.at_table(info)
            live = live_row(rows) if table else None
            fresh = key not in posted
            if not fresh and not self.table.outdated(now.info, live):
                if now.key == "setup":
                    await self._refresh_setup(posted[key].message_id, now)
                elif live is not None and notices is None:  # after a start: was the member to move told?
                    url = self.channel(info).get_partial_message(live.message_id).jump_url
                    await self.notices.restore(now, url)
                return False
            shown = {stage_base(m.kind) for m in rows if stage_generation(m.kind) == generation}
            if not fresh:
                shown.discard(now.key)  # the stage goes on (a first card taken): told so far, with the one before
            with speaking(language):  # a public message: the server's language
                labels = seat_labels(info)
                image = (labels, self.languages.images(language))
                view = await self.ahead.take(now.info, now.key, language) if table else None
                if view is None:
                    view = await self.stages.stage(game_id, history=now.key != "setup", image=image)
                if view.key != now.key:
                    return False  # the game moved on meanwhile: the newer stage is shown by its own call
                clock = await self.clock_line(view.info) if view.key != "final" else ""
                content = stage_content(view, lead, shown, clock)
                if table:
                    final = view.key == "final"
                    layout = final_view(view, content, FINAL) if final else table_view(view, lead, shown, clock, BOARD)
                    message = await self._show_table(view, key, live, rows, layout)
                else:
                    message = await self._post(view, key, content)
        for row in rows:  # all older than the new message: none of their buttons counts any more
            if row.message_id == message.id or (table and is_table(row.kind)):
                continue  # the table itself, edited in place, or an old one (deleted as the new one was posted)
            if row.buttons and stage_base(row.kind) == "setup" and view.key != "setup":
                # the choice is over: the start message says so, without "still choosing" and its deadline
                await self._refresh_setup(row.message_id, await self.stages.stage(game_id, commitment=True))
            if row.buttons:
                await self.old_buttons.take_off_buttons(info, row)
        if fresh:
            await self.notices.clear(info)
            await self.notices.who_acts(view, message.jump_url, notices, first=generation == 0, table=table)
            if table:
                await self.log_thread.record(view, message.id, shown, generation_key("", generation))
        return True

    async def at_table(self, info: GameInfo) -> bool:
        """Is the game played at a live table (the default), not with a message per turn (`turn_messages`)?"""
        return not (await self.settings.guild_config(info.guild_id)).turn_messages

    async def _show_table(
        self, view: StageView, key: str, live: PostedMessage | None, rows: Sequence[PostedMessage], layout: Layout
    ) -> discord.Message:
        """The table shows the stage (`layout`): edited in place, or posted anew (the first, moved down, the final
        message), the old table deleted then."""
        info = view.info
        if live is not None and view.key != "final":
            ignore = await self.notices.ids(info)
            if not await self.table.far_up(info, live.message_id, self.reading.now(), ignore):
                # a layout has no content (a table posted before layouts loses its words for the layout's)
                kwargs: dict[str, Any] = {"content": None, "view": layout}
                kwargs["allowed_mentions"] = discord.AllowedMentions.none()
                if view.image is not None:
                    kwargs["attachments"] = [image_file(view.image, BOARD)]
                edited = await self.table.edit(view, live, key, **kwargs)
                if edited is not None:
                    self.reading.observer.table_shown()  # the table is up again: the time since the click (metrics)
                    log.info("game #%d: the table shows %s (message %d)", info.id, key, live.message_id)
                    return edited
        message = await self._post(view, key, "", pings=False, layout=layout)
        self.table.posted(info, message.id)
        self.table.versions[info.id] = info.version
        await self.table.retire(info, rows, keep=message.id)
        return message

    async def _post(
        self, view: StageView, key: str, content: str, *, pings: bool = True, layout: Layout | None = None
    ) -> discord.Message:
        """Post the stage's message: `content` and its buttons, or at the table its `layout` (buttons inside)."""
        info = view.info
        channel = self.channel(info)
        mentions = stage_mentions(view) if pings else discord.AllowedMentions.none()
        kwargs: dict[str, Any] = {"allowed_mentions": mentions}
        if view.image is not None:
            kwargs["file"] = image_file(view.image, FINAL if view.key == "final" else BOARD)
        buttons = stage_buttons(view)
        if layout is not None:
            kwargs["view"] = layout
        else:
            kwargs["content"] = content
            if buttons is not None:
                kwargs["view"] = buttons
        message = await channel.send(**kwargs)
        self.reading.observer.table_shown()  # the table is up: the time since the click that moved it (metrics)
        # marked in the write that records it: if the bot stops before a newer message takes its buttons off,
        # the next start finds it marked and takes them off then (`sweep`)
        await self.front.remember_message(info.id, key, info.channel_id, message.id, buttons=buttons is not None)
        if view.key == "final" and view.table.scores is not None:
            for extra in chunks(breakdown_lines(load_board(info.map), view.table.scores)):
                more = await channel.send(extra, allowed_mentions=discord.AllowedMentions.none())
                await self.front.remember_message(info.id, "breakdown", info.channel_id, more.id)
        log.info("game #%d: posted %s (message %d)", info.id, key, message.id)
        return message

    async def publish_safely(
        self,
        game_id: int,
        *,
        lead: Sequence[str] = (),
        refresh: bool = False,
        notices: Sequence[TurnNotice] | None = None,
        on_failure: Callable[[], Awaitable[None]] | None = None,
    ) -> bool:
        """Publish; if Discord fails, post it later, until it is delivered (the game must not stall); False then.

        A game has at most one pending retry: it posts the message of the
        stage the game is at when it succeeds, so a newer stage supersedes an
        older one. `on_failure`: awaited (without arguments) when the message
        could not be posted now.
        """
        try:
            posted = await self.publish(game_id, lead=lead, refresh=refresh, notices=notices)
        except Exception:
            log.warning("game #%d: could not post the channel message; retrying later", game_id, exc_info=True)
            self._pending[game_id] = self._pending.get(game_id, False) or refresh
            if game_id not in self._retries:
                self._retries[game_id] = asyncio.create_task(
                    self._retry(game_id), name=f"conductor-republish-{game_id}"
                )
            if on_failure is not None:
                await on_failure()
            return False
        if posted or refresh:
            self._pending.pop(game_id, None)  # the channel shows the current stage now
        return posted

    def pending(self, game_id: int) -> bool:
        """Does the game's stage message wait to be posted again?"""
        return game_id in self._pending

    async def _retry(self, game_id: int) -> None:
        """Post the game's stage message again, with backoff, until Discord takes it."""
        current_game.set(game_id)
        for delay in backoff():
            await self._sleep(delay)
            refresh = self._pending.pop(game_id, None)
            if refresh is not None:
                try:
                    await self.publish(game_id, refresh=refresh)
                except Exception:
                    log.warning("game #%d: posting the channel message failed again", game_id, exc_info=True)
                    self._pending[game_id] = self._pending.get(game_id, False) or refresh
            if game_id not in self._pending:
                self._retries.pop(game_id, None)
                return

    async def recover(self) -> None:
        """After a start or a reconnection: post every running game's stage message that is missing, then take
        the buttons off every older stage message that may still carry them (`sweep`), finished games too."""
        for game_id in await self.front.running_games():
            current_game.set(game_id)
            before = await self.latest(game_id)
            # the stage's message was missing (or a table may have been moved down): was it posted unrecorded?
            if await self.publish_safely(game_id) or await self.at_table(await self.reading.game(game_id)):
                await self.old_buttons.strip_unrecorded(game_id, before)
        for game_id in await self.front.games_with_buttons():
            current_game.set(game_id)
            try:
                await self.old_buttons.sweep(game_id)
            except Exception:
                log.warning(
                    "game #%d: could not look for old buttons; trying at the next start", game_id, exc_info=True
                )

    def close(self) -> None:
        """Stop the retries (the bot is closing)."""
        self.ahead.close()
        for task in self._retries.values():
            task.cancel()
        self._retries.clear()
        self._pending.clear()

    # ----- the clock's line ----------------------------------------------------------

    async def clock_line(self, info: GameInfo) -> str:
        return await clock_line(self.reading, info)

    async def refresh_clock(self, game_id: int) -> None:
        """Bring the clock's line of the current stage message up to date (after a pause, an extension, a timeout)."""
        info = await self.reading.game(game_id)
        message_id = await self.latest(game_id)
        if message_id is None or not info.started or not info.status.active:
            return
        with speaking(await self.languages.server(info.guild_id)):
            line = await self.clock_line(info)
        try:
            message = await self.channel(info).fetch_message(message_id)
            if is_layout(message):  # the table: the clock's line is in the words of whose turn it is
                layout = rebuilt(message, buttons=True, turn=lambda words: with_clock(words, line))
                await message.edit(view=layout, allowed_mentions=discord.AllowedMentions.none())
                return
            content = with_clock(message.content, line)
            if content != message.content:
                await message.edit(content=content, allowed_mentions=discord.AllowedMentions.none())
        except discord.HTTPException:
            log.warning("game #%d: could not update the clock of message %d", game_id, message_id, exc_info=True)

    async def _refresh_setup(self, message_id: int, view: StageView) -> None:
        """The setup message again, with who is still choosing now (once nobody is: what comes next)."""
        info = view.info
        over = view.key != "setup"  # everyone has chosen: no deadline, nobody still choosing
        clock = "" if over else await self.clock_line(info)
        with speaking(await self.languages.server(info.guild_id)):
            start = start_text(info, view.table, view.commitment)
            content = setup_content(info, view.table, start, clock=clock, over=over)
        try:
            message = self.channel(info).get_partial_message(message_id)
            await message.edit(content=content, allowed_mentions=discord.AllowedMentions.none())
        except discord.HTTPException:
            log.warning("game #%d: could not update the setup message %d", info.id, message_id, exc_info=True)

    # ----- what a new stage message brings along -------------------------------------

    async def clear_reminders(self, info: GameInfo) -> None:
        """Delete the game's notices and reminders from the channel (a new stage or a newer notice replaces them)."""
        await self.notices.clear(info)


async def clock_line(reading: ReadingService, info: GameInfo) -> str:
    """The clock's line of a stage message: the deadline of whoever must act, or that the game is paused."""
    if not info.clock.enabled or not info.status.active:
        return ""
    status = await reading.clock_status(info.id)
    if status.paused:
        return paused_line()
    seats = [s for s in status.seats if s.waiting and not s.autopilot]
    if any(s.waiting_for_moderator for s in seats):
        return out_of_time_line()
    deadlines = [s.deadline for s in seats if s.deadline]
    if not deadlines:
        return ""
    return deadline_line(min(deadlines))
