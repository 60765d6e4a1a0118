"""Each server's settings, and who may moderate its games.

Whether someone is a moderator is the front end's question (Discord: Manage
Server, or the server's moderator role); `may_moderate` answers it from the
server's settings.

Server settings (guild_settings keys, JSON values):
- `moderator_role_id`: members with this role may moderate (besides Manage Server)
- `mod_log_channel_id`: where moderator actions and repeated timeouts are posted
- `turn_seconds`: the default turn time of new games; 0 = no clock
- `reserve_seconds`: the default reserve per player for a whole game
- `timeout_policy`: "autopilot" (it plays the turn) or "wait" (for a moderator)
- `reminders`: fractions of a turn at which to remind, like [0.5, 0.9]
- `member_open_games`: how many open games (lobby or running) one member may host in the server (default 3)
- `server_open_games`: how many open games the server may have at once (default 50)
- `rated_casual`: true rates casual games that end by the rules (bot/service/ratings.py); default false
- `autopilot_level`: how well the autopilot plays new games' timed-out and handed-over seats, and the
  default for their autopilot players: "steady" (default), "strong" or "expert" (engine/autopilot.py)
- `language`: "en", "sv" or "fi": the language of the server's public texts (turn messages, board images,
  announcements, the moderators' log); unset (the default): the server's preferred locale in Discord, else English
- `turn_messages`: true posts a message per turn in the server's game channels (the style before the table);
  false (the default): each game is one live table message, edited after every move (bot/table/live_table.py)
- `plans`: true (the default) lets players plan their next turn (`/ttr plan`, bot/service/plans.py); false: not
- `log_thread`: true keeps a thread under each game's table with a line per turn (bot/table/log_thread.py);
  false (the default): none
"""

from __future__ import annotations

from collections.abc import Collection, Mapping
from dataclasses import dataclass, field
from typing import Any

from bot.service.checks import MAX_ID, check_id
from bot.service.clock import DEFAULT_REMINDERS, DEFAULT_RESERVE_SECONDS, DEFAULT_TURN_SECONDS, ClockSettings
from bot.service.core import ServiceCore
from bot.service.errors import IdKind, InvalidInput, NotAllowed, Why
from bot.service.kinds import Language, TimeoutPolicy
from bot.store.protocols import SettingsStore
from engine.autopilot import Level

MODERATOR_ROLE = "moderator_role_id"
MOD_LOG_CHANNEL = "mod_log_channel_id"
TURN_SECONDS = "turn_seconds"
RESERVE_SECONDS = "reserve_seconds"
TIMEOUT_POLICY = "timeout_policy"
REMINDERS = "reminders"
MEMBER_OPEN_GAMES = "member_open_games"
SERVER_OPEN_GAMES = "server_open_games"
RATED_CASUAL = "rated_casual"
AUTOPILOT_LEVEL = "autopilot_level"
LANGUAGE = "language"
AWAY_SECONDS = "away_seconds"
TURN_MESSAGES = "turn_messages"
PLANS = "plans"
LOG_THREAD = "log_thread"
GUILD_KEYS = (
    MODERATOR_ROLE,
    MOD_LOG_CHANNEL,
    TURN_SECONDS,
    RESERVE_SECONDS,
    TIMEOUT_POLICY,
    REMINDERS,
    MEMBER_OPEN_GAMES,
    SERVER_OPEN_GAMES,
    RATED_CASUAL,
    AUTOPILOT_LEVEL,
    LANGUAGE,
    AWAY_SECONDS,
    TURN_MESSAGES,
    PLANS,
    LOG_THREAD,
)
DEFAULT_AWAY_SECONDS = 14 * 86400  # how long a member's away may last in this server's casual games
MAX_AWAY_SECONDS = 30 * 86400
DEFAULT_MEMBER_OPEN_GAMES = 3
DEFAULT_SERVER_OPEN_GAMES = 50
DEFAULT_OPEN_GAMES = (DEFAULT_MEMBER_OPEN_GAMES, DEFAULT_SERVER_OPEN_GAMES)
MAX_OPEN_GAMES = 10_000  # the highest either limit may be set to


@dataclass(frozen=True)
class GuildConfig:
    guild_id: int
    moderator_role_id: int | None = None
    mod_log_channel_id: int | None = None
    clock: ClockSettings = field(default_factory=ClockSettings)  # the default for new games
    member_open_games: int = DEFAULT_MEMBER_OPEN_GAMES  # open games one member may host
    server_open_games: int = DEFAULT_SERVER_OPEN_GAMES  # open games in the server
    rated_casual: bool = False  # casual games that end by the rules are rated
    autopilot_level: Level = Level.STEADY  # the autopilot of new games
    language: Language | None = None  # of the public texts; None: the server's preferred locale, else English
    away_seconds: int = DEFAULT_AWAY_SECONDS  # the longest away a member may take here (0: away is not allowed)
    turn_messages: bool = False  # a message per turn (the old style) instead of the live table
    plans: bool = True  # players may plan their next turn
    log_thread: bool = False  # a thread under each table with a line per turn

    @classmethod
    def of(
        cls, guild_id: int, settings: Mapping[str, Any], open_games: tuple[int, int] = DEFAULT_OPEN_GAMES
    ) -> GuildConfig:
        """The config from stored settings; a stored value that no longer makes sense counts as unset.

        `open_games`: the limits (per member, per server) of a server that set none.
        """
        values: dict[str, Any] = {}
        for key in GUILD_KEYS:
            if key in settings:
                try:
                    values[key] = check_setting(key, settings[key])
                except InvalidInput:
                    continue
        turn = values.get(TURN_SECONDS, DEFAULT_TURN_SECONDS)
        try:
            clock = ClockSettings(
                turn_seconds=turn or None,
                reserve_seconds=values.get(RESERVE_SECONDS, DEFAULT_RESERVE_SECONDS),
                policy=values.get(TIMEOUT_POLICY, TimeoutPolicy.AUTOPILOT),
                reminders=tuple(values.get(REMINDERS, DEFAULT_REMINDERS)),
            )
        except InvalidInput:
            clock = ClockSettings()
        return cls(
            guild_id,
            values.get(MODERATOR_ROLE),
            values.get(MOD_LOG_CHANNEL),
            clock,
            values.get(MEMBER_OPEN_GAMES, open_games[0]),
            values.get(SERVER_OPEN_GAMES, open_games[1]),
            values.get(RATED_CASUAL, False),
            Level(values.get(AUTOPILOT_LEVEL, Level.STEADY)),
            Language(values[LANGUAGE]) if LANGUAGE in values else None,
            values.get(AWAY_SECONDS, DEFAULT_AWAY_SECONDS),
            values.get(TURN_MESSAGES, False),
            values.get(PLANS, True),
            values.get(LOG_THREAD, False),
        )


