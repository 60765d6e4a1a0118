"""A round's tables opened: each table's thread by the front (`OpenChannel`), then its game through the lobby calls
(create, join, start in the drawn seat order), the autopilot seated for those who must have it.

A round that is paired but has tables not open yet (the bot stopped while
opening them) is opened on by the next `start_round` (rounds.py).
"""

from __future__ import annotations

from dataclasses import dataclass

from bot.service.checks import check_id
from bot.service.core import ServiceCore
from bot.service.errors import IdKind
from bot.service.lobby import LobbyService
from bot.service.moderation import ModerationService
from bot.service.tournaments.models import RoundStarted, TablePlan, TournamentInfo
from bot.service.tournaments.tour_core import OpenChannel, TourCore
from bot.store import GameStatus
from bot.store.protocols import TournamentStore
from bot.store.tournament_rows import ParticipantStatus, TableRow, TableStatus, TournamentData


@dataclass(frozen=True)
class Paired:
    """A round paired and recorded (or one found paired with tables not open yet): its tables are opened next."""

    round: int
    repeats: int
    not_checked_in: tuple[int, ...] = ()
    repaired: bool = False


class TableOpener:
    """Open a round's tables not open yet."""

    def __init__(
        self,
        core: ServiceCore,
        tournament_store: TournamentStore,
        lobby: LobbyService,
        moderation: ModerationService,
        desk: TourCore,
    ) -> None:
        self.core = core
        self.tournament_store = tournament_store
        self.lobby = lobby
        self.moderation = moderation
        self.desk = desk

    async def open_round(
        self, tournament_id: int, paired: Paired, open_channel: OpenChannel, moderator_user_id: int
    ) -> RoundStarted:
        """Open the round's tables not open yet: each table's thread by the front (`open_channel`), outside the
        tournament's lock (a Discord failure leaves the round paired, and the next `start_round` opens on), then
        its game under the lock."""
        info = self.desk.info_of(await self.desk.data(tournament_id))
        r = next(x for x in info.rounds if x.round == paired.round)
        for table in r.tables:
            if table.status not in (TableStatus.PENDING, TableStatus.PLAYING):
                continue
            channel_id = table.channel_id
            if channel_id is None:
                plan = TablePlan(
                    info.id,
                    info.name,
                    info.channel_id,
                    r.round,
                    table.table_no,
                    r.final,
                    r.map,
                    table.seats,
                    table.names,
                )
                channel_id = check_id(await open_channel(plan), IdKind.CHANNEL)

            async def seat(data: TournamentData, table_no: int = table.table_no, channel_id: int = channel_id) -> None:
                await self._open_table(self.desk.info_of(data), paired.round, table_no, channel_id, moderator_user_id)

            await self.desk.locked_tour(tournament_id, None, seat)

        async def caught_up(data: TournamentData) -> TournamentData:
            return data  # the games that ended meanwhile recorded

        after = self.desk.info_of(await self.desk.locked_tour(tournament_id, None, caught_up))
        started = next(x for x in after.rounds if x.round == paired.round)
        return RoundStarted(after, started, paired.repeats, paired.not_checked_in, repaired=paired.repaired)

    async def _open_table(
        self, info: TournamentInfo, round_no: int, table_no: int, channel_id: int, moderator_user_id: int
    ) -> None:
        """Open the table's game in its thread (`channel_id`, unless another process gave it one meanwhile), seat
        its players in the drawn order and start it (each step once)."""
        tid = info.id
        r = next(x for x in info.rounds if x.round == round_no)
        table = next(x for x in r.tables if x.table_no == table_no)
        if table.status not in (TableStatus.PENDING, TableStatus.PLAYING):
            return
        if table.channel_id is not None:
            channel_id = table.channel_id
        elif not await self.tournament_store.set_table_channel(tid, r.round, table.table_no, channel_id):
            return  # another process opened it meanwhile
        game_id = table.game_id
        host, host_name = table.seats[0], table.names[0]
        if game_id is None:
            created = await self.lobby.create_game(
                info.guild_id,
                channel_id,
                host,
                host_name,
                r.map,
                max_players=len(table.seats),
                trains=info.settings.trains,
                clock=info.settings.clock,
                check_limits=False,
                holder_names=True,
            )
            game_id = created.game.id
            if not await self.tournament_store.set_table_game(tid, r.round, table.table_no, game_id):
                await self.lobby.cancel(game_id, host)
                return
        game = await self.core.game(game_id)
        if game.status is GameStatus.LOBBY:
            for user, name in zip(table.seats, table.names, strict=True):
                if game.seat_of(user) is None:
                    game = (await self.lobby.join(game_id, user, name)).game
            game = (await self.lobby.start(game_id, host, seat_order=table.seats)).game
        if not game.status.active:
            return
        autopilot = set(info.settings.autopilot) | {
            p.user_id
            for p in info.participants
            if p.status in (ParticipantStatus.DROPPED, ParticipantStatus.DISQUALIFIED)
        }
        for seat in game.seats:
            if seat.user_id in autopilot and not seat.autopilot and seat.seat is not None:
                current = await self.core.game(game_id)
                if not current.status.active:
                    return
                await self.moderation.set_autopilot(
                    game_id, seat.seat, True, moderator_user_id=moderator_user_id, reason="tournament autopilot"
                )


def needs_opening(row: TableRow) -> bool:
    return row.status is TableStatus.PENDING or (row.status is TableStatus.PLAYING and row.game_id is None)
