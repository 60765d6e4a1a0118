"""The `/ttr` commands of playing and looking: draw, claim, tickets, keep, hand, board, status, rules, history, export.

The commands that do what a button or menu does go through the same handler
table (bot/table/controls.py); each reads its options first.
"""

from __future__ import annotations

import logging

import discord
from discord import app_commands

from bot.cogs.common import MAX_CHOICES, game_here, is_moderator, reader_language, record_file
from bot.cogs.lobby import MAP_CHOICES
from bot.cogs.ttr import TtrCog
from bot.present.answers import deck_choice, file_caption, nothing_yet_text
from bot.present.clock import status_lines
from bot.present.i18n import current_language, speaking
from bot.present.image_words import image_words
from bot.present.lookup import GAME_OPTION, no_scores_text
from bot.present.paging import HISTORY_BUTTONS, REPLAY_BUTTONS, pages, replay_caption
from bot.present.recap import history_lines
from bot.present.rules import rules_text
from bot.present.seats import seat_labels
from bot.present.status import final_tickets_text, status_text
from bot.present.suggestions import route_label
from bot.present.words import card_name
from bot.service import GameInfo, GameStatus
from bot.table.controls import Request
from bot.table.front import Front
from bot.table.paging import Page, send_pages
from bot.table.parsing import parse_draw, route_matches
from bot.views.ids import Action
from bot.views.replies import Refusal, guarded, image_file, private
from maps import load_board

log = logging.getLogger(__name__)


