"""Each member's own settings: the same in every server and every game.

Member settings (member_settings keys, JSON values):
- `confirmations`: true (the default) or false. On, the *Draw tickets* button
  and a route chosen in the claim menu (or `/ttr claim` without `pay`) ask for
  a confirmation first; off, they act at once. Typed moves with all their
  options (`/ttr tickets`, `/ttr claim` with `pay`) always act at once.
- `language`: "en", "sv" or "fi": the language of the member's private texts
  (answers, DMs, private images); unset (the default): their Discord client's.
- `client_locale`: the Discord locale ("sv-SE") of the member's client, as
  last seen on an interaction: the language of DMs sent later, while
  `language` is unset. Written only when it changes.
- `turn_dms`: "never" (unset, the default: no "your turn" DM; a short notice
  in the game's channel mentions the member), "every" (a "your turn" DM on
  every turn, instead of that notice at a game's table), or a number of
  seconds: a DM only once a turn has waited that long (and is still the
  member's), the notice in the channel at once.
- `reminders`: true (the default) or false: the clock's reminders (by DM, or
  a mention in the channel where DMs are closed), the reserve's included.
- `quiet_hours`: {"start": minutes, "end": minutes, "zone": "Europe/Helsinki"}:
  local times of day (minutes after midnight in that IANA time zone) between
  which the bot sends the member nothing; what falls due then is held and
  sent when they end (bot/table/notify.py). The clock runs on: quiet hours hold
  messages, not time.
- `away`: {"since": time, "until": time} (UTC ISO-8601): the member is away;
  in casual games of servers that allow it (bounded there by the server's
  `away_seconds`, counted from `since`) the autopilot plays their seat at
  once, and what it did for them is held for one summary when they are back.

More keys can be added here without a new table.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime, time, timedelta
from enum import StrEnum
from functools import cache
from typing import Any
from zoneinfo import ZoneInfo, available_timezones

from bot.service.announce import private_events, public_events
from bot.service.checks import check_id
from bot.service.clock import wait_key
from bot.service.core import ServiceCore
from bot.service.errors import IdKind
from bot.service.kinds import Actor, Language
from bot.service.results import PlayedFor
from bot.store import HeldRow
from bot.store.protocols import MessageStore, SettingsStore

CONFIRMATIONS = "confirmations"
LANGUAGE = "language"
CLIENT_LOCALE = "client_locale"
TURN_DMS = "turn_dms"
REMINDERS = "reminders"
QUIET_HOURS = "quiet_hours"
AWAY = "away"
MAX_LOCALE_LENGTH = 16  # Discord's locales are short ("en-US", "zh-TW"); a longer one is not kept
MIN_TURN_DM_WAIT = 60  # a DM once a turn has waited: at least a minute ...
MAX_TURN_DM_WAIT = 7 * 24 * 3600  # ... and at most a week
DAY_MINUTES = 24 * 60


class TurnDms(StrEnum):
    """When a member gets a "your turn" DM."""

    EVERY = "every"  # on every turn (at the table instead of the notice in the channel)
    AFTER = "after"  # once a turn has waited `turn_dm_wait` seconds and is still theirs
    NEVER = "never"  # never (the channel's notice only): the default


# names the system's time zone files hold that are no place's time: `localtime` is whatever the machine is set to,
# `Factory` a placeholder ("-00"), `posixrules` a file of rules; `posix/` and `right/` are copies of the others
NOT_A_PLACE = frozenset({"localtime", "Factory", "posixrules"})
NOT_A_PLACE_PREFIXES = ("posix/", "right/")


@cache
def time_zones() -> frozenset[str]:
    """The IANA time zones of places the system knows (Debian's tzdata, /usr/share/zoneinfo); their old names
    (`US/Eastern`, `Japan`) too, since a member may mean them."""
    return frozenset(
        z for z in available_timezones() if z not in NOT_A_PLACE and not z.startswith(NOT_A_PLACE_PREFIXES)
    )


def known_zone(name: str) -> bool:
    return name in time_zones()


@dataclass(frozen=True)
class QuietHours:
    """Local times of day (minutes after midnight in `zone`) from `start` up to `end`; across midnight if
    `end` < `start` ("22:00-07:00")."""

    start: int
    end: int
    zone: str

    def __post_init__(self) -> None:
        if not (0 <= self.start < DAY_MINUTES and 0 <= self.end < DAY_MINUTES and self.start != self.end):
            raise ValueError("quiet hours are two different times of day")
        if not known_zone(self.zone):
            raise ValueError("an unknown time zone")

    def to_json(self) -> dict[str, Any]:
        return {"start": self.start, "end": self.end, "zone": self.zone}

    @classmethod
    def from_json(cls, data: object) -> QuietHours | None:
        """As `to_json` wrote them; anything else: None (no quiet hours)."""
        if not isinstance(data, dict):
            return None
        start, end, zone = data.get("start"), data.get("end"), data.get("zone")
        if not (type(start) is int and type(end) is int and isinstance(zone, str)):
            return None
        try:
            return cls(start, end, zone)
        except ValueError:
            return None

    def _inside(self, minute: int) -> bool:
        if self.start < self.end:
            return self.start <= minute < self.end
        return minute >= self.start or minute < self.end

    def until(self, now: datetime) -> datetime | None:
        """If `now` is inside the quiet hours, when they end (in `now`'s time zone); else None. Always after `now`:
        the first moment after it when the clock there shows the end, so the night the clocks go back (when the
        end's time of day comes twice) it is the one still ahead, and never one already past."""
        zone = ZoneInfo(self.zone)
        local = now.astimezone(zone)
        if not self._inside(local.hour * 60 + local.minute):
            return None
        end = time(self.end // 60, self.end % 60)
        ahead = []
        for day in (local.date(), local.date() + timedelta(days=1)):
            for fold in (0, 1):
                moment = datetime.combine(day, end, tzinfo=zone).replace(fold=fold)
                if not _exists(moment):  # in the hour the clocks skip in spring: the quiet hours end as they jump
                    if fold:
                        continue
                    moment = _jump_after(moment.replace(fold=1), zone)
                if moment > now:
                    ahead.append(moment.astimezone(now.tzinfo))
        return min(ahead)


def _exists(moment: datetime) -> bool:
    """Does a clock in `moment`'s zone ever show it (not in the hour skipped in spring)?"""
    assert moment.tzinfo is not None
    back = moment.astimezone(UTC).astimezone(moment.tzinfo)
    return back.replace(tzinfo=None) == moment.replace(tzinfo=None)


def _jump_after(before: datetime, zone: ZoneInfo) -> datetime:
    """The moment the clocks jump forward, from `before` (a moment before the jump, at most a day before)."""
    at = before.astimezone(UTC)
    offset = at.astimezone(zone).utcoffset()
    for _ in range(DAY_MINUTES):
        at += timedelta(minutes=1)
        if at.astimezone(zone).utcoffset() != offset:
            return at.replace(second=0, microsecond=0).astimezone(zone)
    return at.astimezone(zone)


@dataclass(frozen=True)
class MemberSettings:
    user_id: int
    confirmations: bool = True
    language: Language | None = None  # None: the client's language (else the server's)
    client_locale: str | None = None  # the Discord locale last seen on the member's interactions
    turn_dms: TurnDms = TurnDms.NEVER
    turn_dm_wait: int = 0  # with TurnDms.AFTER: seconds a turn waits before its DM
    reminders: bool = True
    quiet_hours: QuietHours | None = None
    away_since: datetime | None = None  # away from this time ...
    away_until: datetime | None = None  # ... until this one (both or neither)

    def away_at(self, now: datetime, most_seconds: int | None = None) -> bool:
        """Is the member away at `now` (`most_seconds`: a server's bound on an away, from its start)?"""
        if self.away_since is None or self.away_until is None or most_seconds == 0:
            return False
        until = self.away_until
        if most_seconds is not None:
            until = min(until, self.away_since + timedelta(seconds=most_seconds))
        return self.away_since <= now < until

    @classmethod
    def of(cls, user_id: int, stored: dict[str, Any]) -> MemberSettings:
        """From the stored values; a value of the wrong type is ignored (the default holds)."""
        confirm = stored.get(CONFIRMATIONS)
        language = stored.get(LANGUAGE)
        locale = stored.get(CLIENT_LOCALE)
        turn_dms, wait = TurnDms.NEVER, 0
        stored_dms = stored.get(TURN_DMS)
        if stored_dms == TurnDms.EVERY.value:
            turn_dms = TurnDms.EVERY
        elif type(stored_dms) is int and MIN_TURN_DM_WAIT <= stored_dms <= MAX_TURN_DM_WAIT:
            turn_dms, wait = TurnDms.AFTER, stored_dms
        reminders = stored.get(REMINDERS)
        return cls(
            user_id,
            confirm if isinstance(confirm, bool) else True,
            Language(language) if language in set(Language) else None,
            locale if isinstance(locale, str) and 0 < len(locale) <= MAX_LOCALE_LENGTH else None,
            turn_dms,
            wait,
            reminders if isinstance(reminders, bool) else True,
            QuietHours.from_json(stored.get(QUIET_HOURS)),
            *_away_times(stored.get(AWAY)),
        )


def _away_times(data: object) -> tuple[datetime | None, datetime | None]:
    """An away as stored; anything else: not away."""
    if not isinstance(data, dict):
        return None, None
    try:
        since, until = datetime.fromisoformat(str(data["since"])), datetime.fromisoformat(str(data["until"]))
    except (KeyError, ValueError):
        return None, None
    if since.tzinfo is None or until.tzinfo is None or until <= since:
        return None, None
    return since, until


class MemberSettingsService:
    def __init__(self, core: ServiceCore, message_store: MessageStore, settings_store: SettingsStore) -> None:
        self.core = core
        self.message_store = message_store
        self.settings_store = settings_store

    async def _put(self, user_id: int, key: str, value: Any) -> None:
        """Store one of a member's settings; what this process knew of them is forgotten."""
        await self.settings_store.set_member_setting(user_id, key, value)
        self.core.forget_member(user_id)

    async def member_settings(self, user_id: int) -> MemberSettings:
        """A member's own settings (defaults for a member who set none; an autopilot player has the defaults)."""
        if user_id <= 0:
            return MemberSettings(user_id)
        user_id = check_id(user_id, IdKind.USER)
        return MemberSettings.of(user_id, await self.settings_store.member_settings(user_id))

    async def set_confirmations(self, user_id: int, on: bool) -> MemberSettings:
        """Turn a member's confirmations on or off."""
        user_id = check_id(user_id, IdKind.USER)
        await self._put(user_id, CONFIRMATIONS, bool(on))
        return await self.member_settings(user_id)

    async def set_language(self, user_id: int, language: Language | None) -> MemberSettings:
        """Set the language of a member's private texts; None: their Discord client's again."""
        user_id = check_id(user_id, IdKind.USER)
        await self._put(user_id, LANGUAGE, None if language is None else Language(language).value)
        return await self.member_settings(user_id)

    async def set_turn_dms(self, user_id: int, turn_dms: TurnDms, wait: int = 0) -> MemberSettings:
        """When a member gets "your turn" DMs: on every turn, once a turn has waited `wait` seconds, or never."""
        user_id = check_id(user_id, IdKind.USER)
        value: str | int | None = None  # never: the default
        if turn_dms is TurnDms.EVERY:
            value = TurnDms.EVERY.value
        elif turn_dms is TurnDms.AFTER:
            if type(wait) is not int or not MIN_TURN_DM_WAIT <= wait <= MAX_TURN_DM_WAIT:
                raise ValueError(f"a turn DM's wait is {MIN_TURN_DM_WAIT} to {MAX_TURN_DM_WAIT} seconds")
            value = wait
        await self._put(user_id, TURN_DMS, value)
        return await self.member_settings(user_id)

    async def set_reminders(self, user_id: int, on: bool) -> MemberSettings:
        """Turn a member's clock reminders on (the default) or off."""
        user_id = check_id(user_id, IdKind.USER)
        await self._put(user_id, REMINDERS, None if on else False)
        return await self.member_settings(user_id)

    async def set_quiet_hours(self, user_id: int, quiet: QuietHours | None) -> MemberSettings:
        """Set a member's quiet hours; None: none. What the old ones held is due when the new ones end: now if
        they are off, or if now is outside them (the front's next release sends it)."""
        user_id = check_id(user_id, IdKind.USER)
        old = (await self.member_settings(user_id)).quiet_hours
        await self._put(user_id, QUIET_HOURS, None if quiet is None else quiet.to_json())
        now = self.core.now()
        old_end = None if old is None else old.until(now)
        if old_end is not None:
            new_end = (None if quiet is None else quiet.until(now)) or now
            if new_end != old_end:
                await self._retime_held(user_id, old_end, new_end)
        return await self.member_settings(user_id)

    async def _retime_held(self, user_id: int, old_end: datetime, new_end: datetime) -> None:
        """The member's DMs held until `old_end` (their quiet hours' end then) are held until `new_end` instead."""
        for row in await self.message_store.held_messages(user_id):
            if row.due_at == old_end and await self.message_store.take_held_message(row.id):
                await self.message_store.hold_message(row.user_id, row.game_id, row.kind, row.wait, row.text, new_end)

    async def set_away(self, user_id: int, seconds: int | None) -> MemberSettings:
        """The member is away from now for `seconds` (None: back now)."""
        user_id = check_id(user_id, IdKind.USER)
        value = None
        if seconds is not None:
            if type(seconds) is not int or seconds <= 0:
                raise ValueError("an away lasts a positive number of seconds")
            now = self.core.now()
            value = {"since": now.isoformat(), "until": (now + timedelta(seconds=seconds)).isoformat()}
        await self._put(user_id, AWAY, value)
        return await self.member_settings(user_id)

    async def autopilot_moves_for(self, game_id: int, user_id: int, first: int) -> list[PlayedFor]:
        """What the autopilot did for the member's seat from move `first` on, as the moves told it then."""
        live = await self.core.live(game_id)
        info, game = live.info, live.game
        seat = next((i for i, s in enumerate(info.seats) if s.user_id == user_id), None)
        if game is None or seat is None:
            return []
        name = game.names[seat]
        replayed = game.initial()
        out = []
        for index, move in enumerate(game.moves):
            events = replayed.apply(move)
            actor = live.actors[index] if index < len(live.actors) else Actor.PLAYER
            if index < first or move.player != name or actor not in (Actor.AUTOPILOT, Actor.TIMEOUT):
                continue
            public = public_events(info, replayed, events, actor)
            private = tuple(e for e in private_events(info, replayed, events) if e.user_id == user_id)
            out.append(PlayedFor(user_id, name, actor is Actor.TIMEOUT, tuple(public), private, index))
        return out

    # ----- direct messages held for later (bot/table/notify.py) ---------------------------------

    async def seat_wait(self, game_id: int, user_id: int) -> str | None:
        """The wait (like "turn:12") in which the game waits for the member's own seat now; None if it does not."""
        live = await self.core.live(game_id)
        info, game = live.info, live.game
        if game is None or not info.status.active:
            return None
        for seat, sitter in enumerate(info.seats):
            if sitter.user_id == user_id and not sitter.autopilot and seat < len(game.names):
                key = wait_key(game, seat)
                if key is not None:
                    return key
        return None

    async def hold_dm(
        self, user_id: int, game_id: int | None, kind: str, wait: str | None, text: str, due_at: datetime
    ) -> int:
        """Keep a direct message to send at `due_at`."""
        user_id = check_id(user_id, IdKind.USER)
        return await self.message_store.hold_message(user_id, game_id, kind, wait, text, due_at)

    async def due_dms(self, now: datetime) -> list[HeldRow]:
        """The held direct messages due at `now`."""
        return await self.message_store.due_held_messages(now)

    async def held_dms(self, user_id: int) -> list[HeldRow]:
        """A member's held direct messages."""
        return await self.message_store.held_messages(user_id)

    async def take_held_dm(self, held_id: int) -> bool:
        """Take a held message (to send or drop it); False if another process took it."""
        return await self.message_store.take_held_message(held_id)

    async def remember_client_locale(self, user_id: int, locale: str) -> None:
        """Keep the Discord locale a member's client sent last (for DMs sent later); an odd one is not kept."""
        user_id = check_id(user_id, IdKind.USER)
        if 0 < len(locale) <= MAX_LOCALE_LENGTH:
            await self._put(user_id, CLIENT_LOCALE, locale)
