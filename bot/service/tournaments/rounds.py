"""The tournament desk, rounds: pair a round (Swiss, or the final table), open its tables (each a game opened
through the lobby calls in a channel the front opens: `OpenChannel`), re-pair a round (its old games ended, also
after a crash: deadlines.py).

A round that is paired but has tables not open yet (the bot stopped while
opening them) is opened on by the next `start_round`. Participants listed in
`settings.autopilot` and dropped ones get their seat played by the autopilot.
"""

from __future__ import annotations

import logging
import random
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import timedelta

from bot.service.checks import check_id, clean_reason
from bot.service.core import ServiceCore
from bot.service.errors import (
    IdKind,
    ServiceError,
    Why,
    WrongState,
)
from bot.service.lobby import LobbyService
from bot.service.moderation import ModerationService
from bot.service.tournaments.deadlines import REPAIR_REASON, cleanup_timer, deadline_timer
from bot.service.tournaments.models import (
    RoundStarted,
    TablePlan,
    TournamentInfo,
    TournamentSettings,
)
from bot.service.tournaments.pairing import History, PairingError, pair_round
from bot.service.tournaments.results import standing_lines
from bot.service.tournaments.tour_core import (
    BEFORE_START,
    OpenChannel,
    TourAction,
    TourCore,
    check_tournament_id,
    entries_of,
    require_status,
)
from bot.store import GameStatus, StoreError, VersionConflict
from bot.store.tournament_rows import (
    NewRound,
    ParticipantStatus,
    ParticipantWrite,
    RoundStatus,
    TableRow,
    TableStatus,
    TournamentChange,
    TournamentData,
    TournamentStatus,
)
from maps import load_board

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class _Paired:
    """A round paired and recorded (or one found paired with tables not open yet): its tables are opened next."""

    round: int
    repeats: int
    not_checked_in: tuple[int, ...] = ()
    repaired: bool = False


