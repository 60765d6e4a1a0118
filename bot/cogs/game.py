"""The `/ttr` commands. Each one reads its options and hands them to the table, inside `guarded`."""

from __future__ import annotations

import io
import json
import logging

import discord
from discord import app_commands
from discord.ext import commands

from bot.present import texts
from bot.present.cards import card_name
from bot.present.recap import history_lines
from bot.replies import Refusal, current_game, guarded, private
from bot.service import GameInfo, NotFound
from bot.store import GameStatus
from bot.table import Table
from engine.game import MAX_TRAINS_OPTION, MIN_TRAINS_OPTION
from maps import MAP_NAMES, load_board

log = logging.getLogger(__name__)

MAP_CHOICES = [app_commands.Choice(name=load_board(m).rules.title, value=m) for m in MAP_NAMES]
MODERATOR_ROLE = "moderator_role_id"  # guild setting: the role id of the server's game moderators
MOD_LOG_CHANNEL = "mod_log_channel_id"  # guild setting: the channel id for moderator logs
MAX_CHOICES = 25


class GameCog(commands.Cog):
    """Playing Ticket to Ride in a channel."""

    ttr = app_commands.Group(name="ttr", description="Play Ticket to Ride in this channel", guild_only=True)

    def __init__(self, table: Table) -> None:
        self.table = table
        self.service = table.service

    async def is_moderator(self, interaction: discord.Interaction) -> bool:
        """Server managers, and members with the moderator role set by `/ttr config`."""
        if interaction.permissions.manage_guild:
            return True
        if interaction.guild_id is None or not isinstance(interaction.user, discord.Member):
            return False
        role = (await self.service.store.guild_settings(interaction.guild_id)).get(MODERATOR_ROLE)
        return role is not None and any(r.id == role for r in interaction.user.roles)

    # ----- the lobby -----------------------------------------------------------------

    @ttr.command(name="new", description="Open a game in this channel; you take the first seat")
    @app_commands.describe(
        map="The board to play",
        max_players="How many seats (default: as many as the map allows)",
        trains="House rule: trains per player, for a shorter game",
    )
    @app_commands.choices(map=MAP_CHOICES)
    async def new(
        self,
        interaction: discord.Interaction,
        map: str,
        max_players: app_commands.Range[int, 2, 5] | None = None,
        trains: app_commands.Range[int, MIN_TRAINS_OPTION, MAX_TRAINS_OPTION] | None = None,
    ) -> None:
        await guarded(interaction, lambda: self.table.new(interaction, map, max_players, trains))

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
            await private(interaction, texts.status_text(info, view, load_board(info.map).rules))

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
            await private(interaction, texts.rules_text(load_board(name or "usa")))

        await guarded(interaction, work)

    @ttr.command(name="history", description="What happened so far in this channel's game")
    async def history(self, interaction: discord.Interaction) -> None:
        async def work() -> None:
            info = await self.table.channel_game(interaction)
            if info.status is GameStatus.LOBBY:
                raise Refusal("Nothing has happened yet: the game has not started.")
            game = await self.service.engine_game(info.id)
            lines = history_lines(info, game)
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
        if game_id is None:
            row = (
                None if interaction.channel_id is None else await self.service.store.latest_game(interaction.channel_id)
            )
            if row is None:
                raise Refusal("No game was ever played in this channel. Give the game's number with `game`.")
            game_id = row.id
        current_game.set(game_id)
        try:
            info = await self.service.game(game_id)
        except NotFound:
            raise Refusal(f"There is no game #{game_id}.") from None
        if info.guild_id != interaction.guild_id:
            raise Refusal(f"There is no game #{game_id} on this server.")
        return info

    # ----- server settings -----------------------------------------------------------

    @ttr.command(name="config", description="Server managers: the moderator role and the moderator log channel")
    @app_commands.describe(
        moderator_role="Members with this role may moderate games",
        log_channel="Where moderator actions are logged",
    )
    async def config(
        self,
        interaction: discord.Interaction,
        moderator_role: discord.Role | None = None,
        log_channel: discord.TextChannel | None = None,
    ) -> None:
        async def work() -> None:
            if not interaction.permissions.manage_guild:
                raise Refusal("Only members who may manage this server can change its settings.")
            guild = interaction.guild_id
            assert guild is not None
            store = self.service.store
            if moderator_role is not None:
                await store.set_guild_setting(guild, MODERATOR_ROLE, moderator_role.id)
            if log_channel is not None:
                await store.set_guild_setting(guild, MOD_LOG_CHANNEL, log_channel.id)
            settings = await store.guild_settings(guild)
            role, channel = settings.get(MODERATOR_ROLE), settings.get(MOD_LOG_CHANNEL)
            await private(
                interaction,
                "Settings of this server:\n"
                f"Moderator role: {f'<@&{role}>' if role else 'none (server managers only)'}\n"
                f"Moderator log channel: {f'<#{channel}>' if channel else 'none'}",
            )

        await guarded(interaction, work)

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
