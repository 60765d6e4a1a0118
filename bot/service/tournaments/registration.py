"""The tournament desk, registration: create and configure, registration with a cap and a waiting list,
join and leave, check-in, cancel."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from bot.service.checks import check_flag, check_id, check_name, clean_reason
from bot.service.core import ServiceCore
from bot.service.errors import (
    IdKind,
    InvalidInput,
    NotAPlayer,
    Why,
    WrongState,
)
from bot.service.tournaments.models import (
    MAX_NAME,
    TournamentAction,
    TournamentInfo,
    TournamentSettings,
)
from bot.service.tournaments.tour_core import (
    BEFORE_START,
    REGISTERED,
    TourAction,
    TourCore,
    participant_row,
    promotions,
    refuse_sanctioned,
    require_status,
)
from bot.store.protocols import TournamentStore
from bot.store.tournament_rows import (
    NewTournament,
    ParticipantStatus,
    ParticipantWrite,
    TournamentChange,
    TournamentData,
    TournamentStatus,
)


class TourRegistration:
    """Create, configure, open and close registration, join, leave, check in, cancel."""

    def __init__(self, core: ServiceCore, tournament_store: TournamentStore, desk: TourCore) -> None:
        self.core = core
        self.tournament_store = tournament_store
        self.desk = desk

    # ----- create and configure -------------------------------------------------------

    async def create_tournament(
        self,
        guild_id: int,
        channel_id: int,
        moderator_user_id: int,
        name: str,
        settings: TournamentSettings,
        reason: str = "",
    ) -> TournamentInfo:
        """A new tournament in the channel, in registration (closed until `open_registration`)."""
        guild_id = check_id(guild_id, IdKind.SERVER)
        channel_id = check_id(channel_id, IdKind.CHANNEL)
        moderator_user_id = check_id(moderator_user_id, IdKind.MODERATOR)
        title = _tournament_name(name)
        why = clean_reason(reason)
        if not isinstance(settings, TournamentSettings):
            raise InvalidInput(Why.BAD_MAP_LIST, {"rounds": None, "value": type(settings).__name__})
        audit = self.desk.audit_entry(
            moderator_user_id, TourAction.CREATE, {"name": title, "settings": settings.to_json()}, why
        )
        row = await self.tournament_store.create_tournament(
            NewTournament(guild_id, channel_id, title, moderator_user_id, settings.to_json(), audit)
        )
        return self.desk.info_of(await self.desk.data(row.id))

    async def configure_tournament(
        self,
        tournament_id: int,
        moderator_user_id: int,
        settings: TournamentSettings,
        *,
        name: str | None = None,
        expected_version: int | None = None,
        reason: str = "",
    ) -> TournamentInfo:
        """Change the settings (and name) before round 1."""
        moderator_user_id = check_id(moderator_user_id, IdKind.MODERATOR)
        why = clean_reason(reason)
        title = None if name is None else _tournament_name(name)
        if not isinstance(settings, TournamentSettings):
            raise InvalidInput(Why.BAD_MAP_LIST, {"rounds": None, "value": type(settings).__name__})

        async def work(data: TournamentData) -> TournamentInfo:
            require_status(data, BEFORE_START)
            details: dict[str, Any] = {"settings": settings.to_json()}
            if title is not None:
                details["name"] = title
            # a higher cap (or none) gives the waiting players the places it frees, in join order
            after = replace(data, tournament=replace(data.tournament, settings=settings.to_json()))
            writes = promotions(after)
            if writes:
                details["promoted"] = [w.user_id for w in writes]
            audit = self.desk.audit_entry(moderator_user_id, TourAction.CONFIGURE, details, why)
            change = TournamentChange(settings=settings.to_json(), name=title, participants=writes, audit=[audit])
            await self.desk.change(data, change)
            return self.desk.info_of(await self.desk.data(data.tournament.id))

        result: TournamentInfo = await self.desk.locked_tour(tournament_id, expected_version, work)
        return result

    # ----- registration and check-in ------------------------------------------------

    async def set_registration(
        self, tournament_id: int, moderator_user_id: int, open_: bool, reason: str = ""
    ) -> TournamentInfo:
        """Open (`open_` True) or close registration, before round 1."""
        moderator_user_id = check_id(moderator_user_id, IdKind.MODERATOR)
        check_flag(open_, "open")
        why = clean_reason(reason)

        async def work(data: TournamentData) -> TournamentInfo:
            require_status(data, (TournamentStatus.REGISTRATION,))
            if data.tournament.registration_open == open_:
                raise WrongState(Why.REGISTRATION_ALREADY, {"tournament_id": data.tournament.id, "open": open_})
            action = TourAction.OPEN_REGISTRATION if open_ else TourAction.CLOSE_REGISTRATION
            change = TournamentChange(
                registration_open=open_, audit=[self.desk.audit_entry(moderator_user_id, action, {}, why)]
            )
            await self.desk.change(data, change)
            return self.desk.info_of(await self.desk.data(data.tournament.id))

        result: TournamentInfo = await self.desk.locked_tour(tournament_id, None, work)
        return result

    async def open_registration(self, tournament_id: int, moderator_user_id: int, reason: str = "") -> TournamentInfo:
        return await self.set_registration(tournament_id, moderator_user_id, True, reason)

    async def close_registration(self, tournament_id: int, moderator_user_id: int, reason: str = "") -> TournamentInfo:
        return await self.set_registration(tournament_id, moderator_user_id, False, reason)

    async def join_tournament(self, tournament_id: int, user_id: int, display_name: str) -> TournamentAction:
        """Register while registration is open; past the cap, or while others wait, on the waiting list (`status`
        says which). A dropped or disqualified player is refused (`SANCTIONED`)."""
        user_id = check_id(user_id, IdKind.USER)
        name = check_name(display_name)

        async def work(data: TournamentData) -> TournamentAction:
            t = data.tournament
            require_status(data, (TournamentStatus.REGISTRATION,))
            if not t.registration_open:
                raise WrongState(Why.REGISTRATION_CLOSED, {"tournament_id": t.id})
            found = participant_row(data, user_id)
            refuse_sanctioned(data, found)
            if found is not None:
                raise WrongState(Why.ALREADY_REGISTERED, {"tournament_id": t.id, "status": found.status})
            # whoever waits gets a free place first (in join order); a newcomer waits behind them
            writes = promotions(data)
            promoted = [w.user_id for w in writes]
            still_waiting = any(
                p.status is ParticipantStatus.WAITLISTED and p.user_id not in promoted for p in data.participants
            )
            settings = TournamentSettings.from_json(t.settings)
            registered = sum(1 for p in data.participants if p.status in REGISTERED) + len(writes)
            full = still_waiting or (settings.cap is not None and registered >= settings.cap)
            status = ParticipantStatus.WAITLISTED if full else ParticipantStatus.REGISTERED
            details = {"user_id": user_id, "name": name, "status": status.value, "promoted": promoted}
            audit = self.desk.audit_entry(user_id, TourAction.JOIN, details)
            writes.append(ParticipantWrite(user_id, name, status))
            await self.desk.change(data, TournamentChange(participants=writes, audit=[audit]))
            return await self.desk.action(t.id, TourAction.JOIN, user_id, promoted=promoted[0] if promoted else None)

        result: TournamentAction = await self.desk.locked_tour(tournament_id, None, work)
        return result

    async def leave_tournament(self, tournament_id: int, user_id: int) -> TournamentAction:
        """Leave before round 1 (registration or check-in); the first on the waiting list gets the place. A dropped
        or disqualified player cannot leave (and so join again): the sanction stays until a moderator lifts it."""
        user_id = check_id(user_id, IdKind.USER)

        async def work(data: TournamentData) -> TournamentAction:
            t = data.tournament
            if t.status is TournamentStatus.RUNNING and participant_row(data, user_id) is not None:
                # a player of a running tournament: the refusal says what to do instead (ask to be dropped)
                raise WrongState(Why.TOURNAMENT_IS, {"tournament_id": t.id, "status": t.status, "leaving": True})
            require_status(data, BEFORE_START)
            found = participant_row(data, user_id)
            if found is None:
                raise NotAPlayer(Why.NOT_REGISTERED, {"tournament_id": t.id})
            refuse_sanctioned(data, found)
            writes = [ParticipantWrite(user_id, found.display_name, found.status, remove=True)]
            moved_up = promotions(data, leaving=[user_id])
            promoted = moved_up[0].user_id if moved_up else None
            writes += moved_up
            details = {"user_id": user_id, "name": found.display_name, "was": found.status.value, "promoted": promoted}
            audit = self.desk.audit_entry(user_id, TourAction.LEAVE, details)
            await self.desk.change(data, TournamentChange(participants=writes, audit=[audit]))
            return await self.desk.action(t.id, TourAction.LEAVE, user_id, promoted=promoted)

        result: TournamentAction = await self.desk.locked_tour(tournament_id, None, work)
        return result

    async def open_checkin(self, tournament_id: int, moderator_user_id: int, reason: str = "") -> TournamentInfo:
        """Close registration and open the check-in window (a tournament set up with one)."""
        moderator_user_id = check_id(moderator_user_id, IdKind.MODERATOR)
        why = clean_reason(reason)

        async def work(data: TournamentData) -> TournamentInfo:
            t = data.tournament
            require_status(data, (TournamentStatus.REGISTRATION,))
            if not TournamentSettings.from_json(t.settings).checkin:
                raise WrongState(Why.NO_CHECKIN, {"tournament_id": t.id})
            audit = self.desk.audit_entry(moderator_user_id, TourAction.OPEN_CHECKIN, {}, why)
            change = TournamentChange(status=TournamentStatus.CHECKIN, registration_open=False, audit=[audit])
            await self.desk.change(data, change)
            return self.desk.info_of(await self.desk.data(t.id))

        result: TournamentInfo = await self.desk.locked_tour(tournament_id, None, work)
        return result

    async def check_in(self, tournament_id: int, user_id: int) -> TournamentAction:
        """A registered player confirms they play (during the check-in window)."""
        user_id = check_id(user_id, IdKind.USER)

        async def work(data: TournamentData) -> TournamentAction:
            t = data.tournament
            if t.status is not TournamentStatus.CHECKIN:
                raise WrongState(Why.CHECKIN_CLOSED, {"tournament_id": t.id})
            found = participant_row(data, user_id)
            refuse_sanctioned(data, found)
            if found is None or found.status is not ParticipantStatus.REGISTERED:
                if found is not None and found.status is ParticipantStatus.CHECKED_IN:
                    raise WrongState(Why.ALREADY_REGISTERED, {"tournament_id": t.id, "status": found.status})
                raise NotAPlayer(Why.NOT_REGISTERED, {"tournament_id": t.id})
            write = ParticipantWrite(user_id, found.display_name, ParticipantStatus.CHECKED_IN)
            audit = self.desk.audit_entry(user_id, TourAction.CHECK_IN, {"user_id": user_id})
            await self.desk.change(data, TournamentChange(participants=[write], audit=[audit]))
            return await self.desk.action(t.id, TourAction.CHECK_IN, user_id)

        result: TournamentAction = await self.desk.locked_tour(tournament_id, None, work)
        return result

    async def cancel_tournament(self, tournament_id: int, moderator_user_id: int, reason: str = "") -> TournamentInfo:
        """Call the tournament off; its running games go on as casual games (a moderator may end them)."""
        moderator_user_id = check_id(moderator_user_id, IdKind.MODERATOR)
        why = clean_reason(reason)

        async def work(data: TournamentData) -> TournamentInfo:
            require_status(data, (*BEFORE_START, TournamentStatus.RUNNING))
            audit = self.desk.audit_entry(moderator_user_id, TourAction.CANCEL, {}, why)
            change = TournamentChange(status=TournamentStatus.CANCELLED, registration_open=False, audit=[audit])
            await self.desk.change(data, change)
            return self.desk.info_of(await self.desk.data(data.tournament.id))

        result: TournamentInfo = await self.desk.locked_tour(tournament_id, None, work)
        return result


def _tournament_name(raw: object) -> str:
    if not isinstance(raw, str):
        raise InvalidInput(Why.BAD_TOURNAMENT_NAME, {"limit": MAX_NAME})
    text = " ".join(raw.split())
    if not text or len(text) > MAX_NAME:
        raise InvalidInput(Why.BAD_TOURNAMENT_NAME, {"limit": MAX_NAME})
    return text