class TourRounds:
    """Start, open and re-pair rounds (each with its deadline's timer: deadlines.py)."""

    def __init__(self, core: ServiceCore, lobby: LobbyService, moderation: ModerationService, desk: TourCore) -> None:
        self.core = core
        self.lobby = lobby
        self.moderation = moderation
        self.desk = desk

    # ----- rounds ---------------------------------------------------------------------

    async def start_round(
        self,
        tournament_id: int,
        moderator_user_id: int,
        open_channel: OpenChannel,
        *,
        expected_version: int | None = None,
        reason: str = "",
    ) -> RoundStarted:
        """Pair the next round (or the final table after the Swiss rounds) and open its tables.

        A round that is paired but has tables not open yet (the bot stopped
        while opening them) is opened on instead: the same call finishes it.
        """
        tournament_id = check_tournament_id(tournament_id)
        moderator_user_id = check_id(moderator_user_id, IdKind.MODERATOR)
        why = clean_reason(reason)

        async def work(data: TournamentData) -> _Paired:
            t = data.tournament
            require_status(data, (*BEFORE_START, TournamentStatus.RUNNING))
            settings = TournamentSettings.from_json(t.settings)
            current = data.rounds[-1] if data.rounds else None
            if current is not None and current.status is RoundStatus.RUNNING:
                if any(_needs_opening(row) for row in data.tables if row.round == current.round):
                    return _Paired(current.round, 0)
                raise WrongState(Why.ROUND_RUNNING, {"tournament_id": t.id, "round": current.round})
            if t.status is TournamentStatus.REGISTRATION and settings.checkin:
                raise WrongState(Why.TOURNAMENT_IS, {"tournament_id": t.id, "status": t.status})
            number = len(data.rounds) + 1
            final = number > settings.rounds
            if final and (settings.final_table is None or any(r.final for r in data.rounds)):
                raise WrongState(Why.ALL_ROUNDS_PLAYED, {"tournament_id": t.id, "rounds": settings.rounds})
            writes: list[ParticipantWrite] = []
            not_checked_in: list[int] = []
            if number == 1:
                for p in data.participants:
                    if p.status is ParticipantStatus.CHECKED_IN or (
                        p.status is ParticipantStatus.REGISTERED and not settings.checkin
                    ):
                        writes.append(ParticipantWrite(p.user_id, p.display_name, ParticipantStatus.ACTIVE))
                    elif p.status is ParticipantStatus.REGISTERED:
                        writes.append(ParticipantWrite(p.user_id, p.display_name, ParticipantStatus.DROPPED))
                        not_checked_in.append(p.user_id)
                active = [w.user_id for w in writes if w.status is ParticipantStatus.ACTIVE]
            else:
                active = [p.user_id for p in data.participants if p.status is ParticipantStatus.ACTIVE]
            seed = f"{t.id}-{number}-1-{self.core.rng.getrandbits(48):012x}"
            order = self._ranked(data, active, seed)
            if final:
                assert settings.final_table is not None
                order = order[: settings.final_table]
            map_name = settings.map_of(number)
            tables, repeats = self._pair(data, order, settings, map_name, seed, final)
            now = self.core.now()
            deadline = (
                None
                if settings.round_deadline_minutes is None
                else now + timedelta(minutes=settings.round_deadline_minutes)
            )
            new_round = NewRound(number, 1, seed, final, map_name, now, deadline, tables)
            details = {
                "round": number,
                "attempt": 1,
                "final": final,
                "map": map_name,
                "seed": seed,
                "tables": [list(x) for x in tables],
                "repeats": repeats,
                "not_checked_in": not_checked_in,
            }
            audit = self.desk.audit_entry(moderator_user_id, TourAction.START_ROUND, details, why)
            timers = [] if deadline is None else [deadline_timer(t.id, number, 1, deadline)]
            change = TournamentChange(
                status=TournamentStatus.RUNNING,
                registration_open=False,
                participants=writes,
                round=new_round,
                audit=[audit],
                timers=timers,
            )
            await self.desk.change(data, change)
            self.core.timers_written(timers)
            return _Paired(number, repeats, tuple(not_checked_in))

        async with self.desk.round_lock(tournament_id):
            paired: _Paired = await self.desk.locked_tour(tournament_id, expected_version, work)
            return await self._open_round(tournament_id, paired, open_channel, moderator_user_id)

    def _ranked(self, data: TournamentData, active: Sequence[int], seed: str) -> list[int]:
        """The active players, best standing first (before any game: in an order drawn from `seed`)."""
        if not data.results:
            order = sorted(active)
            random.Random(f"conductor-round-order:{seed}").shuffle(order)
            return order
        rank = {line.user_id: i for i, line in enumerate(standing_lines(data, keep_all=True))}
        return sorted(active, key=lambda u: (rank.get(u, len(rank)), u))

    def _pair(
        self,
        data: TournamentData,
        order: Sequence[int],
        settings: TournamentSettings,
        map_name: str,
        seed: str,
        final: bool,
    ) -> tuple[tuple[tuple[int, ...], ...], int]:
        rules = load_board(map_name).rules
        size = len(order) if final else settings.size
        try:
            pairing = pair_round(
                order,
                self._history(data),
                table_size=max(rules.min_players, min(size, rules.max_players)),
                min_players=rules.min_players,
                max_players=rules.max_players,
                seed=seed,
            )
        except PairingError as exc:
            facts = {
                "tournament_id": data.tournament.id,
                "players": len(order),
                "low": rules.min_players,
                "table_size": size,
            }
            raise WrongState(Why.TOO_FEW_PLAYERS, facts) from exc
        return pairing.tables, pairing.repeats

    def _history(self, data: TournamentData) -> History:
        """Who met whom and who sat first, over the tables paired so far (substitutes take over their players')."""
        entry = entries_of(data)
        rounds: dict[int, list[tuple[int, ...]]] = {}
        for row in data.tables:
            if row.status is not TableStatus.VOID:
                rounds.setdefault(row.round, []).append(tuple(entry(u) for u in row.seats))
        return History.from_rounds(rounds[r] for r in sorted(rounds))

    async def _open_round(
        self, tournament_id: int, paired: _Paired, open_channel: OpenChannel, moderator_user_id: int
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
        elif not await self.core.store.set_table_channel(tid, r.round, table.table_no, channel_id):
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
            if not await self.core.store.set_table_game(tid, r.round, table.table_no, game_id):
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

    async def repair_round(
        self,
        tournament_id: int,
        moderator_user_id: int,
        open_channel: OpenChannel,
        *,
        expected_version: int | None = None,
        reason: str = "",
    ) -> RoundStarted:
        """Pair the running round again, before any of its games has a move by a member; its games are cancelled."""
        tournament_id = check_tournament_id(tournament_id)
        moderator_user_id = check_id(moderator_user_id, IdKind.MODERATOR)
        why = clean_reason(reason)

        async def work(data: TournamentData) -> _Paired:
            t = data.tournament
            require_status(data, (TournamentStatus.RUNNING,))
            current = data.rounds[-1] if data.rounds else None
            if current is None or current.status is not RoundStatus.RUNNING:
                raise WrongState(Why.NO_ROUND_RUNNING, {"tournament_id": t.id})
            tables = [row for row in data.tables if row.round == current.round]
            for row in tables:
                if row.status in (TableStatus.DONE, TableStatus.VOID):
                    raise WrongState(
                        Why.ROUND_HAS_MOVES, {"tournament_id": t.id, "round": current.round, "game_id": row.game_id}
                    )
                if row.game_id is not None and await self._member_moved(row.game_id):
                    raise WrongState(
                        Why.ROUND_HAS_MOVES, {"tournament_id": t.id, "round": current.round, "game_id": row.game_id}
                    )
            settings = TournamentSettings.from_json(t.settings)
            attempt = current.attempt + 1
            seed = f"{t.id}-{current.round}-{attempt}-{self.core.rng.getrandbits(48):012x}"
            players = [u for row in tables for u in row.seats]
            active = {p.user_id for p in data.participants if p.status is ParticipantStatus.ACTIVE}
            players = [u for u in players if u in active]
            # the standing order as it was when the round was paired
            order = self._ranked(_without_round(data, current.round), players, seed)
            paired, repeats = self._pair(
                _without_round(data, current.round), order, settings, current.map, seed, current.final
            )
            now = self.core.now()
            deadline = (
                None
                if settings.round_deadline_minutes is None
                else now + timedelta(minutes=settings.round_deadline_minutes)
            )
            new_round = NewRound(current.round, attempt, seed, current.final, current.map, now, deadline, paired)
            cancelled = [row.game_id for row in tables if row.game_id is not None]
            details = {
                "round": current.round,
                "attempt": attempt,
                "seed": seed,
                "tables": [list(x) for x in paired],
                "repeats": repeats,
                "cancelled_games": cancelled,
            }
            audit = self.desk.audit_entry(moderator_user_id, TourAction.REPAIR, details, why)
            # the old games are cancelled below; if the bot stops first, this timer cancels them at its next start
            reason = why or REPAIR_REASON
            timers = [cleanup_timer(t.id, cancelled, moderator_user_id, reason, now)] if cancelled else []
            if deadline is not None:
                timers.append(deadline_timer(t.id, current.round, attempt, deadline))
            try:
                await self.desk.change(data, TournamentChange(round=new_round, audit=[audit], timers=timers))
            except StoreError as exc:
                if isinstance(exc, VersionConflict):
                    raise
                raise WrongState(
                    Why.ROUND_HAS_MOVES, {"tournament_id": t.id, "round": current.round, "game_id": None}
                ) from exc
            self.core.timers_written(timers)
            for game_id in cancelled:
                try:
                    await self.lobby.cancel(game_id, moderator_user_id, moderator=True, reason=reason)
                except ServiceError:
                    log.warning("tournament #%d: game #%d of a re-paired round was over already", t.id, game_id)
            return _Paired(current.round, repeats, repaired=True)

        async with self.desk.round_lock(tournament_id):
            paired: _Paired = await self.desk.locked_tour(tournament_id, expected_version, work)
            return await self._open_round(tournament_id, paired, open_channel, moderator_user_id)

    async def _member_moved(self, game_id: int) -> bool:
        """Has a member's seat (not an autopilot player's) made a move in the game?"""
        live = await self.desk.live_locked(game_id)
        if live.game is None:
            return False
        return any(not live.info.seats[live.game.seat(m.player)].bot for m in live.game.moves)


# ----- helpers --------------------------------------------------------------------------


def _needs_opening(row: TableRow) -> bool:
    return row.status is TableStatus.PENDING or (row.status is TableStatus.PLAYING and row.game_id is None)


def _without_round(data: TournamentData, round_no: int) -> TournamentData:
    return TournamentData(
        data.tournament,
        data.participants,
        tuple(r for r in data.rounds if r.round != round_no),
        tuple(x for x in data.tables if x.round != round_no),
        tuple(x for x in data.results if x.round != round_no),
    )
