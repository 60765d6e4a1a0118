"""Held DMs (bot/table/notify.py) on their own: what a release sends, drops and holds again, with a stand-in service."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta

from bot.service.member_settings import MemberSettings, QuietHours, TurnDms
from bot.store import HeldRow
from bot.table.notify import AWAY_NOTE, DmKind, Notifier

NOW = datetime(2026, 1, 1, 12, tzinfo=UTC)


@dataclass
class StandIn:
    """The parts of the game service a Notifier uses."""

    settings: dict[int, MemberSettings] = field(default_factory=dict)
    held: list[HeldRow] = field(default_factory=list)
    waits: dict[tuple[int, int], str] = field(default_factory=dict)  # (game, user) -> the wait now
    sent: list[tuple[int, str]] = field(default_factory=list)

    def now(self) -> datetime:
        return NOW

    async def member_settings(self, user_id: int) -> MemberSettings:
        return self.settings.get(user_id, MemberSettings(user_id))

    async def due_dms(self, now: datetime) -> list[HeldRow]:
        return sorted((h for h in self.held if h.due_at <= now), key=lambda h: (h.due_at, h.id))

    async def held_dms(self, user_id: int) -> list[HeldRow]:
        return [h for h in self.held if h.user_id == user_id]

    async def take_held_dm(self, held_id: int) -> bool:
        before = len(self.held)
        self.held = [h for h in self.held if h.id != held_id]
        return len(self.held) < before

    async def hold_dm(
        self, user_id: int, game_id: int | None, kind: str, wait: str | None, text: str, due: datetime
    ) -> int:
        row = HeldRow(len(self.held) + 100, user_id, game_id, kind, wait, text, due, NOW)
        self.held.append(row)
        return row.id

    async def seat_wait(self, game_id: int, user_id: int) -> str | None:
        return self.waits.get((game_id, user_id))

    async def refuses_dms(self, user_id: int) -> bool:
        return False


class Sending(Notifier):
    """A Notifier whose sending is recorded instead of reaching Discord."""

    def __init__(self, service: StandIn) -> None:
        super().__init__(None, service, service, service)  # type: ignore[arg-type]
        self.stand_in = service

    async def send(self, user_id: int, text: str, *, game_id: int | None = None) -> bool:
        self.stand_in.sent.append((user_id, text))
        return True


def row(id_: int, kind: DmKind, text: str, wait: str | None = None, user: int = 7, game: int | None = 1) -> HeldRow:
    return HeldRow(id_, user, game, kind.value, wait, text, NOW - timedelta(minutes=1), NOW - timedelta(hours=5))


async def test_a_release_sends_the_last_reminder_of_a_wait_and_drops_what_is_over() -> None:
    service = StandIn(waits={(1, 7): "turn:5"})
    service.held = [
        row(1, DmKind.TURN, "your turn 5", "turn:5"),
        row(2, DmKind.REMINDER, "reminder at 50%", "turn:5"),
        row(3, DmKind.REMINDER, "reminder at 90%", "turn:5"),
        row(4, DmKind.TURN, "your turn 3", "turn:3"),  # a turn that is over: dropped
        row(5, DmKind.SEAT, "seat news"),
    ]
    sent = await Sending(service).release()
    assert [t for _, t in service.sent] == ["your turn 5", "reminder at 90%", "seat news"] and sent == 3
    assert service.held == []


async def test_a_release_in_new_quiet_hours_holds_again_until_they_end() -> None:
    quiet = QuietHours(11 * 60, 13 * 60, "UTC")  # 11:00-13:00: now (12:00) is inside
    service = StandIn(settings={7: MemberSettings(7, quiet_hours=quiet)})
    service.held = [row(1, DmKind.SEAT, "seat news")]
    assert await Sending(service).release() == 0
    (again,) = service.held
    assert again.text == "seat news" and again.due_at == datetime(2026, 1, 1, 13, tzinfo=UTC)


async def test_what_the_autopilot_played_while_away_goes_as_one_summary_per_game() -> None:
    service = StandIn()
    service.held = [
        row(1, DmKind.PLAYED_FOR, "turn A", f"{AWAY_NOTE}12"),
        row(2, DmKind.PLAYED_FOR, "turn B", f"{AWAY_NOTE}9"),
        row(3, DmKind.PLAYED_FOR, "other game", f"{AWAY_NOTE}4", game=2),
    ]
    notifier = Sending(service)
    asked: list[tuple[int, int, int]] = []

    async def summarise(user: int, game: int, first: int) -> str:
        asked.append((user, game, first))
        return f"summary of game {game} from move {first}"

    notifier.summarise = summarise
    assert await notifier.release() == 2
    assert sorted(asked) == [(7, 1, 9), (7, 2, 4)]
    assert sorted(t for _, t in service.sent) == ["summary of game 1 from move 9", "summary of game 2 from move 4"]


async def test_a_member_still_away_keeps_the_summary_for_later() -> None:
    away = MemberSettings(
        7, away_since=NOW - timedelta(days=1), away_until=NOW + timedelta(days=1), turn_dms=TurnDms.EVERY
    )
    service = StandIn(settings={7: away})
    service.held = [row(1, DmKind.PLAYED_FOR, "turn A", f"{AWAY_NOTE}3")]
    notifier = Sending(service)
    assert await notifier.release() == 0 and service.sent == []
    (kept,) = service.held
    assert kept.due_at == NOW + timedelta(days=1) and kept.wait == f"{AWAY_NOTE}3"
    # a DM planned now: what the autopilot played is held as the away's, a turn note is sent as usual
    plan = await notifier.plan(7, DmKind.PLAYED_FOR)
    assert plan.away and plan.until == NOW + timedelta(days=1)
    assert (await notifier.plan(7, DmKind.TURN)).send
