"""The tournament desk, results: a table's game that ended is recorded once, the standings.

When a table's game ends (by the rules or by a moderator: `game_ended`, the
first of the service's end-of-game listeners) its result is recorded once: places after the game's
own tie-breaks (ratings.placings), place points shared on ties
(standings.place_points); the game is rated as a tournament game if the
tournament is rated; the round is complete with its last table and the
tournament finished with its last round. An abandoned game voids its table.
A game that ended without its table recorded (a crash in between) is recorded
by the next call that reads the tournament (`record_ended`, the desk's catch-up).
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from dataclasses import replace

from bot.service.checks import check_id
from bot.service.core import ServiceCore
from bot.service.errors import (
    IdKind,
)
from bot.service.game_end import GameEnd
from bot.service.models import GameInfo
from bot.service.names import known_name
from bot.service.ratings import RatingsService, placings
from bot.service.tournaments.models import (
    StandingLine,
    TableFinishInfo,
    TableResult,
    TournamentSettings,
)
from bot.service.tournaments.standings import Finish, place_points, standings
from bot.service.tournaments.standings import TableResult as StandingTable
from bot.service.tournaments.tour_core import (
    TourAction,
    TourCore,
    entries_of,
)
from bot.store import GameStatus
from bot.store.protocols import TournamentStore
from bot.store.tournament_rows import (
    ParticipantStatus,
    RoundStatus,
    TableFinish,
    TableRow,
    TableStatus,
    TournamentData,
    TournamentStatus,
)
from engine import Game

log = logging.getLogger(__name__)


class TourResults:
    """Record tables whose games ended, catch up after a restart, the standings."""

    def __init__(
        self, core: ServiceCore, tournament_store: TournamentStore, ratings: RatingsService, desk: TourCore
    ) -> None:
        self.core = core
        self.tournament_store = tournament_store
        self.ratings = ratings
        self.desk = desk

    # ----- results --------------------------------------------------------------------

    async def game_ended(self, end: GameEnd) -> bool:
        """A game ended: a tournament table's result is recorded, and its end is taken (a table is never rated
        as a casual game); any other game's end goes on to the next listener (ratings)."""
        info = end.info
        try:
            table = await self.tournament_store.table_of_game(info.id)
        except Exception:
            log.exception("game #%d: could not look up its tournament table; recorded at the next read", info.id)
            return True
        if table is None:
            return False
        try:
            await self._record_table(table, info, end.game)
        except Exception:
            log.exception("game #%d: could not record its tournament table now; recorded at the next read", info.id)
        return True

    async def _record_table(self, table: TableRow, info: GameInfo, game: Game | None) -> TableResult | None:
        """Record an ended game's table (once), rate it if the tournament is rated; None if the game is not over."""
        if info.status.active:
            return None
        tournament = await self.tournament_store.tournament(table.tournament_id)
        if tournament is None:
            return None
        settings = TournamentSettings.from_json(tournament.settings)
        rounds = {r.round: r for r in (await self.desk.data(tournament.id)).rounds}
        this_round = rounds.get(table.round)
        finishes: list[TableFinish] = []
        names: dict[int, str] = {}
        if info.status is GameStatus.FINISHED and game is not None:
            scores = game.score()
            places = placings(scores, game.rules.longest_bonus > 0)
            by_player = {s.player: s for s in info.seats}
            results = []
            for score, place in zip(scores, places, strict=True):
                seat = by_player[score.name]
                names[seat.user_id] = known_name(seat.display_name, seat.user_id)
                results.append(Finish(seat.user_id, place, score.total, score.completed))
            points = place_points(results)
            finishes = [TableFinish(f.player, f.place, points[f.player], f.score, f.tickets) for f in results]
        rated = False
        if finishes and settings.rated:
            rated = await self.ratings.rate(
                info, game, "tournament", ended_by_moderator=not (game is not None and game.finished)
            )
        last = this_round is not None and (
            this_round.final or (this_round.round >= settings.rounds and settings.final_table is None)
        )
        details = {
            "round": table.round,
            "table": table.table_no,
            "game_id": info.id,
            "status": info.status.value,
            "finishes": [
                {
                    "user_id": f.user_id,
                    "place": f.place,
                    "points": str(f.place_points),
                    "score": f.score,
                    "tickets": f.tickets_done,
                }
                for f in finishes
            ],
        }
        audit = self.desk.audit_entry(None, TourAction.TABLE_RESULT, details)
        recorded = await self.tournament_store.record_table_result(
            tournament.id, table.round, table.table_no, finishes, audit, last
        )
        if not recorded.recorded:
            return None
        after = await self.desk.data(tournament.id)
        return TableResult(
            tournament.id,
            table.round,
            table.table_no,
            info.id,
            tuple(
                TableFinishInfo(f.user_id, names.get(f.user_id, ""), f.place, f.place_points, f.score, f.tickets_done)
                for f in finishes
            ),
            rated,
            recorded.round_complete,
            after.tournament.status is TournamentStatus.FINISHED,
            tuple(standing_lines(after)),
        )

    async def table_result(self, game_id: int) -> TableResult | None:
        """The result of a game's table (the front asks when a game ends, to announce it and the standings): recorded
        now if the game ended and its table is not recorded yet, else as it was recorded (`recorded_result`); None
        if the game is no tournament's table or is still being played."""
        game_id = check_id(game_id, IdKind.GAME)
        table = await self.tournament_store.table_of_game(game_id)
        if table is None:
            return None
        if table.status is TableStatus.PLAYING:
            live = await self.desk.live_locked(game_id)
            result = await self._record_table(table, live.info, live.game)
            if result is not None:
                return result
            table = await self.tournament_store.table_of_game(game_id)  # recorded meanwhile, or still being played
            if table is None or table.status is TableStatus.PLAYING:
                return None
        return await self._recorded_result(table)

    async def _recorded_result(self, table: TableRow) -> TableResult | None:
        """A recorded table's result as the store keeps it. `round_complete` / `tournament_finished`: its table was
        the last of its round / of the tournament to be recorded (the tournament's audit says the order), so only
        that table's announcement says the round or the tournament is over; the standings are today's."""
        data = await self.desk.data(table.tournament_id)
        game_id = table.game_id
        if game_id is None:
            return None
        this_round = next((r for r in data.rounds if r.round == table.round), None)
        names = {p.user_id: known_name(p.display_name, p.user_id) for p in data.participants}
        finishes = tuple(
            TableFinishInfo(r.user_id, names.get(r.user_id, ""), r.place, r.place_points, r.score, r.tickets_done)
            for r in data.results
            if r.round == table.round and r.table_no == table.table_no
        )
        recorded = [
            a.details
            for a in await self.tournament_store.tournament_audit(data.tournament.id)
            if a.action == TourAction.TABLE_RESULT.value
        ]
        of_round = [d for d in recorded if d.get("round") == table.round]
        last_of_round = bool(of_round) and of_round[-1].get("game_id") == game_id
        last_of_all = bool(recorded) and recorded[-1].get("game_id") == game_id
        return TableResult(
            data.tournament.id,
            table.round,
            table.table_no,
            game_id,
            finishes,
            bool(finishes) and await self.ratings.is_rated(game_id),
            this_round is not None and this_round.status is RoundStatus.COMPLETE and last_of_round,
            data.tournament.status is TournamentStatus.FINISHED and last_of_all,
            tuple(standing_lines(data)),
        )

    async def catch_up(self, tournament_id: int) -> list[TableResult]:
        """Record every table whose game ended without its result recorded (after a restart); what was recorded."""
        return await self.record_ended(await self.desk.data(tournament_id))

    async def record_ended(self, data: TournamentData) -> list[TableResult]:
        out = []
        for row in data.tables:
            if row.status is TableStatus.PLAYING and row.game_id is not None:
                live = await self.desk.live_locked(row.game_id)
                if not live.info.status.active:
                    result = await self._record_table(row, live.info, live.game)
                    if result is not None:
                        out.append(result)
        return out

    async def standings(self, tournament_id: int) -> tuple[StandingLine, ...]:
        """The standings now: place points, then game score, tickets completed, opponents' strength
        (bot/service/tournaments/standings.py); disqualified players left out."""
        await self.catch_up(tournament_id)
        return tuple(standing_lines(await self.desk.data(tournament_id)))


