"""The bot's configuration: environment variables, optionally from a `.env` file."""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path

from bot.service.thinking import MAX_EXPERT_PROCESSES, MAX_EXPERT_SECONDS, MIN_EXPERT_SECONDS
from bot.store.postgres import is_postgres_url
from bot.store.shards import Shards
from engine.expert import DEFAULT_SEARCH

DEFAULT_DATABASE = Path("data/conductor.sqlite3")
DEFAULT_ENV_FILE = Path(".env")
LOG_LEVELS = ("DEBUG", "INFO", "WARNING", "ERROR")
SHARED_RATE_LIMIT = ("auto", "on", "off")
LOG_FORMATS = ("text", "json")
DEFAULT_EXPERT_SECONDS = DEFAULT_SEARCH.time_limit or 1.8
# the expert's default worker processes: two where the machine has two cores or more (see `default_expert_processes`)
DEFAULT_EXPERT_PROCESSES = 2


class SettingsError(ValueError):
    """A setting that cannot be used; the message names the variable and what is wrong."""


def read_env_file(path: Path) -> dict[str, str]:
    """KEY=VALUE lines of a `.env` file; blank lines and `#` comments are skipped.

    Only the simple form the project documents in `.env.example`: no
    interpolation, no multi-line values. Matching quotes around a value are removed.
    """
    values: dict[str, str] = {}
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        return values
    except (OSError, UnicodeDecodeError) as exc:
        raise SettingsError(f"cannot read {path}: {exc}") from None
    for number, raw in enumerate(text.splitlines(), start=1):
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        if line.startswith("export "):
            line = line[len("export ") :].lstrip()
        key, sep, value = line.partition("=")
        key, value = key.strip(), value.strip()
        if not sep or not key or not key.replace("_", "").isalnum():
            raise SettingsError(f"{path}, line {number}: expected KEY=VALUE, got {raw.strip()!r}")
        if len(value) >= 2 and value[0] == value[-1] and value[0] in "\"'":
            value = value[1:-1]
        values[key] = value
    return values


def database_setting(text: str) -> Path | str:
    """A `postgresql://` or `postgres://` URL as it is (PostgreSQL), anything else as the path of an SQLite file."""
    text = text.strip()
    return text if text.lower().startswith(("postgresql://", "postgres://")) else Path(text)


def log_level(values: Mapping[str, str], key: str, default: str) -> str:
    """The log level named by the variable `key` (any case), `default` when it is unset or empty."""
    level = values.get(key, "").strip().upper() or default
    if level not in LOG_LEVELS:
        raise SettingsError(f"{key} must be one of {', '.join(LOG_LEVELS)}, not {level!r}")
    return level


def shared_rate_limit_setting(values: Mapping[str, str]) -> str:
    """CONDUCTOR_SHARED_RATE_LIMIT (any case): auto (the default, also when empty), on or off."""
    text = values.get("CONDUCTOR_SHARED_RATE_LIMIT", "").strip().lower() or "auto"
    if text not in SHARED_RATE_LIMIT:
        raise SettingsError(f"CONDUCTOR_SHARED_RATE_LIMIT must be one of {', '.join(SHARED_RATE_LIMIT)}, not {text!r}")
    return text


def expert_seconds_setting(values: Mapping[str, str]) -> float:
    """CONDUCTOR_EXPERT_SECONDS: the most the expert autopilot thinks about one move, in seconds (default 1.8)."""
    text = values.get("CONDUCTOR_EXPERT_SECONDS", "").strip()
    if not text:
        return DEFAULT_EXPERT_SECONDS
    try:
        seconds = float(text)
    except ValueError:
        seconds = -1.0
    if not (text.isascii() and MIN_EXPERT_SECONDS <= seconds <= MAX_EXPERT_SECONDS):  # NaN fails too
        raise SettingsError(
            f"CONDUCTOR_EXPERT_SECONDS must be a number of seconds from {MIN_EXPERT_SECONDS:g} to "
            f"{MAX_EXPERT_SECONDS:g}, not {text!r}"
        )
    return seconds


def usable_cores() -> int:
    """The cores this process may run on (its CPU affinity where the system tells it, else all of them)."""
    if hasattr(os, "sched_getaffinity"):
        return max(1, len(os.sched_getaffinity(0)))
    return max(1, os.cpu_count() or 1)


