"""The game's record and full log, the audit entries, and moderators reading a game.

The log puts together the moves (with who made them and when), the moves a
moderator took back (told without their secrets), and the audit entries
(moderator actions, timeouts). The record is for everyone once the game is
over for good (bot/service/finality.py); before that (while it runs, and
while a moderator's end can still be undone) only a moderator may read the
record or the log, never one who is seated in the game, and every such read
is audited under the game's lock, whichever front end asked.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from bot.service.checks import check_id
from bot.service.core import ServiceCore
from bot.service.errors import IdKind, NotAllowed, NotFound, Why, WrongState
from bot.service.events import PublicEvent
from bot.service.finality import REOPEN_SECONDS, Finality
from bot.service.history import tell_moves
from bot.service.kinds import Actor, AuditAction, LogKind
from bot.service.models import GameInfo
from bot.service.outline import MoveOutline, outline
from bot.service.record import record_of
from bot.service.results import ModLogEntry
from bot.store import AuditRow, NewAudit, StoredGame, UnknownGame
from bot.store.protocols import GameStore, HistoryStore
from engine.errors import InvalidMoveError
from engine.moves import move_from_json

UNDONE_MOVES = "undone"  # an undo's audit details: the moves taken back, in their record form


@dataclass(frozen=True)
class LogEntry:
    """One line of a game's full log: a move, a move taken back, a moderator action or a timeout."""

    at: datetime
    kind: LogKind | AuditAction
    user_id: int | None  # the member who moved, or the moderator (None: the autopilot, or the clock)
    actor: Actor | None = None  # who made a move; None for an audit entry
    player: str | None = None  # the seat that moved
    events: tuple[PublicEvent, ...] = ()  # a move's public events
    move: Mapping[str, Any] = field(default_factory=dict)  # a move that counts, in its record form
    data: Mapping[str, Any] = field(default_factory=dict)  # a move's index; an audit entry's details
    reason: str = ""  # an audit entry's reason
    undone: MoveOutline | None = None  # a move taken back, without its secrets


@dataclass(frozen=True)
class RecordRead:
    """The game record someone asked for; `mod_log`: a moderator's audited read, for the moderators' log."""

    game: GameInfo
    record: dict[str, Any]
    mod_log: ModLogEntry | None = None


@dataclass(frozen=True)
class LogRead:
    """A game's full log as a moderator read it (audited: `mod_log` is for the moderators' log)."""

    game: GameInfo
    entries: list[LogEntry]
    mod_log: ModLogEntry


