"""What a player may choose now: the cards they may draw, the routes they may claim (with every way to pay
and the souvenirs they may take), and, as a typed reason, why they cannot claim now or cannot claim a route.
A claim itself, decided and made under one lock: bot/service/claims.py.

Every answer is the engine's (its move options and route checks), asked for
the player alone: the front end builds its menus and refusals from these.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum

from bot.service.core import ServiceCore
from bot.service.dealt import dealt_game, seated
from bot.service.errors import InvalidInput, Why, WrongState
from bot.service.kinds import Must
from bot.service.payments import default_payment, fewest_wilds
from engine import Game, Phase, Refusal
from maps import WILD, Board, Route


class ClaimBlock(StrEnum):
    """Why a claim cannot be made."""

    NOT_UNDER_WAY = "not_under_way"  # routes are claimed once the turns have begun (and until the end)
    NOT_YOUR_TURN = "not_your_turn"  # `to_move` is to move
    FINISH_FIRST = "finish_first"  # the player must first do `must` (a second card, a ticket choice, a tunnel)
    ROUTE_TAKEN = "route_taken"  # the route or its double is closed to the player; `reason` is the engine's refusal
    TOO_FEW_TRAINS = "too_few_trains"  # the route needs `needs` pieces, the player has `has`
    CANNOT_PAY = "cannot_pay"  # the player's cards cannot pay for the route
    NOT_OFFERED = "not_offered"  # the payment named is none of the route's (a forged or outdated control)


@dataclass(frozen=True)
class ClaimRefusal:
    block: ClaimBlock
    to_move: str | None = None
    must: Must | None = None
    route: Route | None = None
    reason: Refusal | None = None
    needs: int = 0
    has: int = 0


@dataclass(frozen=True)
class Souvenir:
    """A tourist token the player may take at an end of the route they claim."""

    place: str
    symbol: str


@dataclass(frozen=True)
class RouteChoice:
    """A route the player may claim now, every payment the rules allow, and the souvenirs on offer.

    Two souvenirs: the player must say which one they take.
    """

    route: Route
    payments: tuple[Counter[str], ...]
    souvenirs: tuple[Souvenir, ...]

    def _fewest_wilds(self) -> list[Counter[str]]:
        return fewest_wilds(self.payments)

    def default_payment(self) -> Counter[str]:
        """The payment made when the player names none: of those with the fewest wilds, the first."""
        return default_payment(self.payments)

    def colour_to_choose(self) -> bool:
        """Do the payments with the fewest wilds pay in different colours? Then the player chooses the payment."""
        return len({_paid_colour(p) for p in self._fewest_wilds()}) > 1


def _paid_colour(pay: Mapping[str, int]) -> str:
    colours = [c for c in pay if c != WILD and pay[c] > 0]
    return colours[0] if colours else WILD


@dataclass(frozen=True)
class ClaimChoices:
    """The routes a player may claim now; `refusal` says why there are none while it is not their turn."""

    player: str
    refusal: ClaimRefusal | None
    routes: tuple[RouteChoice, ...]

    def listed(self) -> tuple[RouteChoice, ...]:
        """The routes as a player is offered them: two free tracks that look alike once, as the first one
        (a claim takes the first free track of the two)."""
        ends = {frozenset(c.route.ends) for c in self.routes if c.route.track == 1}
        return tuple(c for c in self.routes if c.route.track != 2 or frozenset(c.route.ends) not in ends)

    def route(self, route_id: int) -> RouteChoice | None:
        return next((c for c in self.routes if c.route.id == route_id), None)


_TURN_BLOCKS = frozenset({ClaimBlock.NOT_UNDER_WAY, ClaimBlock.NOT_YOUR_TURN, ClaimBlock.FINISH_FIRST})


@dataclass(frozen=True)
class RouteClaim:
    """A claim of a route the player named, considered once: `route` is the first of the routes named that they
    can claim now (else the first named), `choice` its payments and souvenirs, `refusal` why it cannot be
    claimed now (None when `choice` is set)."""

    route: Route
    choice: RouteChoice | None
    refusal: ClaimRefusal | None

    def refused(self, *, paid: bool) -> ClaimRefusal | None:
        """Why the claim is refused before it is tried. With a payment named only the turn is checked here:
        the route and the cards are the move's own checks."""
        if paid and self.refusal is not None and self.refusal.block not in _TURN_BLOCKS:
            return None
        return self.refusal