def default_expert_processes() -> int:
    """The expert's worker processes when CONDUCTOR_EXPERT_PROCESSES is not set: two (each decision split between
    them, twice the sampled worlds in the same time: the strength its four-player floor was measured at), or one on
    a machine with a single core, where a second would only halve each one's share."""
    return min(DEFAULT_EXPERT_PROCESSES, usable_cores())


def expert_processes_setting(values: Mapping[str, str]) -> int:
    """CONDUCTOR_EXPERT_PROCESSES: the worker processes the expert autopilot's searches run in, each decision's
    search split between all of them (default: `default_expert_processes`)."""
    text = values.get("CONDUCTOR_EXPERT_PROCESSES", "").strip()
    if not text:
        return default_expert_processes()
    cores = usable_cores()
    high = min(MAX_EXPERT_PROCESSES, cores)  # more processes than cores would only share them, each searching less
    if not (text.isascii() and text.isdigit() and 1 <= int(text) <= high):
        raise SettingsError(
            f"CONDUCTOR_EXPERT_PROCESSES must be a whole number from 1 to {high} (at most "
            f"{MAX_EXPERT_PROCESSES}, and at most the machine's cores: this one has {cores}), not {text!r}"
        )
    return int(text)


def metrics_address_setting(values: Mapping[str, str]) -> tuple[str, int] | None:
    """CONDUCTOR_METRICS_ADDRESS: HOST:PORT (`[::1]:9464` for an IPv6 address; a bare PORT or :PORT is on the
    loopback address 127.0.0.1) where /metrics, /healthz and /readyz are served; None (off) when unset or empty."""
    text = values.get("CONDUCTOR_METRICS_ADDRESS", "").strip()
    if not text:
        return None
    host, sep, port = text.rpartition(":")
    if not sep:
        host, port = "", text
    host = host.strip()
    if host.startswith("[") and host.endswith("]"):
        host = host[1:-1]
    no_host = bool(sep) and not host and not text.startswith(":")  # like `[]:9464`
    if not (port.isascii() and port.isdigit() and 0 <= int(port) <= 65535) or no_host:
        raise SettingsError(
            f"CONDUCTOR_METRICS_ADDRESS must be HOST:PORT (like 127.0.0.1:9464; a port alone listens on 127.0.0.1), "
            f"not {text!r}"
        )
    return (host or "127.0.0.1", int(port))


def log_format_setting(values: Mapping[str, str]) -> str:
    """CONDUCTOR_LOG_FORMAT (any case): text (the default, also when empty) or json (one JSON object a line)."""
    text = values.get("CONDUCTOR_LOG_FORMAT", "").strip().lower() or "text"
    if text not in LOG_FORMATS:
        raise SettingsError(f"CONDUCTOR_LOG_FORMAT must be one of {', '.join(LOG_FORMATS)}, not {text!r}")
    return text


def shard_setting(values: Mapping[str, str]) -> Shards | None:
    """SHARD_COUNT and SHARD_IDS (a comma-separated list; all of 0..count-1 when empty): this process's shards.

    None when SHARD_COUNT is unset or empty: one process for every server, as a plain (unsharded) bot.
    """
    count_text = values.get("SHARD_COUNT", "").strip()
    ids_text = values.get("SHARD_IDS", "").strip()
    if not count_text:
        if ids_text:
            raise SettingsError(
                f"SHARD_IDS is set ({ids_text!r}) but SHARD_COUNT is not; set SHARD_COUNT to the bot's number of "
                "shards (the same in every process), or leave both empty to run one unsharded process"
            )
        return None
    if not (count_text.isascii() and count_text.isdigit()) or int(count_text) < 1:
        raise SettingsError(f"SHARD_COUNT must be a positive whole number, not {count_text!r}")
    count = int(count_text)
    if not ids_text:
        return Shards(count, tuple(range(count)))
    ids: list[int] = []
    for part in ids_text.split(","):
        item = part.strip()
        if not (item.isascii() and item.isdigit()):
            raise SettingsError(
                f"SHARD_IDS must be shard numbers separated by commas (like 0 or 0,1), not {ids_text!r}"
            )
        shard = int(item)
        if shard >= count:
            raise SettingsError(
                f"SHARD_IDS: shard {shard} does not exist with SHARD_COUNT={count}; the shards are 0 to {count - 1}"
            )
        if shard in ids:
            raise SettingsError(f"SHARD_IDS names shard {shard} twice ({ids_text!r}); name each shard once")
        ids.append(shard)
    return Shards(count, tuple(ids))


