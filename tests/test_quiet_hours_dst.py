"""Quiet hours across the nights the clocks change (Europe/Stockholm, Europe/Helsinki), and the time zones a member
may name.

The autumn night the end's time of day comes twice: a member inside the quiet hours during the second pass must
get an end still ahead (not the first pass's, an hour before), or a held DM is held again at every heartbeat.
The spring night the end may fall in the skipped hour: the quiet hours then end as the clocks jump.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from zoneinfo import ZoneInfo

from helpers.clock_support import FakeTime
from hypothesis import given, settings
from hypothesis import strategies as st
from test_held_dms import Sending, StandIn

from bot.service import GameService
from bot.service.member_settings import DAY_MINUTES, MemberSettings, QuietHours, known_zone
from bot.table.notify import DmKind

STOCKHOLM, HELSINKI = "Europe/Stockholm", "Europe/Helsinki"
# 2026's changes: the clocks go back at 01:00 UTC on 25 October, forward at 01:00 UTC on 29 March
AUTUMN = datetime(2026, 10, 25, 1, tzinfo=UTC)
SPRING = datetime(2026, 3, 29, 1, tzinfo=UTC)
HOUR = timedelta(hours=1)


def test_the_second_pass_of_the_autumn_night_gets_an_end_still_ahead() -> None:
    quiet = QuietHours(22 * 60, 2 * 60 + 30, STOCKHOLM)  # 22:00-02:30 in Stockholm
    second_pass = AUTUMN + timedelta(minutes=10)  # 02:10 CET, after 02:59 CEST went back to 02:00
    assert second_pass.astimezone(ZoneInfo(STOCKHOLM)).fold == 1
    end = quiet.until(second_pass)
    assert end is not None and end > second_pass
    assert end == AUTUMN + timedelta(minutes=30)  # 02:30 CET, not 02:30 CEST (an hour before)
    first_pass = AUTUMN - timedelta(minutes=50)  # 02:10 CEST
    assert quiet.until(first_pass) == AUTUMN - timedelta(minutes=30)


def test_an_end_in_the_hour_skipped_in_spring_is_when_the_clocks_jump() -> None:
    quiet = QuietHours(23 * 60, 3 * 60 + 30, HELSINKI)  # 23:00-03:30; 03:00-04:00 does not exist that night
    end = quiet.until(SPRING - timedelta(hours=2))
    assert end == SPRING  # 03:00 EET is 04:00 EEST


@settings(max_examples=300, deadline=None)
@given(
    zone=st.sampled_from([STOCKHOLM, HELSINKI]),
    start=st.integers(0, DAY_MINUTES - 1),
    end=st.integers(0, DAY_MINUTES - 1),
    change=st.sampled_from([AUTUMN, SPRING]),
    minutes=st.integers(-26 * 60, 26 * 60),
)
def test_the_end_is_always_ahead_and_within_a_day(
    zone: str, start: int, end: int, change: datetime, minutes: int
) -> None:
    if start == end:
        return
    quiet = QuietHours(start, end, zone)
    now = change + timedelta(minutes=minutes, seconds=17)
    found = quiet.until(now)
    if found is None:
        return
    assert now < found <= now + timedelta(hours=25)
    # at the end, the quiet hours are over (or the clock reads their end, or later after a jump)
    local = found.astimezone(ZoneInfo(zone))
    reading = local.hour * 60 + local.minute
    assert reading == end or found == change, (now, found)


@dataclass
class Night(StandIn):
    """A stand-in service whose clock the test moves."""

    clock: datetime = AUTUMN
    holds: int = 0

    def now(self) -> datetime:
        return self.clock

    async def hold_dm(
        self, user_id: int, game_id: int | None, kind: str, wait: str | None, text: str, due: datetime
    ) -> int:
        self.holds += 1
        return await super().hold_dm(user_id, game_id, kind, wait, text, due)


async def test_a_dm_held_on_the_autumn_night_goes_once_at_the_end() -> None:
    quiet = QuietHours(22 * 60, 3 * 60 + 30, HELSINKI)  # 22:00-03:30 in Helsinki (03:00-04:00 comes twice)
    service = Night(settings={7: MemberSettings(7, quiet_hours=quiet)}, clock=AUTUMN + timedelta(minutes=10))
    notifier = Sending(service)
    assert await notifier.dm(7, "seat news", game_id=1, kind=DmKind.SEAT)
    (held,) = service.held
    assert held.due_at == AUTUMN + timedelta(minutes=30) and held.due_at > service.clock
    for _ in range(6):  # heartbeats every 10 minutes
        service.clock += timedelta(minutes=10)
        await notifier.release()
    assert service.sent == [(7, "seat news")] and service.held == []
    assert service.holds == 1  # held once, never again


def test_time_zones_a_member_may_name() -> None:
    for zone in ("Europe/Stockholm", "Europe/Helsinki", "America/New_York", "UTC", "US/Eastern", "Japan"):
        assert known_zone(zone), zone
    for zone in ("localtime", "Factory", "posixrules", "posix/Europe/Helsinki", "right/UTC", "europe/helsinki", ""):
        assert not known_zone(zone), zone


# ----- the service on both stores: quiet hours changed while they hold messages ------------------------------


async def test_quiet_hours_off_or_changed_retime_what_they_held(timed_service: GameService, time: FakeTime) -> None:
    members = timed_service.members
    time.now = datetime(2026, 1, 10, 21, tzinfo=UTC)  # 23:00 in Helsinki
    user, other = 7001, 7002
    await members.set_quiet_hours(user, QuietHours(22 * 60, 7 * 60, HELSINKI))
    end = datetime(2026, 1, 11, 5, tzinfo=UTC)  # 07:00 in Helsinki
    for text in ("seat news", "reminder"):
        await members.hold_dm(user, None, DmKind.SEAT.value, None, text, end)
    await members.hold_dm(user, None, DmKind.TURN.value, None, "a turn DM that waits an hour", time.now + HOUR)
    await members.hold_dm(other, None, DmKind.SEAT.value, None, "someone else's", end)

    await members.set_quiet_hours(user, QuietHours(21 * 60, 9 * 60, HELSINKI))  # until 09:00 now
    held = {h.text: h.due_at for h in await members.held_dms(user)}
    assert held["seat news"] == held["reminder"] == end + 2 * HOUR
    assert held["a turn DM that waits an hour"] == time.now + HOUR  # not the quiet hours': untouched

    await members.set_quiet_hours(user, None)  # off: due now, for the next release
    due = {h.text for h in await members.due_dms(time.now)}
    assert due == {"seat news", "reminder"}
    assert {h.text: h.due_at for h in await members.held_dms(other)} == {"someone else's": end}
