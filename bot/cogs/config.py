"""`/ttr config`: a server's settings (moderator role, moderators' log channel, clock defaults, open-game limits,
whether casual games are rated, autopilot level, the language of its public texts)."""

from __future__ import annotations

import discord
from discord import app_commands

from bot.cogs.common import LEVEL_CHOICES, POLICY_CHOICES, reserve_choices, turn_time_choices
from bot.cogs.member_settings import LANGUAGE_CHOICES, ON_OFF, chosen_language
from bot.cogs.ttr import TtrCog
from bot.present.confirm import away_too_long_text
from bot.present.misread import Span
from bot.present.mod_answers import (
    log_thread_switch_text,
    managers_only_text,
    role_step_text,
    server_language_text,
    settings_answer,
    turn_messages_switch_text,
)
from bot.present.ratings import rated_switch_text
from bot.service.settings import (
    AUTOPILOT_LEVEL,
    AWAY_SECONDS,
    LANGUAGE,
    LOG_THREAD,
    MAX_AWAY_SECONDS,
    MAX_OPEN_GAMES,
    MEMBER_OPEN_GAMES,
    MOD_LOG_CHANNEL,
    MODERATOR_ROLE,
    PLANS,
    RATED_CASUAL,
    REMINDERS,
    RESERVE_SECONDS,
    SERVER_OPEN_GAMES,
    TIMEOUT_POLICY,
    TURN_MESSAGES,
    TURN_SECONDS,
)
from bot.table.front import Front
from bot.table.parsing import DurationError, parse_reminders, read_duration
from bot.views.replies import Refusal, guarded, private


class ConfigCog(TtrCog):
    """The settings of a server, for its managers."""

    def __init__(self, ttr: app_commands.Group, front: Front) -> None:
        super().__init__(ttr)
        self.settings = front.service.settings
        self.languages = front.languages

    @app_commands.command(
        name="config",
        description="Server managers: moderator role, moderators' log channel, clock defaults, game limits",
    )
    @app_commands.describe(
        moderator_role="Members with this role may moderate games (/ttrmod)",
        log_channel="Where moderator actions and repeated timeouts are logged",
        turn_time='Default time per turn of new games, like "12h", "1d", or "none" for no clock',
        reserve='Default extra time per player for a whole game, like "1d", or "none"',
        timeout_policy="Default: what happens when a player's time runs out",
        reminders='When to remind the player to move, as parts of the turn, like "50% 90%", or "none"',
        member_games="How many open games (lobby or running) one member may host at once",
        server_games="How many open games this server may have at once",
        rated_casual="Whether casual games that end by the rules count for the ratings (/ttr leaderboard)",
        autopilot_level="How well the autopilot plays new games' timed-out seats and autopilot players",
        language="The language of the channel messages and board images (automatic: the server's in Discord)",
        away='How long members may go away (the autopilot plays their casual games), like "7d"; none: not at all',
        turn_messages="On: a new message every turn; off (default): each game is one table, edited after every move",
        plans="On (default): players may plan their next turn (/ttr plan); off: not in this server",
        log_thread="On: a thread under each table with a line per turn; off (default): none",
    )
    @app_commands.choices(
        timeout_policy=POLICY_CHOICES,
        rated_casual=ON_OFF,
        autopilot_level=LEVEL_CHOICES,
        language=LANGUAGE_CHOICES,
        turn_messages=ON_OFF,
        plans=ON_OFF,
        log_thread=ON_OFF,
    )
    @app_commands.autocomplete(turn_time=turn_time_choices, reserve=reserve_choices)
    async def config(
        self,
        interaction: discord.Interaction,
        moderator_role: discord.Role | None = None,
        log_channel: discord.TextChannel | None = None,
        turn_time: str | None = None,
        reserve: str | None = None,
        timeout_policy: str | None = None,
        reminders: str | None = None,
        member_games: app_commands.Range[int, 1, MAX_OPEN_GAMES] | None = None,
        server_games: app_commands.Range[int, 1, MAX_OPEN_GAMES] | None = None,
        rated_casual: str | None = None,
        autopilot_level: str | None = None,
        language: str | None = None,
        away: str | None = None,
        turn_messages: str | None = None,
        plans: str | None = None,
        log_thread: str | None = None,
    ) -> None:
        async def work() -> None:
            if not interaction.permissions.manage_guild:
                raise Refusal(managers_only_text())
            guild = interaction.guild_id
            assert guild is not None
            changes: list[tuple[str, object]] = []
            if moderator_role is not None:
                changes.append((MODERATOR_ROLE, moderator_role.id))
            if log_channel is not None:
                changes.append((MOD_LOG_CHANNEL, log_channel.id))
            if turn_time is not None:
                changes.append((TURN_SECONDS, read_duration(turn_time, Span.TURN_TIME) or 0))
            if reserve is not None:
                changes.append((RESERVE_SECONDS, read_duration(reserve, Span.RESERVE) or 0))
            if timeout_policy is not None:
                changes.append((TIMEOUT_POLICY, timeout_policy))
            if reminders is not None:
                try:
                    changes.append((REMINDERS, parse_reminders(reminders)))
                except DurationError as exc:
                    raise Refusal(str(exc)) from None
            if member_games is not None:
                changes.append((MEMBER_OPEN_GAMES, member_games))
            if server_games is not None:
                changes.append((SERVER_OPEN_GAMES, server_games))
            if rated_casual is not None:
                if rated_casual not in ("on", "off"):
                    raise Refusal(rated_switch_text())  # only a forged request sends another value
                changes.append((RATED_CASUAL, rated_casual == "on"))
            if autopilot_level is not None:
                changes.append((AUTOPILOT_LEVEL, autopilot_level))
            if language is not None:
                wanted = chosen_language(language)
                changes.append((LANGUAGE, None if wanted is None else wanted.value))
            if away is not None:
                most = read_duration(away, Span.DURATION) or 0
                if most > MAX_AWAY_SECONDS:
                    raise Refusal(away_too_long_text(MAX_AWAY_SECONDS))
                changes.append((AWAY_SECONDS, most))
            if turn_messages is not None:
                if turn_messages not in ("on", "off"):
                    raise Refusal(turn_messages_switch_text())  # only a forged request sends another value
                changes.append((TURN_MESSAGES, turn_messages == "on"))
            if plans is not None:
                if plans not in ("on", "off"):
                    raise Refusal(turn_messages_switch_text())  # only a forged request sends another value
                changes.append((PLANS, plans == "on"))
            if log_thread is not None:
                if log_thread not in ("on", "off"):
                    raise Refusal(log_thread_switch_text())  # only a forged request sends another value
                changes.append((LOG_THREAD, log_thread == "on"))
            for key, value in changes:
                await self.settings.set_guild_config(guild, key, value)
            config = await self.settings.guild_config(guild)
            answer = f"{settings_answer(config)}\n{server_language_text(config, await self.languages.server(guild))}"
            if moderator_role is not None:
                answer = f"{answer}\n\n{role_step_text()}"
            await private(interaction, answer)

        await guarded(interaction, work)
