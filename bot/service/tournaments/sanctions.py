"""The tournament desk, sanctions: substitute, drop, disqualify, reinstate, adjudicate a table.

Substitutes take over the seat (as `/ttrmod replace`) and the standing of the
player they replace (results, meetings and first seats); a dropped or
disqualified player's running seat goes to the autopilot.
"""

from __future__ import annotations

from bot.service.checks import check_flag, check_id, check_name, clean_reason
from bot.service.core import ServiceCore
from bot.service.errors import (
    IdKind,
    NotAPlayer,
    NotFound,
    Why,
    WrongState,
)
from bot.service.moderation import ModerationService
from bot.service.tournaments.models import (
    TournamentAction,
    TournamentSettings,
)
from bot.service.tournaments.tour_core import (
    BEFORE_START,
    REGISTERED,
    SANCTIONED,
    TourAction,
    TourCore,
    participant_row,
    promotions,
    require_status,
)
from bot.store.tournament_rows import (
    ParticipantRow,
    ParticipantStatus,
    ParticipantWrite,
    TableStatus,
    TournamentChange,
    TournamentData,
    TournamentStatus,
)


class TourSanctions:
    """Substitute, drop, disqualify, adjudicate."""

    def __init__(self, core: ServiceCore, moderation: ModerationService, desk: TourCore) -> None:
        self.core = core
        self.moderation = moderation
        self.desk = desk

    async def substitute(
        self,
        tournament_id: int,
        moderator_user_id: int,
        user_id: int,
        new_user_id: int,
        new_display_name: str,
        reason: str = "",
        *,
        expected_version: int | None = None,
    ) -> TournamentAction:
        """A new member takes a playing participant's place: their seat in a running game (as `/ttrmod replace`)
        and their standing; the participant is out (dropped)."""
        moderator_user_id = check_id(moderator_user_id, IdKind.MODERATOR)
        user_id = check_id(user_id, IdKind.USER)
        new_user_id = check_id(new_user_id, IdKind.NEW_PLAYER)
        new_name = check_name(new_display_name)
        why = clean_reason(reason)

        async def work(data: TournamentData) -> TournamentAction:
            t = data.tournament
            require_status(data, (TournamentStatus.RUNNING,))
            old = _active(data, user_id)
            if participant_row(data, new_user_id) is not None:
                raise WrongState(Why.ALREADY_IN_TOURNAMENT, {"tournament_id": t.id, "user_id": new_user_id})
            running = await self._running_seat(data, user_id)
            writes = [
                ParticipantWrite(user_id, old.display_name, ParticipantStatus.DROPPED),
                ParticipantWrite(new_user_id, new_name, ParticipantStatus.ACTIVE, substitute_for=user_id),
            ]
            details = {
                "user_id": user_id,
                "name": old.display_name,
                "new_user_id": new_user_id,
                "new_name": new_name,
                "game_id": None if running is None else running[0],
            }
            audit = self.desk.audit_entry(moderator_user_id, TourAction.SUBSTITUTE, details, why)
            await self.desk.change(data, TournamentChange(participants=writes, audit=[audit]))
            results = []
            if running is not None:
                results.append(
                    await self.moderation.replace(
                        running[0], moderator_user_id, running[1], new_user_id, new_name, why or "tournament substitute"
                    )
                )
            return await self.desk.action(
                t.id,
                TourAction.SUBSTITUTE,
                new_user_id,
                game_id=None if running is None else running[0],
                results=tuple(results),
            )

        result: TournamentAction = await self.desk.locked_tour(tournament_id, expected_version, work)
        return result

    async def drop(
        self,
        tournament_id: int,
        moderator_user_id: int,
        user_id: int,
        reason: str = "",
        *,
        disqualify: bool = False,
        expected_version: int | None = None,
    ) -> TournamentAction:
        """Take a participant out of later rounds (`disqualify`: out of the standings too); their seat in a running
        game goes to the autopilot. Before round 1 the place it frees goes to the first on the waiting list. The
        sanction stays until a moderator lifts it (`reinstate`)."""
        moderator_user_id = check_id(moderator_user_id, IdKind.MODERATOR)
        user_id = check_id(user_id, IdKind.USER)
        check_flag(disqualify, "disqualify")
        why = clean_reason(reason)
        action = TourAction.DISQUALIFY if disqualify else TourAction.DROP
        status = ParticipantStatus.DISQUALIFIED if disqualify else ParticipantStatus.DROPPED

        async def work(data: TournamentData) -> TournamentAction:
            t = data.tournament
            require_status(data, (*BEFORE_START, TournamentStatus.RUNNING))
            found = participant_row(data, user_id)
            if found is None:
                raise NotAPlayer(Why.NOT_REGISTERED, {"tournament_id": t.id, "user_id": user_id})
            allowed = (
                (ParticipantStatus.ACTIVE,)
                if t.status is TournamentStatus.RUNNING
                else (
                    *REGISTERED,
                    ParticipantStatus.WAITLISTED,
                )
            )
            # a player out already is not sanctioned again: of a drop and a disqualification sent at the same
            # moment, the second finds the first done and is refused; to turn a drop into a disqualification, a
            # moderator lifts it first (`reinstate`)
            if found.status not in allowed:
                facts = {"tournament_id": t.id, "user_id": user_id, "status": found.status, "action": action.value}
                raise WrongState(Why.NOT_ACTIVE, facts)
            running = await self._running_seat(data, user_id)
            details = {
                "user_id": user_id,
                "name": found.display_name,
                "game_id": None if running is None else running[0],
            }
            writes = [ParticipantWrite(user_id, found.display_name, status)]
            promoted = None
            if t.status in BEFORE_START:  # the place it frees goes to the first on the waiting list
                moved_up = promotions(data, leaving=[user_id])
                writes += moved_up
                promoted = moved_up[0].user_id if moved_up else None
                details["promoted"] = promoted
            audit = self.desk.audit_entry(moderator_user_id, action, details, why)
            await self.desk.change(data, TournamentChange(participants=writes, audit=[audit]))
            results = []
            if running is not None:
                game_id, seat = running
                info = await self.core.game(game_id)
                if info.status.active and not info.seats[seat].autopilot:
                    results.append(
                        await self.moderation.set_autopilot(
                            game_id, seat, True, moderator_user_id=moderator_user_id, reason=why or action.value
                        )
                    )
            return await self.desk.action(
                t.id,
                action,
                user_id,
                promoted=promoted,
                game_id=None if running is None else running[0],
                results=tuple(results),
            )

        result: TournamentAction = await self.desk.locked_tour(tournament_id, expected_version, work)
        return result

    async def disqualify(
        self, tournament_id: int, moderator_user_id: int, user_id: int, reason: str = ""
    ) -> TournamentAction:
        return await self.drop(tournament_id, moderator_user_id, user_id, reason, disqualify=True)

    async def reinstate(
        self,
        tournament_id: int,
        moderator_user_id: int,
        user_id: int,
        reason: str = "",
        *,
        expected_version: int | None = None,
    ) -> TournamentAction:
        """Lift a drop or a disqualification. Before round 1 the player is registered again (on the waiting list
        if the tournament is full); once it runs, they play the rounds paired after this (a seat of theirs that
        the autopilot plays goes on so: `/ttrmod autopilot` gives it back). A player whose place went to a
        substitute cannot come back."""
        moderator_user_id = check_id(moderator_user_id, IdKind.MODERATOR)
        user_id = check_id(user_id, IdKind.USER)
        why = clean_reason(reason)

        async def work(data: TournamentData) -> TournamentAction:
            t = data.tournament
            require_status(data, (*BEFORE_START, TournamentStatus.RUNNING))
            found = participant_row(data, user_id)
            if found is None:
                raise NotAPlayer(Why.NOT_REGISTERED, {"tournament_id": t.id, "user_id": user_id})
            if found.status not in SANCTIONED:
                raise WrongState(
                    Why.NOT_SANCTIONED, {"tournament_id": t.id, "user_id": user_id, "status": found.status}
                )
            if any(p.substitute_for == user_id for p in data.participants):
                raise WrongState(Why.SUBSTITUTED, {"tournament_id": t.id, "user_id": user_id})
            if t.status is TournamentStatus.RUNNING:
                status = ParticipantStatus.ACTIVE
            else:
                # a place if one is free and nobody waits for it; else the waiting list
                status = ParticipantStatus.WAITLISTED if _full(data) else ParticipantStatus.REGISTERED
            details = {
                "user_id": user_id,
                "name": found.display_name,
                "was": found.status.value,
                "status": status.value,
            }
            audit = self.desk.audit_entry(moderator_user_id, TourAction.REINSTATE, details, why)
            write = ParticipantWrite(user_id, found.display_name, status)
            await self.desk.change(data, TournamentChange(participants=[write], audit=[audit]))
            return await self.desk.action(t.id, TourAction.REINSTATE, user_id)

        result: TournamentAction = await self.desk.locked_tour(tournament_id, expected_version, work)
        return result

    async def _running_seat(self, data: TournamentData, user_id: int) -> tuple[int, int] | None:
        """The running game of the current round where `user_id` holds a seat, and the seat."""
        for row in data.tables:
            if row.status is TableStatus.PLAYING and row.game_id is not None:
                info = await self.core.game(row.game_id)
                seat = info.seat_of(user_id)
                if info.status.active and seat is not None and seat.seat is not None:
                    return row.game_id, seat.seat
        return None

    async def adjudicate(
        self,
        tournament_id: int,
        moderator_user_id: int,
        round_no: int,
        table_no: int,
        *,
        score: bool,
        reason: str = "",
    ) -> TournamentAction:
        """Settle a stuck or overdue table: `score` True ends its game scored as it stands; False hands every seat
        to the autopilot, which plays it out. The table's result is recorded when its game ends."""
        moderator_user_id = check_id(moderator_user_id, IdKind.MODERATOR)
        check_flag(score, "score")
        why = clean_reason(reason)

        async def work(data: TournamentData) -> TournamentAction:
            t = data.tournament
            row = next((x for x in data.tables if x.round == round_no and x.table_no == table_no), None)
            if row is None:
                raise NotFound(Why.NO_SUCH_TABLE, {"tournament_id": t.id, "round": round_no, "table": table_no})
            if row.status is not TableStatus.PLAYING or row.game_id is None:
                raise WrongState(
                    Why.TABLE_OVER, {"tournament_id": t.id, "round": round_no, "table": table_no, "status": row.status}
                )
            game_id = row.game_id
            details = {"round": round_no, "table": table_no, "game_id": game_id, "score": score}
            audit = self.desk.audit_entry(moderator_user_id, TourAction.ADJUDICATE, details, why)
            await self.desk.change(data, TournamentChange(audit=[audit]))
            results = []
            if score:
                results.append(
                    await self.moderation.end(game_id, moderator_user_id, True, why or "tournament adjudication")
                )
            else:
                info = await self.core.game(game_id)
                for seat in info.seats:
                    current = await self.core.game(game_id)
                    if not current.status.active:
                        break
                    if seat.seat is not None and not current.seats[seat.seat].autopilot:
                        results.append(
                            await self.moderation.set_autopilot(
                                game_id,
                                seat.seat,
                                True,
                                moderator_user_id=moderator_user_id,
                                reason=why or "tournament adjudication",
                            )
                        )
            return await self.desk.action(t.id, TourAction.ADJUDICATE, None, game_id=game_id, results=tuple(results))

        result: TournamentAction = await self.desk.locked_tour(tournament_id, None, work)
        return result


def _active(data: TournamentData, user_id: int) -> ParticipantRow:
    found = participant_row(data, user_id)
    if found is None:
        raise NotAPlayer(Why.NOT_REGISTERED, {"tournament_id": data.tournament.id, "user_id": user_id})
    if found.status is not ParticipantStatus.ACTIVE:
        raise WrongState(
            Why.NOT_ACTIVE, {"tournament_id": data.tournament.id, "user_id": user_id, "status": found.status}
        )
    return found


def _full(data: TournamentData) -> bool:
    """Has the tournament as many registered players as its cap allows, or players waiting for a place?"""
    cap = TournamentSettings.from_json(data.tournament.settings).cap
    registered = sum(1 for p in data.participants if p.status in REGISTERED)
    waiting = any(p.status is ParticipantStatus.WAITLISTED for p in data.participants)
    return waiting or (cap is not None and registered >= cap)
