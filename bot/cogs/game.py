"""The `/ttr` commands. Each one reads its options and hands them to the table, inside `guarded`."""

from __future__ import annotations

import io
import json
import logging

import discord
from discord import app_commands
from discord.ext import commands

from bot.cogs.lookup import server_game
from bot.present.clock import (
    SUGGESTED,
    DurationError,
    parse_duration,
    parse_reminders,
    settings_text,
    status_lines,
)
from bot.present.recap import history_lines
from bot.present.rules import rules_text
from bot.present.seats import seat_labels
from bot.present.status import status_text
from bot.present.words import card_name
from bot.replies import Refusal, guarded, private
from bot.service import ClockSettings, GameInfo, TimeoutPolicy, may_moderate
from bot.service.settings import (
    MOD_LOG_CHANNEL,
    MODERATOR_ROLE,
    REMINDERS,
    RESERVE_SECONDS,
    TIMEOUT_POLICY,
    TURN_SECONDS,
)
from bot.store import GameStatus
from bot.table import Table
from engine.game import MAX_TRAINS_OPTION, MIN_TRAINS_OPTION
from maps import MAP_NAMES, load_board

log = logging.getLogger(__name__)

MAP_CHOICES = [app_commands.Choice(name=load_board(m).rules.title, value=m) for m in MAP_NAMES]
POLICY_CHOICES = [
    app_commands.Choice(name="autopilot: it plays the turn", value=TimeoutPolicy.AUTOPILOT.value),
    app_commands.Choice(name="wait: for a moderator", value=TimeoutPolicy.WAIT.value),
]
MAX_CHOICES = 25
MAX_BOTS = 4


def duration_choices(current: str, *, none: str) -> list[app_commands.Choice[str]]:
    """Suggestions for a duration option; whatever is typed stays possible (it is read by parse_duration)."""
    typed = current.strip()
    values = [*SUGGESTED, "none"]
    choices = [app_commands.Choice(name=none if v == "none" else v, value=v) for v in values]
    if typed and typed.casefold() not in values:
        choices.insert(0, app_commands.Choice(name=typed[:100], value=typed[:100]))
    return [c for c in choices if typed.casefold() in c.name.casefold() or c.value == typed[:100]][:MAX_CHOICES]


def read_duration(text: str, what: str, zero: str) -> int | None:
    try:
        return parse_duration(text, what=what, zero=zero)
    except DurationError as exc:
        raise Refusal(str(exc)) from None


def game_clock(default: ClockSettings, turn_time: str | None, reserve: str | None, policy: str | None) -> ClockSettings:
    """A new game's clock: the server's default with what `/ttr new` was given instead."""
    turn = default.turn_seconds if turn_time is None else read_duration(turn_time, "the turn time", "no clock")
    spare = default.reserve_seconds if reserve is None else read_duration(reserve, "the reserve", "no reserve") or 0
    chosen = TimeoutPolicy(policy or default.policy)
    if turn is None:
        return ClockSettings(turn_seconds=None, reserve_seconds=spare, policy=chosen, reminders=())
    return ClockSettings(turn, spare, chosen, default.reminders)