@dataclass(frozen=True)
class Settings:
    """Everything the bot is configured with; `.env.example` documents each variable."""

    # CONDUCTOR_DATABASE: an SQLite file, or a `postgresql://` URL (kept as text: a Path would mangle it)
    database: Path | str = DEFAULT_DATABASE
    token: str | None = field(default=None, repr=False)  # DISCORD_TOKEN: a secret, never shown or logged
    dev_guild_id: int | None = None  # DISCORD_GUILD_ID: sync commands to this server only (development)
    log_level: str = "INFO"  # CONDUCTOR_LOG_LEVEL: the project's own loggers
    discord_log_level: str = "WARNING"  # CONDUCTOR_DISCORD_LOG_LEVEL: discord.py's loggers
    # each member may send at most this many commands, clicks and menu choices in any window; 0: no limit
    commands_per_window: int = 6
    command_window_seconds: float = 10.0
    # SHARD_COUNT and SHARD_IDS: the shards this process runs (an AutoShardedBot); None: unsharded, every server
    shards: Shards | None = None
    # CONDUCTOR_SHARED_RATE_LIMIT: auto, on or off; see `rate_limit_shared`
    shared_rate_limit: str = "auto"
    # CONDUCTOR_EXPERT_SECONDS: the most the expert autopilot thinks about one move (engine/expert.py)
    expert_seconds: float = DEFAULT_EXPERT_SECONDS
    # CONDUCTOR_EXPERT_PROCESSES: the processes each of its decisions is searched in, side by side
    expert_processes: int = field(default_factory=default_expert_processes)
    # CONDUCTOR_METRICS_ADDRESS: (host, port) of /metrics, /healthz and /readyz; None: not served (the default)
    metrics_address: tuple[str, int] | None = None
    # CONDUCTOR_LOG_FORMAT: text (readable lines) or json (one object a line)
    log_format: str = "text"

    @property
    def rate_limit_shared(self) -> bool:
        """Whether each member's command rate is counted in the database too, one limit for every process on it
        (bot/views/ratelimit.py). `auto`: when the bot may run as several processes, on PostgreSQL or when this
        process runs some shards; the single-process SQLite bot counts in memory only (no disk write per click)."""
        if self.shared_rate_limit == "auto":
            return is_postgres_url(self.database) or self.shards is not None
        return self.shared_rate_limit == "on"

    @classmethod
    def from_env(
        cls,
        environ: Mapping[str, str] = os.environ,
        env_file: Path | None = DEFAULT_ENV_FILE,
    ) -> Settings:
        """Settings from `environ`; a variable set there wins over the same one in `env_file`."""
        values = {} if env_file is None else read_env_file(env_file)
        values.update(environ)
        database = values.get("CONDUCTOR_DATABASE", "").strip()
        if "CONDUCTOR_DATABASE" in values and not database:
            raise SettingsError(
                "CONDUCTOR_DATABASE is set but empty; give the path of the database file or a postgresql:// URL"
            )
        token = values.get("DISCORD_TOKEN", "").strip() or None
        guild_text = values.get("DISCORD_GUILD_ID", "").strip()
        dev_guild_id = None
        if guild_text:
            if not guild_text.isdigit() or int(guild_text) <= 0:
                raise SettingsError(
                    f"DISCORD_GUILD_ID must be a server id (a positive whole number), not {guild_text!r}; "
                    "leave it empty to sync the commands globally"
                )
            dev_guild_id = int(guild_text)
        level = log_level(values, "CONDUCTOR_LOG_LEVEL", "INFO")
        discord_level = log_level(values, "CONDUCTOR_DISCORD_LOG_LEVEL", "WARNING")
        shards = shard_setting(values)
        shared_rate_limit = shared_rate_limit_setting(values)
        expert_seconds = expert_seconds_setting(values)
        expert_processes = expert_processes_setting(values)
        return cls(
            database=database_setting(database) if database else DEFAULT_DATABASE,
            token=token,
            dev_guild_id=dev_guild_id,
            log_level=level,
            discord_log_level=discord_level,
            shards=shards,
            shared_rate_limit=shared_rate_limit,
            expert_seconds=expert_seconds,
            expert_processes=expert_processes,
            metrics_address=metrics_address_setting(values),
            log_format=log_format_setting(values),
        )