class PlayCog(TtrCog):
    """Playing Ticket to Ride in a channel, and looking at the game."""

    def __init__(self, ttr: app_commands.Group, front: Front) -> None:
        super().__init__(ttr)
        self.audit = front.service.audit
        self.choices = front.service.choices
        self.lookup = front.lookup
        self.reading = front.service.reading
        self.replays = front.service.replays
        self.play = front.play
        self.delivery = front.delivery
        self.controls = front.controls
        self.settings = front.service.settings

    async def _do(self, interaction: discord.Interaction, action: Action) -> None:
        """An action of this channel's game, as its button would do it."""

        async def work() -> None:
            info = await self.lookup.channel_game(interaction)
            await self.controls.handle(interaction, info, Request(action))

        await guarded(interaction, work)

    # ----- playing -------------------------------------------------------------------

    @app_commands.command(name="draw", description="Draw a card: from the deck or a face-up colour")
    @app_commands.describe(card="deck, or a face-up card")
    async def draw(self, interaction: discord.Interaction, card: str) -> None:
        async def work() -> None:
            info = await self.lookup.channel_game(interaction)
            source = await self.play.card_source(interaction, info, card)
            await self.controls.handle(interaction, info, Request(Action.DRAW, args=(source,)))

        await guarded(interaction, work)

    @draw.autocomplete("card")
    async def draw_card_choices(self, interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
        try:
            info = await self._my_game(interaction)
            rules = load_board(info.map).rules
            choices = []
            with speaking(reader_language(interaction)):
                for source in await self.choices.card_draws(info.id, interaction.user.id):
                    name = deck_choice() if source == "deck" else card_name(rules, source).capitalize()
                    choices.append(app_commands.Choice(name=name, value=source))
            typed = current.casefold().strip()
            meant = parse_draw(rules, typed) if typed else None  # a word of any language: "röd", "pakka"
            return [c for c in choices if typed in c.name.casefold() or c.value == meant][:MAX_CHOICES]
        except Exception:
            log.debug("draw autocomplete gave up", exc_info=True)
            return []

    @app_commands.command(name="claim", description="Claim a route")
    @app_commands.describe(
        route="A route you can claim now",
        pay='The cards to pay, like "3 pink 1 locomotive" (without it: the fewest wilds, shown to confirm first)',
    )
    async def claim(self, interaction: discord.Interaction, route: str, pay: str | None = None) -> None:
        async def work() -> None:
            info = await self.lookup.channel_game(interaction)
            claim = self.play.claim_asked(interaction, info, route, pay)
            action = Action.ROUTE if claim.pay is None else Action.PAY  # without cards named: confirmed first
            await self.controls.handle(interaction, info, Request(action, claim=claim))

        await guarded(interaction, work)

    @claim.autocomplete("route")
    async def claim_route_choices(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        """Only the routes this player can claim now."""
        try:
            info = await self._my_game(interaction)
            routes = (await self.choices.claim_choices(info.id, interaction.user.id)).listed()
            board = load_board(info.map)
            with speaking(reader_language(interaction)):
                choices = [
                    app_commands.Choice(name=route_label(choice.route)[:100], value=str(choice.route.id))
                    for choice in sorted(routes, key=lambda c: c.route.label())
                    if route_matches(board, choice.route, current)
                ]
            return choices[:MAX_CHOICES]
        except Exception:
            log.debug("claim autocomplete gave up", exc_info=True)
            return []

    @app_commands.command(name="tickets", description="Draw tickets (or see the tickets you are choosing from)")
    async def tickets(self, interaction: discord.Interaction) -> None:
        await self._do(interaction, Action.TICKETS)

    @app_commands.command(name="keep", description="Keep tickets by their numbers, like 1 3")
    @app_commands.describe(numbers="The numbers of the tickets to keep, as listed when they were drawn")
    async def keep(self, interaction: discord.Interaction, numbers: str) -> None:
        async def work() -> None:
            info = await self.lookup.channel_game(interaction)
            version, kept = await self.play.kept_numbers(interaction, info, numbers)
            request = Request(Action.KEEP, version=version, values=tuple(str(t) for t in kept))
            await self.controls.handle(interaction, info, request)

        await guarded(interaction, work)

    # ----- looking -------------------------------------------------------------------

    @app_commands.command(name="hand", description="Your cards and tickets (only you); after the end, everyone's")
    @app_commands.describe(game=GAME_OPTION)
    async def hand(self, interaction: discord.Interaction, game: int | None = None) -> None:
        async def work() -> None:
            info = await self.lookup.viewed_game(interaction, game)
            if info.status.active:
                await self.controls.handle(interaction, info, Request(Action.HAND))
                return
            table = (await self.reading.public_view(info.id)).table
            if table is None or table.scores is None:
                raise Refusal(no_scores_text(info.id))
            await private(interaction, final_tickets_text(info, load_board(info.map).rules, table.scores))

        await guarded(interaction, work)

    @app_commands.command(name="board", description="The board as it is now (or at the end of a game)")
    @app_commands.describe(game=GAME_OPTION)
    async def board(self, interaction: discord.Interaction, game: int | None = None) -> None:
        async def work() -> None:
            await self.play.show_board(interaction, await self.lookup.viewed_game(interaction, game))

        await guarded(interaction, work)

    @app_commands.command(name="status", description="Scores, trains, cards and whose turn it is")
    @app_commands.describe(game=GAME_OPTION)
    async def status(self, interaction: discord.Interaction, game: int | None = None) -> None:
        async def work() -> None:
            info = await self.lookup.viewed_game(interaction, game)
            view = await self.reading.public_view(info.id)
            clock: list[str] = []
            if info.started and info.status.active:
                clock = status_lines(await self.reading.clock_status(info.id), seat_labels(info))
            await private(interaction, status_text(info, view, load_board(info.map).rules, clock))

        await guarded(interaction, work)

    @app_commands.command(name="rules", description="The rules of this channel's map, or of another map")
    @app_commands.describe(map="The map (default: this channel's game)")
    @app_commands.choices(map=MAP_CHOICES)
    async def rules(self, interaction: discord.Interaction, map: str | None = None) -> None:
        async def work() -> None:
            name = map
            if name is None:
                info = await game_here(self.reading, interaction)
                name = info.map if info is not None else None
            await private(interaction, rules_text(load_board(name or "usa")))

        await guarded(interaction, work)

    @app_commands.command(name="history", description="What happened so far in this channel's game")
    @app_commands.describe(game=GAME_OPTION)
    async def history(self, interaction: discord.Interaction, game: int | None = None) -> None:
        async def work() -> None:
            info = await self.lookup.viewed_game(interaction, game)
            if info.status is GameStatus.LOBBY:
                raise Refusal(nothing_yet_text(started=False))
            lines = history_lines(info, await self.reading.history(info.id))
            if not lines:
                raise Refusal(nothing_yet_text(started=True))
            texts = pages(lines)

            async def show(page: int) -> Page:
                return texts[page], None

            await send_pages(interaction, len(texts), len(texts) - 1, show, HISTORY_BUTTONS)

        await guarded(interaction, work)

    @app_commands.command(name="replay", description="The board after any turn, with Previous / Next")
    @app_commands.describe(
        turn="The turn, as the history numbers it (0: before the first turn; default: the last one)",
        game=GAME_OPTION,
    )
    async def replay(
        self,
        interaction: discord.Interaction,
        turn: app_commands.Range[int, 0, 10_000] | None = None,
        game: int | None = None,
    ) -> None:
        async def work() -> None:
            info = await self.lookup.viewed_game(interaction, game)
            if not info.started:
                raise Refusal(nothing_yet_text(started=False))
            labels = seat_labels(info)
            language = current_language()  # the pages are the asking member's, in their language
            words = image_words(language)

            async def show(page: int) -> Page:
                with speaking(language):
                    frame = await self.replays.replay_frame(info.id, page, labels, words=words)
                    return replay_caption(info.id, frame.turn, frame.turns), image_file(frame.image, "board.png")

            first = await self.replays.replay_frame(info.id, turn, labels, words=words)
            await send_pages(interaction, first.turns + 1, first.turn, show, REPLAY_BUTTONS)

        await guarded(interaction, work)

    @app_commands.command(name="export", description="The game record (after the end; moderators at any time)")
    @app_commands.describe(game="The game number (default: this channel's latest game)")
    async def export(self, interaction: discord.Interaction, game: int | None = None) -> None:
        async def work() -> None:
            info = await self.lookup.server_game(interaction, game)
            moderator = await is_moderator(self.settings, interaction)
            read = await self.audit.export_record(info.id, interaction.user.id, moderator=moderator)
            file = record_file(info, read.record)
            await private(interaction, file_caption("record", info.id, info.status.value), file=file)
            if read.mod_log is not None:  # a moderator's read of a running game
                await self.delivery.post_mod_log(read.mod_log)

        await guarded(interaction, work)

    @hand.autocomplete("game")
    @board.autocomplete("game")
    @status.autocomplete("game")
    @history.autocomplete("game")
    @replay.autocomplete("game")
    async def game_choices(self, interaction: discord.Interaction, current: str) -> list[app_commands.Choice[int]]:
        """The games of this server the member played, and this channel's latest: newest first."""
        return await self.lookup.game_choices(interaction, current)

    async def _my_game(self, interaction: discord.Interaction) -> GameInfo:
        """This channel's game, if the member plays in it (for autocompletes: they fail quietly)."""
        info = await game_here(self.reading, interaction)
        if info is None:
            raise LookupError("no game here")
        seat = info.seat_of(interaction.user.id)
        if seat is None or seat.player is None:
            raise LookupError("not a player")
        return info