def route_claim(game: Game, player: str, seat: int, routes: Sequence[Route]) -> RouteClaim:
    """A claim of one of the routes a player named (one text may name two tracks), from the engine's claim options
    asked for once: the first they can claim now with its payments and souvenirs, or why they cannot claim the
    first. The game is only read."""
    if not routes:
        raise InvalidInput(Why.NO_SUCH_ROUTE, {"route_id": None})
    refusal = turn_refusal(game, player)
    if refusal is not None:
        return RouteClaim(routes[0], None, refusal)
    # listed lazily: only the payments of the route taken are worked out (read here, before the game changes)
    options = {option.route.id: option for option in game.claim_options(player, lazy=True)}
    for route in routes:
        option = options.get(route.id)
        if option is not None:
            souvenirs = tuple(Souvenir(end, game.state.stacks[end].symbol) for end in option.souvenirs)
            return RouteClaim(route, RouteChoice(route, tuple(option.payments), souvenirs), None)
    return RouteClaim(routes[0], None, _route_refusal(game, seat, routes[0]))


def turn_refusal(game: Game, player: str) -> ClaimRefusal | None:
    to_move = game.to_move()
    if game.state.phase is not Phase.PLAY or to_move is None:
        return ClaimRefusal(ClaimBlock.NOT_UNDER_WAY)
    if to_move.player != player:
        return ClaimRefusal(ClaimBlock.NOT_YOUR_TURN, to_move=to_move.player)
    if to_move.must != Must.TURN:
        return ClaimRefusal(ClaimBlock.FINISH_FIRST, must=Must(to_move.must))
    return None


def board_route(board: Board, route_id: int) -> Route:
    """The board's route of this id; InvalidInput for an id it has not."""
    if not 0 <= route_id < len(board.routes):
        raise InvalidInput(Why.NO_SUCH_ROUTE, {"route_id": route_id, "map": board.name})
    return board.routes[route_id]


class MoveChoices:
    def __init__(self, core: ServiceCore) -> None:
        self.core = core

    async def card_draws(self, game_id: int, user_id: int) -> tuple[str, ...]:
        """Where this player may draw a card from now: "deck" and face-up colours (none when it is not their turn)."""
        dealt = await dealt_game(self.core, game_id)
        _, player, _ = seated(dealt.info, user_id)
        return tuple(dealt.game.card_draws(player))

    async def claim_choices(self, game_id: int, user_id: int) -> ClaimChoices:
        dealt = await dealt_game(self.core, game_id)
        game = dealt.game
        _, player, _ = seated(dealt.info, user_id)
        refusal = turn_refusal(game, player)
        routes: tuple[RouteChoice, ...] = ()
        if refusal is None:
            routes = tuple(
                RouteChoice(
                    option.route,
                    tuple(option.payments),
                    tuple(Souvenir(end, game.state.stacks[end].symbol) for end in option.souvenirs),
                )
                for option in game.claim_options(player)
            )
        return ClaimChoices(player, refusal, routes)

    async def claim_refusal(self, game_id: int, user_id: int, route_id: int) -> ClaimRefusal | None:
        """Why this player cannot claim the route now; None if they can. (A claim itself: bot/service/claims.py.)"""

        async def work() -> ClaimRefusal | None:
            live = await self.core.live(game_id)
            if live.game is None:
                raise WrongState(Why.NOT_DEALT)
            _, player, seat = seated(live.info, user_id)
            return route_claim(live.game, player, seat, [board_route(live.game.board, route_id)]).refusal

        return await self.core.locked(game_id, work)


def _route_refusal(game: Game, seat: int, route: Route) -> ClaimRefusal:
    """Why a player whose turn it is cannot claim this route."""
    status = game.route_status(seat, route)
    if status is not None:
        return ClaimRefusal(ClaimBlock.ROUTE_TAKEN, route=route, reason=status)
    trains = game.state.players[seat].trains
    if route.length > trains:
        return ClaimRefusal(ClaimBlock.TOO_FEW_TRAINS, route=route, needs=route.length, has=trains)
    return ClaimRefusal(ClaimBlock.CANNOT_PAY, route=route)