class GameCog(commands.Cog):
    """Playing Ticket to Ride in a channel."""

    ttr = app_commands.Group(name="ttr", description="Play Ticket to Ride in this channel", guild_only=True)

    def __init__(self, table: Table) -> None:
        self.table = table
        self.service = table.service

    async def is_moderator(self, interaction: discord.Interaction) -> bool:
        """Server managers, and members with the moderator role set by `/ttr config`."""
        if interaction.guild_id is None:
            return False
        roles = [r.id for r in interaction.user.roles] if isinstance(interaction.user, discord.Member) else []
        config = await self.service.guild_config(interaction.guild_id)
        return may_moderate(config, role_ids=roles, manage_guild=interaction.permissions.manage_guild)

    # ----- the lobby -----------------------------------------------------------------

    @ttr.command(name="new", description="Open a game in this channel; you take the first seat")
    @app_commands.describe(
        map="The board to play",
        max_players="How many seats (default: as many as the map allows)",
        trains="House rule: trains per player, for a shorter game",
        turn_time='Time per turn, like "12h", "2d", "30m", or "none" for no clock (default: the server\'s)',
        reserve='Extra time per player for the whole game, like "1d" (default: the server\'s)',
        timeout_policy="When time runs out (default: the server's)",
        bots="Seats to fill with autopilot players now",
    )
    @app_commands.choices(map=MAP_CHOICES, timeout_policy=POLICY_CHOICES)
    async def new(
        self,
        interaction: discord.Interaction,
        map: str,
        max_players: app_commands.Range[int, 2, 5] | None = None,
        trains: app_commands.Range[int, MIN_TRAINS_OPTION, MAX_TRAINS_OPTION] | None = None,
        turn_time: str | None = None,
        reserve: str | None = None,
        timeout_policy: str | None = None,
        bots: app_commands.Range[int, 0, MAX_BOTS] | None = None,
    ) -> None:
        async def work() -> None:
            clock = None
            if turn_time is not None or reserve is not None or timeout_policy is not None:
                assert interaction.guild_id is not None
                default = (await self.service.guild_config(interaction.guild_id)).clock
                clock = game_clock(default, turn_time, reserve, timeout_policy)
            await self.table.new(interaction, map, max_players, trains, clock=clock, bots=bots or 0)

        await guarded(interaction, work)

    @new.autocomplete("turn_time")
    async def new_turn_time_choices(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        return duration_choices(current, none="none (no clock)")

    @new.autocomplete("reserve")
    async def new_reserve_choices(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        return duration_choices(current, none="none (no reserve)")

    @ttr.command(name="join", description="Take a seat in this channel's game")
    async def join(self, interaction: discord.Interaction) -> None:
        await guarded(interaction, lambda: self.table.join(interaction))

    @ttr.command(name="leave", description="Give up your seat before the game starts")
    async def leave(self, interaction: discord.Interaction) -> None:
        await guarded(interaction, lambda: self.table.leave(interaction))

    @ttr.command(name="start", description="Host: start the game now with the players seated")
    async def start(self, interaction: discord.Interaction) -> None:
        await guarded(interaction, lambda: self.table.start(interaction))

    @ttr.command(name="cancel", description="Host: cancel the game before it starts")
    async def cancel(self, interaction: discord.Interaction) -> None:
        await guarded(interaction, lambda: self.table.cancel(interaction))

    @ttr.command(name="addbot", description="Host: fill an empty seat with an autopilot player")
    async def addbot(self, interaction: discord.Interaction) -> None:
        await guarded(interaction, lambda: self.table.add_bot(interaction))

    @ttr.command(name="removebot", description="Host: take an autopilot player out of the game before it starts")
    @app_commands.describe(name="Which autopilot player (default: the last one)")
    async def removebot(self, interaction: discord.Interaction, name: str | None = None) -> None:
        await guarded(interaction, lambda: self.table.remove_bot(interaction, name))

    @removebot.autocomplete("name")
    async def removebot_choices(self, interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
        if interaction.channel_id is None:
            return []
        info = await self.service.active_game(interaction.channel_id)
        if info is None:
            return []
        typed = current.casefold().strip()
        names = [s.display_name for s in info.seats if s.bot and typed in s.display_name.casefold()]
        return [app_commands.Choice(name=n, value=n) for n in names][:MAX_CHOICES]

    # ----- playing -------------------------------------------------------------------

    @ttr.command(name="draw", description="Draw a card: from the deck or a face-up colour")
    @app_commands.describe(card="deck, or a face-up card")
    async def draw(self, interaction: discord.Interaction, card: str) -> None:
        async def work() -> None:
            info = await self.table.channel_game(interaction)
            await self.table.draw(interaction, info, card, None)

        await guarded(interaction, work)

    @draw.autocomplete("card")
    async def draw_card_choices(self, interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
        try:
            info, player = await self._my_game(interaction)
            game = await self.service.engine_game(info.id)
            rules = game.rules
            choices = []
            for source in game.card_draws(player):
                name = "Deck (a blind draw)" if source == "deck" else card_name(rules, source).capitalize()
                choices.append(app_commands.Choice(name=name, value=source))
            typed = current.casefold().strip()
            return [c for c in choices if typed in c.name.casefold()][:MAX_CHOICES]
        except Exception:
            log.debug("draw autocomplete gave up", exc_info=True)
            return []

    @ttr.command(name="claim", description="Claim a route")
    @app_commands.describe(
        route="A route you can claim now",
        pay='The cards to pay, like "3 pink 1 locomotive" (default: the fewest wilds)',
    )
    async def claim(self, interaction: discord.Interaction, route: str, pay: str | None = None) -> None:
        async def work() -> None:
            info = await self.table.channel_game(interaction)
            await self.table.claim_text(interaction, info, route, pay)

        await guarded(interaction, work)

    @claim.autocomplete("route")
    async def claim_route_choices(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        """Only the routes this player can claim now."""
        try:
            info, player = await self._my_game(interaction)
            game = await self.service.engine_game(info.id)
            typed = " ".join(current.casefold().replace("-", " ").split())
            choices = []
            for option in sorted(game.claim_options(player), key=lambda o: o.route.label()):
                label = option.route.label()
                if typed in " ".join(label.casefold().replace("-", " ").split()):
                    choices.append(app_commands.Choice(name=label[:100], value=str(option.route.id)))
            return choices[:MAX_CHOICES]
        except Exception:
            log.debug("claim autocomplete gave up", exc_info=True)
            return []

    @ttr.command(name="tickets", description="Draw tickets (or see the tickets you are choosing from)")
    async def tickets(self, interaction: discord.Interaction) -> None:
        async def work() -> None:
            info = await self.table.channel_game(interaction)
            await self.table.draw_tickets(interaction, info, None)

        await guarded(interaction, work)

    @ttr.command(name="keep", description="Keep tickets by their numbers, like 1 3")
    @app_commands.describe(numbers="The numbers of the tickets to keep, as listed when they were drawn")
    async def keep(self, interaction: discord.Interaction, numbers: str) -> None:
        async def work() -> None:
            info = await self.table.channel_game(interaction)
            await self.table.keep_numbers(interaction, info, numbers)

        await guarded(interaction, work)

    # ----- looking -------------------------------------------------------------------

    @ttr.command(name="hand", description="Your cards and tickets (only you see them)")
    async def hand(self, interaction: discord.Interaction) -> None:
        async def work() -> None:
            await self.table.show_hand(interaction, await self.table.channel_game(interaction))

        await guarded(interaction, work)

    @ttr.command(name="board", description="The board as it is now")
    async def board(self, interaction: discord.Interaction) -> None:
        async def work() -> None:
            await self.table.show_board(interaction, await self.table.channel_game(interaction))

        await guarded(interaction, work)

    @ttr.command(name="status", description="Scores, trains, cards and whose turn it is")
    async def status(self, interaction: discord.Interaction) -> None:
        async def work() -> None:
            info = await self.table.channel_game(interaction)
            view = await self.service.public_view(info.id)
            clock: list[str] = []
            if info.started:
                clock = status_lines(await self.service.clock_status(info.id), seat_labels(info))
            await private(interaction, status_text(info, view, load_board(info.map).rules, clock))

        await guarded(interaction, work)

    @ttr.command(name="rules", description="The rules of this channel's map, or of another map")
    @app_commands.describe(map="The map (default: this channel's game)")
    @app_commands.choices(map=MAP_CHOICES)
    async def rules(self, interaction: discord.Interaction, map: str | None = None) -> None:
        async def work() -> None:
            name = map
            if name is None and interaction.channel_id is not None:
                info = await self.service.active_game(interaction.channel_id)
                name = info.map if info is not None else None
            await private(interaction, rules_text(load_board(name or "usa")))

        await guarded(interaction, work)

    @ttr.command(name="history", description="What happened so far in this channel's game")
    async def history(self, interaction: discord.Interaction) -> None:
        async def work() -> None:
            info = await self.table.channel_game(interaction)
            if info.status is GameStatus.LOBBY:
                raise Refusal("Nothing has happened yet: the game has not started.")
            lines = history_lines(info, await self.service.history(info.id))
            text = "\n".join(lines)
            if len(text) > 1900:
                text = "…\n" + text[-1900:].split("\n", 1)[-1]
            await private(interaction, text or "Nothing has happened yet.")

        await guarded(interaction, work)

    @ttr.command(name="export", description="The game record (after the end; moderators at any time)")
    @app_commands.describe(game="The game number (default: this channel's latest game)")
    async def export(self, interaction: discord.Interaction, game: int | None = None) -> None:
        async def work() -> None:
            info = await self._game_to_export(interaction, game)
            moderator = await self.is_moderator(interaction)
            record = await self.service.export_record(info.id, moderator=moderator)
            data = json.dumps(record, ensure_ascii=False, indent=1).encode("utf-8")
            file = discord.File(io.BytesIO(data), filename=f"conductor-game-{info.id}.json")
            await private(interaction, f"The record of game #{info.id} ({info.status.value}).", file=file)

        await guarded(interaction, work)

    async def _game_to_export(self, interaction: discord.Interaction, game_id: int | None) -> GameInfo:
        return await server_game(self.service, interaction, game_id)

    # ----- server settings -----------------------------------------------------------

    @ttr.command(name="config", description="Server managers: moderator role, moderators' log channel, clock defaults")
    @app_commands.describe(
        moderator_role="Members with this role may moderate games (/ttrmod)",
        log_channel="Where moderator actions and repeated timeouts are logged",
        turn_time='Default time per turn of new games, like "12h", "1d", or "none" for no clock',
        reserve='Default extra time per player for a whole game, like "1d", or "none"',
        timeout_policy="Default: what happens when a player's time runs out",
        reminders='When to remind the player to move, as parts of the turn, like "50% 90%", or "none"',
    )
    @app_commands.choices(timeout_policy=POLICY_CHOICES)
    async def config(
        self,
        interaction: discord.Interaction,
        moderator_role: discord.Role | None = None,
        log_channel: discord.TextChannel | None = None,
        turn_time: str | None = None,
        reserve: str | None = None,
        timeout_policy: str | None = None,
        reminders: str | None = None,
    ) -> None:
        async def work() -> None:
            if not interaction.permissions.manage_guild:
                raise Refusal("Only members who may manage this server can change its settings.")
            guild = interaction.guild_id
            assert guild is not None
            changes: list[tuple[str, object]] = []
            if moderator_role is not None:
                changes.append((MODERATOR_ROLE, moderator_role.id))
            if log_channel is not None:
                changes.append((MOD_LOG_CHANNEL, log_channel.id))
            if turn_time is not None:
                changes.append((TURN_SECONDS, read_duration(turn_time, "the turn time", "no clock") or 0))
            if reserve is not None:
                changes.append((RESERVE_SECONDS, read_duration(reserve, "the reserve", "no reserve") or 0))
            if timeout_policy is not None:
                changes.append((TIMEOUT_POLICY, timeout_policy))
            if reminders is not None:
                try:
                    changes.append((REMINDERS, parse_reminders(reminders)))
                except DurationError as exc:
                    raise Refusal(str(exc)) from None
            for key, value in changes:
                await self.service.set_guild_config(guild, key, value)
            config = await self.service.guild_config(guild)
            role, channel = config.moderator_role_id, config.mod_log_channel_id
            await private(
                interaction,
                "Settings of this server:\n"
                f"Moderator role: {f'<@&{role}>' if role else 'none (server managers only)'}\n"
                f"Moderator log channel: {f'<#{channel}>' if channel else 'none'}\n"
                f"Clock of new games: {settings_text(config.clock)}",
            )

        await guarded(interaction, work)

    @config.autocomplete("turn_time")
    async def config_turn_time_choices(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        return duration_choices(current, none="none (no clock)")

    @config.autocomplete("reserve")
    async def config_reserve_choices(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        return duration_choices(current, none="none (no reserve)")

    # ----- helpers -------------------------------------------------------------------

    async def _my_game(self, interaction: discord.Interaction) -> tuple[GameInfo, str]:
        if interaction.channel_id is None:
            raise LookupError("no channel")
        info = await self.service.active_game(interaction.channel_id)
        if info is None:
            raise LookupError("no game here")
        seat = info.seat_of(interaction.user.id)
        if seat is None or seat.player is None:
            raise LookupError("not a player")
        return info, seat.player
