"""Whether a game that ended is over for good, and so may show its secrets.

The rule: before a game's real, final end, nobody but a seat's holder sees
that seat's cards and tickets, and nobody sees the seed or the order of a
deck (a moderator who is not seated in the game excepted, as while it runs:
every such read is audited). An ended game is over for good once it can no
longer be reopened:

- it ended by the rules (its last move, or the autopilot playing it out);
- a moderator ended it scored as it stood: the final scores show every
  player's tickets, so that end is final at once;
- a tournament recorded its table (an adjudication, or a moderator's end in
  the table's thread): the standings count it, so it never resumes;
- a moderator abandoned it, and it is more than REOPEN_SECONDS ago or a newer
  game was opened in its channel.

Until then (a game a moderator abandoned, for a while) its record, and with
it the seed and both decks, is nobody's but an unseated moderator's.
`reopen` asks the same question, so that a game whose secrets were shown
never runs again.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import timedelta

from bot.service.checks import check_id
from bot.service.core import ServiceCore
from bot.service.errors import IdKind, Why, WrongState
from bot.service.kinds import AuditAction
from bot.service.models import GameInfo
from bot.store import AuditRow
from bot.store.protocols import GameStore, HistoryStore, TournamentStore
from bot.store.tournament_rows import TableStatus

REOPEN_SECONDS = 24 * 3600  # how long after a moderator's end the game can be reopened


def last_end(entries: list[AuditRow]) -> AuditRow | None:
    """The moderator's end the game is in, if its latest end or reopening is an end."""
    for entry in reversed(entries):
        if entry.action == AuditAction.REOPEN:
            return None
        if entry.action == AuditAction.END:
            return entry
    return None


@dataclass(frozen=True)
class Reopenable:
    """A game a moderator ended that can run again: the end, and how long ago it was."""

    ended: AuditRow
    over_for: timedelta


class Finality:
    def __init__(
        self, core: ServiceCore, game_store: GameStore, history_store: HistoryStore, tournament_store: TournamentStore
    ) -> None:
        self.core = core
        self.game_store = game_store
        self.history_store = history_store
        self.tournament_store = tournament_store

    async def reopenable(self, info: GameInfo) -> Reopenable:
        """The end a game could be reopened from now; WrongState saying why it cannot be."""
        game_id = info.id
        ended = None if info.status.active else last_end(await self.history_store.audit_log(game_id))
        if ended is None:
            raise WrongState(Why.NOT_ENDED_BY_MODERATOR, {"game_id": game_id})
        if ended.details.get("score") is True:
            raise WrongState(Why.REOPEN_SCORED, {"game_id": game_id})
        table = await self.tournament_store.table_of_game(game_id)
        if table is not None and table.status in (TableStatus.DONE, TableStatus.VOID):
            raise WrongState(Why.REOPEN_TOURNAMENT, {"game_id": game_id})
        over_for = max(self.core.now() - ended.created_at, timedelta(0))
        if over_for > timedelta(seconds=REOPEN_SECONDS):
            raise WrongState(Why.REOPEN_TOO_LATE, {"game_id": game_id, "hours": REOPEN_SECONDS // 3600})
        latest = await self.game_store.latest_game(info.channel_id)
        if latest is not None and latest.id != game_id:
            raise WrongState(Why.NEWER_GAME, {"game_id": game_id, "newer": latest.id})
        return Reopenable(ended, over_for)

    async def over_for_good(self, info: GameInfo) -> bool:
        """The game ended and can never run again: its secrets may be shown."""
        if info.status.active:
            return False
        try:
            await self.reopenable(info)
        except WrongState:
            return True
        return False

    async def counted_when_ended(self, game_id: int) -> bool:
        """The game is a tournament's table being played: whatever ends it, the tournament counts that end, so it
        is final (for the moderator's question before an end)."""
        table = await self.tournament_store.table_of_game(check_id(game_id, IdKind.GAME))
        return table is not None and table.status is TableStatus.PLAYING