def check_setting(key: str, value: Any) -> Any:
    """The setting as it is stored (None removes it); InvalidInput says what is wrong."""
    if key not in GUILD_KEYS:
        raise InvalidInput(Why.UNKNOWN_SETTING, {"key": key, "keys": GUILD_KEYS})
    if value is None:
        return None
    if key in (MODERATOR_ROLE, MOD_LOG_CHANNEL):
        if isinstance(value, bool) or not isinstance(value, int) or not 0 < value <= MAX_ID:
            raise InvalidInput(Why.BAD_SETTING_ID, {"key": key, "value": value})
        return value
    if key == TURN_SECONDS:
        if value == 0 and not isinstance(value, bool):
            return 0
        return ClockSettings(turn_seconds=value).turn_seconds
    if key == RESERVE_SECONDS:
        return ClockSettings(reserve_seconds=value).reserve_seconds
    if key in (MEMBER_OPEN_GAMES, SERVER_OPEN_GAMES):
        if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= MAX_OPEN_GAMES:
            raise InvalidInput(Why.BAD_GAME_LIMIT, {"key": key, "high": MAX_OPEN_GAMES, "value": value})
        return value
    if key in (RATED_CASUAL, TURN_MESSAGES, PLANS, LOG_THREAD):
        if not isinstance(value, bool):
            raise InvalidInput(Why.BAD_SETTING_SWITCH, {"key": key, "value": value})
        return value
    if key == AUTOPILOT_LEVEL:
        return check_level(key, value).value
    if key == LANGUAGE:
        if isinstance(value, str) and value in set(Language):
            return Language(value).value
        raise InvalidInput(Why.BAD_LEVEL, {"key": key, "levels": ", ".join(Language), "value": value})
    if key == TIMEOUT_POLICY:
        return ClockSettings(policy=value).policy.value
    if key == AWAY_SECONDS:
        if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= MAX_AWAY_SECONDS:
            raise InvalidInput(Why.BAD_GAME_LIMIT, {"key": key, "high": MAX_AWAY_SECONDS, "value": value})
        return value
    if not isinstance(value, (list, tuple)):
        raise InvalidInput(Why.BAD_REMINDER_SETTING, {"value": value})
    return list(ClockSettings(reminders=tuple(value)).reminders)


# the levels the bot offers (every level of engine/autopilot.py)
OFFERED_LEVELS = (Level.STEADY.value, Level.STRONG.value, Level.EXPERT.value)


def check_level(key: str, value: Any) -> Level:
    """An autopilot level the bot offers ("steady", "strong" or "expert"); InvalidInput otherwise."""
    if isinstance(value, str) and value in OFFERED_LEVELS:
        return Level(value)
    raise InvalidInput(Why.BAD_LEVEL, {"key": key, "levels": ", ".join(OFFERED_LEVELS), "value": value})


def may_moderate(config: GuildConfig, *, role_ids: Collection[int], manage_guild: bool) -> bool:
    """May a member with these roles (and this Manage Server permission) use the moderator commands?"""
    return manage_guild or (config.moderator_role_id is not None and config.moderator_role_id in role_ids)


class SettingsService:
    def __init__(self, core: ServiceCore, settings_store: SettingsStore) -> None:
        self.core = core
        self.settings_store = settings_store

    # the open-game limits (per member, per server) of servers that set none
    default_open_games: tuple[int, int] = DEFAULT_OPEN_GAMES

    async def guild_config(self, guild_id: int) -> GuildConfig:
        """The server's settings: moderator role, moderators' log channel, clock defaults, open-game limits."""
        guild_id = check_id(guild_id, IdKind.SERVER)
        return GuildConfig.of(guild_id, await self.settings_store.guild_settings(guild_id), self.default_open_games)

    async def set_guild_config(self, guild_id: int, key: str, value: Any) -> GuildConfig:
        """Set one server setting (None goes back to the default); InvalidInput for a bad key or value."""
        guild_id = check_id(guild_id, IdKind.SERVER)
        await self.settings_store.set_guild_setting(guild_id, key, check_setting(key, value))
        return await self.guild_config(guild_id)

    async def check_moderator(
        self, guild_id: int, user_id: int, *, role_ids: Collection[int], manage_guild: bool
    ) -> None:
        """NotAllowed unless the member may moderate this server's games (Manage Server, or the moderator role)."""
        config = await self.guild_config(guild_id)
        if not may_moderate(config, role_ids=role_ids, manage_guild=manage_guild):
            raise NotAllowed(Why.MODERATORS_ONLY)
