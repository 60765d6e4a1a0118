"""The one handler table: what each action does, for a button or menu and for the commands that share it.

A click or a menu choice arrives as a custom id ("ttr:ACTION:GAME:VERSION
[:ARG...]", bot/views/ids.py) and the values chosen; a command that does the
same as a control (`/ttr hand`, `/ttr draw`, `/ttr claim`, `/ttr tickets`,
`/ttr keep`) reads its options into the same request. Either way the
request's handler below runs. A click on an outdated stage message is refused
with a link to the current one.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass

import discord

from bot.present.answers import no_card_there_text, no_longer_used_text, out_of_date_text
from bot.present.misread import not_offered_text
from bot.service import GameInfo, Must
from bot.service.claims import ClaimAsk
from bot.table import confirm
from bot.table.delivery import message_url
from bot.table.lobby import Lobby
from bot.table.lookup import Lookup
from bot.table.parsing import MAX_TEXT, small_number
from bot.table.plan_panel import plan_chosen
from bot.table.play import Play
from bot.table.stage import StageMessages
from bot.table.unanswered import asked
from bot.views.ids import Action, ComponentId
from bot.views.lobby import LobbyAction
from bot.views.pay_codes import parse_pay_code
from bot.views.ratelimit import admitted, uncount
from bot.views.replies import Refusal, guarded
from engine.moves import DrawCard, Pass, PlaceStack, TunnelPay, payment_of


@dataclass(frozen=True)
class Request:
    """One action asked for: `version` is the game's version the control showed (None from a command)."""

    action: Action
    version: int | None = None
    args: tuple[str, ...] = ()
    values: tuple[str, ...] = ()
    claim: ClaimAsk | None = None  # a claim typed (`/ttr claim`): read by the command, not from codes

    def arg(self, index: int, default: str = "") -> str:
        return self.args[index] if index < len(self.args) else default

    def value(self) -> str:
        """The one value a menu sent; refused if it sent none, or one no menu of this bot offers."""
        if not self.values or not self.values[0] or len(self.values[0]) > MAX_TEXT:
            raise Refusal(not_offered_text())
        return self.values[0]

    def ticket_ids(self) -> list[int]:
        """The ticket ids chosen; refused if any is not a ticket id as the menu sends them."""
        ids = [small_number(v) for v in self.values]
        if len(self.values) > MAX_TEXT or None in ids:
            raise Refusal(not_offered_text())
        return [i for i in ids if i is not None]


Handler = Callable[[Play, discord.Interaction, GameInfo, Request], Awaitable[None]]


async def _hand(play: Play, interaction: discord.Interaction, info: GameInfo, request: Request) -> None:
    await play.show_hand(interaction, info)


async def _decide(play: Play, interaction: discord.Interaction, info: GameInfo, request: Request) -> None:
    await play.show_panel(interaction, info)


async def _draw(play: Play, interaction: discord.Interaction, info: GameInfo, request: Request) -> None:
    source = request.arg(0)
    if source in ("", "none"):
        raise Refusal(no_card_there_text())
    await play.act(interaction, info, lambda player: DrawCard(player, source), request.version)


async def _pass(play: Play, interaction: discord.Interaction, info: GameInfo, request: Request) -> None:
    await play.act(interaction, info, Pass, request.version)


async def _claim(play: Play, interaction: discord.Interaction, info: GameInfo, request: Request) -> None:
    await play.claim_menu(interaction, info)


async def _tickets(play: Play, interaction: discord.Interaction, info: GameInfo, request: Request) -> None:
    # the button asks first (bot/table/confirm.py); typed, `/ttr tickets` is deliberate and draws at once
    if request.version is not None and await confirm.ask_draw_tickets(play, interaction, info, request.version):
        return
    await play.draw_tickets(interaction, info, request.version)


async def _tickets_ok(play: Play, interaction: discord.Interaction, info: GameInfo, request: Request) -> None:
    await play.draw_tickets(interaction, info, request.version)


async def _tunnel(play: Play, interaction: discord.Interaction, info: GameInfo, request: Request) -> None:
    choice = request.arg(0)
    pay = None if choice == "giveup" else payment_of(parse_pay_code(choice))
    await play.act(interaction, info, lambda player: TunnelPay(player, pay), request.version)


async def _setup_keep(play: Play, interaction: discord.Interaction, info: GameInfo, request: Request) -> None:
    await play.keep(interaction, info, request.ticket_ids(), None)


async def _keep(play: Play, interaction: discord.Interaction, info: GameInfo, request: Request) -> None:
    await play.keep(interaction, info, request.ticket_ids(), request.version)


def _claimed(route: str, pay: str | None = None, souvenir: str | None = None) -> ClaimAsk:
    """The claim a control asks for: the route id and the payment code as the control carries them, read once and
    handed to the service as they are (no route text to find again)."""
    route_id = small_number(route)
    if route_id is None:
        raise Refusal(not_offered_text())
    return ClaimAsk((route_id,), None if pay is None else parse_pay_code(pay), souvenir)


async def _route(play: Play, interaction: discord.Interaction, info: GameInfo, request: Request) -> None:
    # a route from the menu, or `/ttr claim` without cards: confirmed first if the member confirms their moves
    claim = request.claim or _claimed(request.value())
    confirming = await confirm.confirming(play, interaction.user.id)
    await play.claim(interaction, info, claim, request.version, confirm=confirming)


async def _pay_pick(play: Play, interaction: discord.Interaction, info: GameInfo, request: Request) -> None:
    # another payment for the claim being confirmed: asked again, paid so
    claim = _claimed(request.arg(0), request.value())
    await play.claim(interaction, info, claim, request.version, confirm=True)


