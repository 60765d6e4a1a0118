"""The audit trail: moderators reading a game, the audit entries, and the full log moderators read.

The log puts together the moves (with who made them and when), the moves a
moderator took back, and the audit entries (moderator actions, timeouts).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from bot.service.checks import check_id
from bot.service.errors import IdKind, NotFound, Why
from bot.service.events import PublicEvent
from bot.service.history import tell_moves
from bot.service.kinds import Actor, AuditAction, LogKind
from bot.service.results import ModLogEntry
from bot.service.runner import Runner
from bot.store import AuditRow, NewAudit, UnknownGame


@dataclass(frozen=True)
class LogEntry:
    """One line of a game's full log: a move, a move taken back, a moderator action or a timeout."""

    at: datetime
    kind: LogKind | AuditAction
    user_id: int | None  # the member who moved, or the moderator (None: the autopilot, or the clock)
    actor: Actor | None = None  # who made a move; None for an audit entry
    player: str | None = None  # the seat that moved
    events: tuple[PublicEvent, ...] = ()  # a move's public events
    move: Mapping[str, Any] = field(default_factory=dict)  # a move (also one taken back) in its record form
    data: Mapping[str, Any] = field(default_factory=dict)  # a move's index; an audit entry's details
    reason: str = ""  # an audit entry's reason


class AuditService(Runner):
    async def note_read(self, game_id: int, moderator_user_id: int, action: str, reason: str = "") -> ModLogEntry:
        """Audit a moderator reading a game (its log, its record) without changing it; the moderators' log entry."""
        moderator_user_id = check_id(moderator_user_id, IdKind.MODERATOR)
        why = reason.strip()
        entry = NewAudit(moderator_user_id, AuditAction(action), {}, why, self.now())
        try:
            await self.store.add_audit(game_id, entry)
        except UnknownGame:
            raise NotFound(Why.NO_SUCH_GAME, {"game_id": game_id}) from None
        return ModLogEntry(await self.game(game_id), AuditAction(action), moderator_user_id, why)

    async def audit(self, game_id: int) -> list[AuditRow]:
        """Every moderator action and timeout of the game: who, what, when, why."""
        return await self._locked(game_id, lambda: self.store.audit_log(game_id))

    async def log(self, game_id: int) -> list[LogEntry]:
        """The full log for moderators: moves with times and actors, moves taken back, moderator actions, timeouts."""

        async def work() -> list[LogEntry]:
            live = await self._live(game_id)
            stored = await self.store.stored_game(game_id)
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
            for undone in await self.store.undone_moves(game_id):
                player = str(undone.move.get("player", "?"))
                data = {"index": undone.index, "undo": undone.audit_id}
                entry = LogEntry(
                    undone.created_at,
                    LogKind.UNDONE_MOVE,
                    undone.user_id,
                    Actor(undone.actor),
                    player,
                    move=undone.move,
                    data=data,
                )
                entries.append((undone.created_at, 1, undone.index, entry))
            for done in await self.store.audit_log(game_id):
                action = AuditAction(done.action)
                entry = LogEntry(done.created_at, action, done.moderator_user_id, data=done.details, reason=done.reason)
                entries.append((done.created_at, 0, done.id, entry))
            # by time; at the same moment an audit entry first (a timeout comes before the autopilot's moves)
            entries.sort(key=lambda e: (e[0], e[1], e[2]))
            return [e[3] for e in entries]

        return await self._locked(game_id, work)