class AuditService:
    def __init__(
        self, core: ServiceCore, game_store: GameStore, history_store: HistoryStore, finality: Finality
    ) -> None:
        self.core = core
        self.game_store = game_store
        self.history_store = history_store
        self.finality = finality

    async def _moderator_read(
        self, stored: StoredGame, reader_user_id: int, action: AuditAction, reason: str, *, final: bool
    ) -> ModLogEntry:
        """Refuse a moderator seated in a game not over for good (`final`); audit anyone else's read. The caller
        holds the lock."""
        game_id = stored.game.id
        if not final and any(s.user_id == reader_user_id for s in stored.seats):
            what = "log" if action is AuditAction.READ_LOG else "record"
            ended = not stored.game.status.active  # ended, but it may still be reopened
            raise NotAllowed(Why.SEATED_MODERATOR, {"game_id": game_id, "what": what, "ended": ended})
        why = reason.strip()
        await self.history_store.add_audit(game_id, NewAudit(reader_user_id, action, {}, why, self.core.now()))
        return ModLogEntry(GameInfo.of(stored.game, stored.seats), action, reader_user_id, why)

    async def _stored(self, game_id: int) -> StoredGame:
        stored = await self.game_store.stored_game(game_id)
        if stored is None:
            raise NotFound(Why.NO_SUCH_GAME, {"game_id": game_id})
        return stored

    async def export_record(
        self,
        game_id: int,
        reader_user_id: int | None = None,
        *,
        moderator: bool = False,
        reason: str = "",
        audit_after_end: bool = False,
    ) -> RecordRead:
        """The game record: for everyone once the game is over for good; before that (while it runs, or while
        a moderator's end can still be undone: it shows every hand and ticket and both decks), for moderators
        not seated in it.

        `moderator`: the reader (`reader_user_id`) is a moderator (the front
        end's question). A moderator's read of a game not over for good is
        audited; `audit_after_end`: audit a moderator's read of a finished game too.
        """
        if moderator:
            reader_user_id = check_id(reader_user_id, IdKind.MODERATOR)

        async def work() -> RecordRead:
            stored = await self._stored(game_id)
            if stored.game.seed is None:
                raise WrongState(Why.NO_RECORD)
            info = GameInfo.of(stored.game, stored.seats)
            final = await self.finality.over_for_good(info)
            audited = moderator and (not final or audit_after_end)
            if stored.game.status.active and not moderator:
                raise NotAllowed(Why.RECORD_NOT_YET)
            if not final and not moderator:
                raise NotAllowed(Why.RECORD_REOPENABLE, {"game_id": game_id, "hours": REOPEN_SECONDS // 3600})
            entry = None
            if audited:
                assert reader_user_id is not None
                entry = await self._moderator_read(stored, reader_user_id, AuditAction.EXPORT, reason, final=final)
            record = record_of(stored, await self.history_store.audit_log(game_id))
            return RecordRead(info, record, entry)

        return await self.core.locked(game_id, work)

    async def read_log(self, game_id: int, moderator_user_id: int, reason: str = "") -> LogRead:
        """The full log (`log`) for a moderator (checked by the caller) not seated in the running game; audited."""
        moderator_user_id = check_id(moderator_user_id, IdKind.MODERATOR)

        async def work() -> LogRead:
            stored = await self._stored(game_id)
            final = await self.finality.over_for_good(GameInfo.of(stored.game, stored.seats))
            entry = await self._moderator_read(stored, moderator_user_id, AuditAction.READ_LOG, reason, final=final)
            return LogRead(await self.core.info(game_id), await self._log(game_id), entry)

        return await self.core.locked(game_id, work)

    async def note_read(self, game_id: int, moderator_user_id: int, action: str, reason: str = "") -> ModLogEntry:
        """Audit a moderator reading a game (its log, its record) without changing it; the moderators' log entry."""
        moderator_user_id = check_id(moderator_user_id, IdKind.MODERATOR)
        why = reason.strip()
        entry = NewAudit(moderator_user_id, AuditAction(action), {}, why, self.core.now())
        try:
            await self.history_store.add_audit(game_id, entry)
        except UnknownGame:
            raise NotFound(Why.NO_SUCH_GAME, {"game_id": game_id}) from None
        return ModLogEntry(await self.core.game(game_id), AuditAction(action), moderator_user_id, why)

    async def audit(self, game_id: int) -> list[AuditRow]:
        """Every moderator action and timeout of the game: who, what, when, why."""
        return await self.core.locked(game_id, lambda: self.history_store.audit_log(game_id))

    async def log(self, game_id: int) -> list[LogEntry]:
        """The full log for moderators: moves with times and actors, moves taken back, moderator actions, timeouts."""
        return await self.core.locked(game_id, lambda: self._log(game_id))

    async def _log(self, game_id: int) -> list[LogEntry]:
        """The full log; the caller holds the game's lock."""
        live = await self.core.live(game_id)
        stored = await self.game_store.stored_game(game_id)
        if stored is None:
            raise NotFound(Why.NO_SUCH_GAME, {"game_id": game_id})
        info, game = live.info, live.game
        entries: list[tuple[datetime, int, int, LogEntry]] = []
        if game is not None:
            told = tell_moves(info, game, live.actors, game.initial())
            for row, move in zip(stored.moves, told, strict=True):
                player = str(row.move.get("player", "?"))
                data: dict[str, Any] = {"index": row.index}
                entry = LogEntry(
                    row.created_at, LogKind.MOVE, row.user_id, Actor(row.actor), player, move.events, row.move, data
                )
                entries.append((row.created_at, 1, row.index, entry))
        for undone in await self.history_store.undone_moves(game_id):
            player = str(undone.move.get("player", "?"))
            data = {"index": undone.index, "undo": undone.audit_id}
            entry = LogEntry(
                undone.created_at,
                LogKind.UNDONE_MOVE,
                undone.user_id,
                Actor(undone.actor),
                player,
                undone=_outline(undone.move),
                data=data,
            )
            entries.append((undone.created_at, 1, undone.index, entry))
        for done in await self.history_store.audit_log(game_id):
            action = AuditAction(done.action)
            details = {k: v for k, v in done.details.items() if k != UNDONE_MOVES}  # never the moves' secrets
            entry = LogEntry(done.created_at, action, done.moderator_user_id, data=details, reason=done.reason)
            entries.append((done.created_at, 0, done.id, entry))
        # by time; at the same moment an audit entry first (a timeout comes before the autopilot's moves)
        entries.sort(key=lambda e: (e[0], e[1], e[2]))
        return [e[3] for e in entries]


def _outline(move: Mapping[str, Any]) -> MoveOutline | None:
    """A stored move taken back, without its secrets (None if it cannot be read: nothing of it is told)."""
    try:
        return outline(move_from_json(dict(move)))
    except InvalidMoveError:
        return None