async def _claim_ok(play: Play, interaction: discord.Interaction, info: GameInfo, request: Request) -> None:
    claim = _claimed(request.arg(0), request.arg(1))
    await play.claim(interaction, info, claim, request.version, confirm=False)


async def _cancel(play: Play, interaction: discord.Interaction, info: GameInfo, request: Request) -> None:
    await confirm.cancelled(interaction)


async def _pay(play: Play, interaction: discord.Interaction, info: GameInfo, request: Request) -> None:
    claim = request.claim or _claimed(request.arg(0), request.value())
    await play.claim(interaction, info, claim, request.version, confirm=False)


async def _souvenir(play: Play, interaction: discord.Interaction, info: GameInfo, request: Request) -> None:
    claim = _claimed(request.arg(0), request.arg(1), request.value())
    await play.claim(interaction, info, claim, request.version, confirm=False)


async def _symbol(play: Play, interaction: discord.Interaction, info: GameInfo, request: Request) -> None:
    assert request.version is not None  # a menu's choice: it carries the version it was shown at
    await play.choose_spot(interaction, info, request.value(), request.version)


async def _plan(play: Play, interaction: discord.Interaction, info: GameInfo, request: Request) -> None:
    await plan_chosen(play.plans, interaction, info, request.value())


async def _spot(play: Play, interaction: discord.Interaction, info: GameInfo, request: Request) -> None:
    symbol, at = request.arg(0), request.value()
    await play.act(interaction, info, lambda player: PlaceStack(player, symbol, at), request.version)


HANDLERS: Mapping[Action, Handler] = {
    Action.HAND: _hand,
    Action.SETUP: _decide,
    Action.PLACE: _decide,
    Action.DRAW: _draw,
    Action.PASS: _pass,
    Action.CLAIM: _claim,
    Action.TICKETS: _tickets,
    Action.TUNNEL: _tunnel,
    Action.SETUPKEEP: _setup_keep,
    Action.KEEP: _keep,
    Action.ROUTE: _route,
    Action.PAY: _pay,
    Action.SOUVENIR: _souvenir,
    Action.SYMBOL: _symbol,
    Action.SPOT: _spot,
    Action.TICKETSOK: _tickets_ok,
    Action.CLAIMOK: _claim_ok,
    Action.PAYPICK: _pay_pick,
    Action.CANCEL: _cancel,
    Action.PLAN: _plan,
}


class Controls:
    """What the persistent buttons and menus call (bot/views/items.py), and the commands that act alike."""

    def __init__(self, lookup: Lookup, play: Play, stage: StageMessages, lobby: Lobby | None = None) -> None:
        self.lookup = lookup
        self.reading = lookup.reading
        self.play = play
        self.stage = stage
        self.lobby = lobby

    async def handle(self, interaction: discord.Interaction, info: GameInfo, request: Request) -> None:
        """Run a request's handler (inside the caller's `guarded`).

        A command repeated after the answer to the same command failed, the
        game unchanged since, is answered that the move counted and not made
        again (bot/table/unanswered.py). A control cannot act twice anyway:
        it carries the version it was shown at.
        """
        key = (request.action.value, request.version, request.args, request.values, request.claim)
        if interaction.type is discord.InteractionType.application_command and await self.play.repeated(
            interaction, info, key
        ):
            return
        token = asked.set(key)
        try:
            await HANDLERS[request.action](self.play, interaction, info, request)
        finally:
            asked.reset(token)

    async def _second_card(self, info: GameInfo, user_id: int, version: int | None) -> int | None:
        """The version a card button of the current turn message acts at: its own, or, while the member who
        tapped it draws the second card of their turn (the first one moved the game on, but not to a new turn
        message), none: the button takes its card (its colour, or the deck) as the turn is now. Unless the answer
        to that first card failed: then the same tap again is a retry, refused as shown before the game moved on."""
        if version is None or version == info.version:
            return version
        if self.play.unanswered.pending(info.id, user_id, info.version):
            return version  # the answer to the first card failed: a tap again is taken for a retry, not a second card
        waiting = await self.reading.waiting(info.id)
        if waiting is not None and waiting.must is Must.DRAW and user_id in waiting.user_ids:
            return None
        return version

    async def on_component(self, interaction: discord.Interaction, cid: ComponentId, values: list[str]) -> None:
        if not await admitted(interaction):  # the member's command rate (bot/views/ratelimit.py)
            return

        async def work() -> None:
            info = await self.lookup.component_game(interaction, cid.game)
            if cid.action in set(LobbyAction) and self.lobby is not None:  # the lobby message's buttons: no stage
                await self.lobby.pressed(interaction, info, LobbyAction(cid.action))
                return
            message = interaction.message
            if message is not None and not message.flags.ephemeral:
                latest = await self.stage.latest(info.id)
                if latest != message.id:
                    raise Refusal(out_of_date_text(message_url(info, latest) if latest else None))
            try:
                action = Action(cid.action)
            except ValueError:
                raise Refusal(no_longer_used_text()) from None
            version: int | None = cid.version
            if message is not None and not message.flags.ephemeral and action is Action.DRAW:
                version = await self._second_card(info, interaction.user.id, version)
            waiting = await self.reading.waiting(info.id)
            await self.handle(interaction, info, Request(action, version, cid.args, tuple(values)))
            if waiting is not None and interaction.user.id in waiting.user_ids:
                if (await self.lookup.reading.game(info.id)).version != info.version:
                    # a move in the member's own turn: the game paces those (against the autopilot, whose turns
                    # take no time, one turn follows another at once), so it does not count against their rate
                    uncount(interaction)

        await guarded(interaction, work, in_place=True)  # a tap on a private panel answers in that panel
