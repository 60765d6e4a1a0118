"""Playing: a member's moves (draw, tickets, keep, claim, place), their private answers, and what they may look at.

Each move is one service call. The member is answered privately with what
happened for them and what they must decide next (bot/table/decisions.py);
the channel is brought up to date by delivery (bot/table/delivery.py). Whether
a move is allowed is the service's answer: refusals name what would work.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from typing import Protocol, TypeVar

import discord

from bot.present.answers import board_caption, no_tickets_offered_text, not_drawable_text, stale_text
from bot.present.claims import claim_refusal_text, claimable_text, nothing_claimable_text
from bot.present.events import private_text, public_text
from bot.present.i18n import current_language
from bot.present.image_words import image_words
from bot.present.layout import clip_head
from bot.present.lobby import lobby_text
from bot.present.lookup import not_started_text, not_your_turn_text
from bot.present.misread import not_offered_text
from bot.present.retries import move_counted_text, previous_move_counted_text
from bot.present.seats import seat_labels
from bot.present.status import hand_text
from bot.present.words import card_name
from bot.service import ActionResult, EventKind, GameInfo, GameStatus, Must, NotYourTurn, StaleVersion
from bot.service.choices import MoveChoices
from bot.service.claims import ClaimAsk, ClaimQuestion, ClaimRefused, ClaimService
from bot.service.images import Images
from bot.service.member_settings import MemberSettingsService
from bot.service.plans import PlanService
from bot.service.play import PlayService
from bot.service.reading import ReadingService
from bot.table import decisions
from bot.table.claim_questions import question_panel
from bot.table.delivery import SEAT_NEWS, Delivery, message_url
from bot.table.lookup import player_of, waiting_text
from bot.table.parsing import CardTextError, find_routes, parse_cards, parse_draw, parse_keep_numbers
from bot.table.unanswered import UnansweredMoves
from bot.views import panels
from bot.views.replies import Refusal, image_file, private, try_private
from engine.moves import DrawTickets, Move
from maps import load_board

log = logging.getLogger(__name__)
T = TypeVar("T")

# Announcements the acting player is told in other words by their private events or the next panel.
SAID_PRIVATELY = frozenset(
    {
        EventKind.DRAW_DECK,
        EventKind.DRAW_TICKETS,
        EventKind.KEEP,
        EventKind.FINAL_SCORES,
        EventKind.GAME_OVER,
        EventKind.SETUP_DONE,
        EventKind.PLACE_STACKS,
    }
)


# a move the front makes for a member: the engine move, given the player they play (bot/table/lookup.py)
MakeMove = Callable[[str], Move]


def _own_lines(result: ActionResult, user: int) -> list[str]:
    """What a move did for the member who made it (the tickets drawn are shown by the next panel)."""
    said = result.game
    return [
        private_text(said, e)
        for e in result.private_for(user)
        if e.kind is not EventKind.DRAW_TICKETS and e.kind not in SEAT_NEWS
    ]


class PlayParts(Protocol):
    """The parts of the game service the moves and looks use (the service itself has them all)."""

    play: PlayService
    choices: MoveChoices
    claims: ClaimService
    reading: ReadingService
    images: Images
    members: MemberSettingsService  # who wants confirmations (bot/table/confirm.py)
    plans: PlanService  # the member's planned turn (the hand panel's plan menu, bot/table/plan_panel.py)


class Play:
    def __init__(self, parts: PlayParts, delivery: Delivery) -> None:
        self.play, self.choices, self.claims = parts.play, parts.choices, parts.claims
        self.reading, self.images, self.members = parts.reading, parts.images, parts.members
        self.plans = parts.plans
        self.delivery = delivery
        self.unanswered = UnansweredMoves()

    # ----- making a move -------------------------------------------------------------

    async def act(self, interaction: discord.Interaction, info: GameInfo, move: MakeMove, version: int | None) -> None:
        """Make one move for the member (`move`: the engine move, given the player they play), answer them
        privately, and update the channel."""
        user = interaction.user.id
        await self._acted(
            interaction,
            info,
            lambda: self.play.act(info.id, user, move(player_of(info, user)), expected_version=version),
        )

    async def _acted(
        self, interaction: discord.Interaction, info: GameInfo, move: Callable[[], Awaitable[ActionResult]]
    ) -> None:
        result = await self._attempt(interaction, info, move)
        if result is not None:
            await self._told(interaction, result)

    async def _attempt(
        self, interaction: discord.Interaction, info: GameInfo, call: Callable[[], Awaitable[T]]
    ) -> T | None:
        """The service's answer to a member's move; None when the control was outdated (answered here, with what
        to decide now)."""
        user = interaction.user.id
        player_of(info, user)
        try:
            return await call()
        except StaleVersion:
            text, view = await decisions.panel(self.reading, await self.reading.game(info.id), user)
            await private(interaction, stale_text(text), view=view)
            return None
        except NotYourTurn:
            raise Refusal(not_your_turn_text(await waiting_text(self.reading, info))) from None

    async def _told(self, interaction: discord.Interaction, result: ActionResult) -> None:
        """A move made: the member answered privately with what it did and what to decide next, the channel told."""
        user = interaction.user.id
        said = result.game
        answered = False
        waiting = result.waiting
        keeps = waiting is not None and waiting.must is Must.KEEP and user in waiting.user_ids
        if not keeps:  # the table's image is drawn while the answer is written and sent
            self.delivery.stage.ahead.start(said.id)
        try:  # the move is made: whatever happens to the answer, the channel and the others are told
            lines = _own_lines(result, user)
            lines += [public_text(said, e) for e in result.public if e.kind not in SAID_PRIVATELY]
            text, view = await decisions.panel(self.reading, result.game, user)
            offer = None
            if keeps:
                offer = await decisions.offer_image(
                    self.images, self.reading, result.game, user
                )  # tickets drawn: shown on the map
                self.delivery.stage.ahead.start(said.id)  # the table's image after the offer's: theirs first
            if offer is not None:
                text = f"{text}\n{offer[0]}"
            file = None if offer is None else offer[1]
            answered = await try_private(interaction, clip_head("\n".join([*lines, text]), 2000), view=view, file=file)
        except Exception:
            log.exception("game #%d: the answer to user %d's move failed", said.id, user)
        try:
            await self.delivery.deliver(
                result, actor=user if answered else None, interaction=interaction if answered else None
            )
        except Exception:
            log.exception("game #%d: delivering user %d's move failed", said.id, user)
        if not answered:
            self.unanswered.remember(said.id, user, said.version)
            try:
                await self._tell_counted(interaction, result)
            except Exception:
                log.exception("game #%d: could not tell user %d that their move counted", said.id, user)

    async def _tell_counted(self, interaction: discord.Interaction, result: ActionResult) -> None:
        """The answer to a made move failed: tell the member it counted, by a followup, else by DM, else not at all."""
        info, user = result.game, interaction.user.id
        said = _own_lines(result, user)
        url = message_url(info, None)
        try:
            url = message_url(info, await self.delivery.stage.latest(info.id))
            text, view = await decisions.panel(self.reading, await self.reading.game(info.id), user)
            await private(interaction, move_counted_text(info.id, url, said, text), view=view)
            return
        except Exception:
            log.warning("game #%d: could not tell user %d by a followup that their move counted", info.id, user)
        await self.delivery.notifier.dm(user, move_counted_text(info.id, url, said), game_id=info.id)

    async def repeated(self, interaction: discord.Interaction, info: GameInfo, request: tuple[object, ...]) -> bool:
        """Is this the member asking again for a move whose answer failed? Then say it counted; True."""
        user = interaction.user.id
        if not self.unanswered.repeated(info.id, user, request, info.version):
            return False
        text, view = await decisions.panel(self.reading, info, user)
        await private(interaction, previous_move_counted_text(str(request[0]), text), view=view)
        return True

    async def show_panel(self, interaction: discord.Interaction, info: GameInfo) -> None:
        """What the member must decide now (the stage message's main button); a ticket offer with its image."""
        player_of(info, interaction.user.id)
        text, view = await decisions.panel(self.reading, info, interaction.user.id)
        offer = await decisions.offer_image(self.images, self.reading, info, interaction.user.id)
        if offer is not None:
            text = clip_head(f"{text}\n{offer[0]}", 2000)
        await private(interaction, text, view=view, file=None if offer is None else offer[1])

    # ----- cards and tickets ---------------------------------------------------------

    async def card_source(self, interaction: discord.Interaction, info: GameInfo, text: str) -> str:
        """Where a typed draw takes the card from ("deck" or a colour); refused with the draws open now."""
        rules = load_board(info.map).rules
        card = parse_draw(rules, text)
        if card is None:
            player_of(info, interaction.user.id)
            draws = await self.choices.card_draws(info.id, interaction.user.id)
            raise Refusal(not_drawable_text(text, [card_name(rules, c) for c in draws if c != "deck"]))
        return card

    async def draw_tickets(self, interaction: discord.Interaction, info: GameInfo, version: int | None) -> None:
        player_of(info, interaction.user.id)  # refuses before the game starts
        view = await self.reading.private_view(info.id, interaction.user.id)
        if view.your_move and view.must is Must.KEEP:  # already offered (or the start): show the choice again
            await self.show_panel(interaction, info)
            return
        await self.act(interaction, info, DrawTickets, version)

    async def keep(self, interaction: discord.Interaction, info: GameInfo, ids: list[int], version: int | None) -> None:
        # the choice at the start is made by everyone at once: their keeps move the version, so none is checked
        expected = None if info.status is GameStatus.SETUP else version
        user = interaction.user.id
        await self._acted(interaction, info, lambda: self.play.keep(info.id, user, ids, expected))

    async def kept_numbers(
        self, interaction: discord.Interaction, info: GameInfo, numbers: str
    ) -> tuple[int, list[int]]:
        """The tickets a member keeps by their numbers ("1 3"), and the version the offer was made at."""
        player_of(info, interaction.user.id)
        if info.status is GameStatus.LOBBY:
            raise Refusal(not_started_text())
        view = await self.reading.private_view(info.id, interaction.user.id)
        offered = view.offered
        if not offered:
            raise Refusal(no_tickets_offered_text(info.title))
        listed = [(t.id, t.label) for t in offered]
        return view.version, parse_keep_numbers(numbers, listed, view.keep_minimum or 0)

    # ----- claiming ------------------------------------------------------------------

    def claim_asked(self, interaction: discord.Interaction, info: GameInfo, route: str, pay: str | None) -> ClaimAsk:
        """The claim a member typed: the routes their text names (the first they can claim now is taken) and the
        cards they pay with, if they typed any."""
        player_of(info, interaction.user.id)
        board = load_board(info.map)
        routes = tuple(r.id for r in find_routes(board, route))
        if pay is None or not pay.strip():
            return ClaimAsk(routes)
        try:
            return ClaimAsk(routes, parse_cards(board.rules, pay))
        except CardTextError as exc:
            raise Refusal(str(exc)) from None

    async def claim(
        self, interaction: discord.Interaction, info: GameInfo, ask: ClaimAsk, version: int | None, *, confirm: bool
    ) -> None:
        """Claim a route: one service call (bot/service/claims.py), its answer shown: the move made, the question to
        answer first (`confirm`: the member confirms their claims), or why not."""
        user = interaction.user.id
        outcome = await self._attempt(
            interaction,
            info,
            lambda: self.claims.claim(info.id, user, ask, confirm=confirm, expected_version=version),
        )
        if outcome is None:
            return
        if isinstance(outcome, ClaimRefused):
            raise Refusal(claim_refusal_text(load_board(info.map).rules, outcome.refusal))
        if isinstance(outcome, ClaimQuestion):
            text, view = question_panel(info, outcome, version)
            await private(interaction, text, view=view)
            return
        await self._told(interaction, outcome.result)

    async def claim_menu(self, interaction: discord.Interaction, info: GameInfo) -> None:
        """The routes the member may claim now, in menus."""
        player_of(info, interaction.user.id)
        choices = await self.choices.claim_choices(info.id, interaction.user.id)
        if choices.refusal is not None:
            raise Refusal(claim_refusal_text(load_board(info.map).rules, choices.refusal))
        rules = load_board(info.map).rules
        if not choices.routes:
            raise Refusal(nothing_claimable_text(rules))
        current = await self.reading.game(info.id)
        view = panels.route_view(info.id, current.version, rules, choices.listed())
        await private(interaction, claimable_text(len(choices.listed()), rules), view=view)

    # ----- tourist stacks ------------------------------------------------------------

    async def choose_spot(self, interaction: discord.Interaction, info: GameInfo, symbol: str, version: int) -> None:
        """Where the chosen tourist stack goes."""
        player_of(info, interaction.user.id)
        view = await self.reading.private_view(info.id, interaction.user.id)
        if not view.your_move or view.must is not Must.PLACE or view.options is None or view.options.place is None:
            raise Refusal(not_your_turn_text(await waiting_text(self.reading, info)))
        if symbol not in view.options.place.symbols:
            raise Refusal(not_offered_text())
        text, spots = decisions.spot_panel(info.id, version, symbol, view.options.place.places)
        await private(interaction, text, view=spots)

    # ----- looking -------------------------------------------------------------------

    async def show_hand(self, interaction: discord.Interaction, info: GameInfo) -> None:
        player_of(info, interaction.user.id)
        if info.status is GameStatus.LOBBY:
            raise Refusal(not_started_text())
        view = await self.reading.private_view(info.id, interaction.user.id)
        labels = seat_labels(info)
        image = await self.images.hand_image(
            info.id, interaction.user.id, labels, words=image_words(current_language())
        )
        rules = load_board(info.map).rules
        text = hand_text(rules, view)
        # while it is not their turn, the menu to plan it (bot/table/plan_panel.py)
        menu = panels.plan_view(info.id, view.version, rules) if info.status.active and not view.your_move else None
        await private(interaction, text, view=menu, file=image_file(image, "hand.png"))

    async def show_board(self, interaction: discord.Interaction, info: GameInfo) -> None:
        if info.status is GameStatus.LOBBY:
            await private(interaction, lobby_text(info))
            return
        words = image_words(current_language())  # a private answer: in the reader's language
        image = await self.images.board_image(info.id, seat_labels(info), words=words)
        await private(interaction, board_caption(info.id), file=image_file(image, "board.png"))