def standing_lines(data: TournamentData, *, keep_all: bool = False) -> list[StandingLine]:
    """The standings of `data` (disqualified players left out unless `keep_all`), ranked again after that."""
    entry = entries_of(data)
    tables: dict[tuple[int, int], list[Finish]] = {}
    for r in data.results:
        tables.setdefault((r.round, r.table_no), []).append(Finish(entry(r.user_id), r.place, r.score, r.tickets_done))
    by_user = {p.user_id: p for p in data.participants}
    current = {entry(p.user_id) for p in data.participants if p.status is ParticipantStatus.ACTIVE}
    rows = standings([StandingTable(tuple(f)) for _, f in sorted(tables.items())], current)
    out: list[StandingLine] = []
    for row in rows:
        p = by_user.get(row.player)
        status = ParticipantStatus.ACTIVE if p is None else p.status
        if status is ParticipantStatus.DISQUALIFIED and not keep_all:
            continue
        out.append(
            StandingLine(
                row.rank,
                row.player,
                known_name("" if p is None else p.display_name, row.player),
                status,
                row.place_points,
                row.score,
                row.tickets,
                row.opponents_strength,
                row.games,
                row.wins,
            )
        )
    return _reranked(out)


def _reranked(lines: Sequence[StandingLine]) -> list[StandingLine]:
    """Ranks again after lines were left out: equal on every figure, equal rank (1, 2, 2, 4)."""
    out: list[StandingLine] = []
    for position, line in enumerate(lines, start=1):
        key = (line.place_points, line.score, line.tickets, line.opponents_strength)
        if out:
            last = out[-1]
            if (last.place_points, last.score, last.tickets, last.opponents_strength) == key:
                out.append(_with_rank(line, last.rank))
                continue
        out.append(_with_rank(line, position))
    return out


def _with_rank(line: StandingLine, rank: int) -> StandingLine:
    return replace(line, rank=rank)
