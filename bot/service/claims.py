"""A claim, as one call: the route and the payment considered and the move made under one lock, on one copy.

`ClaimService.claim(game_id, user_id, ask, confirm=..., expected_version=...)`
is the entry point for any front (the Discord table's buttons and `/ttr claim`,
a planned turn): it reads the game as committed under the game's lock, asks
the engine for the player's claim options once, and answers one of

- `Claimed`: the claim was made (the move, and the autopilot's moves after it, as any action's result);
- `ClaimQuestion`: nothing was done; the member must first say something (`Ask`): confirm the route and
  payment, pick the payment where the colour is a choice, or pick the souvenir where the route has two;
  the answer is a second call of its own, carrying the choice;
- `ClaimRefused`: nothing was done, and why (`ClaimRefusal`, bot/service/choices.py).

Like every part, it raises the service's errors for the rest: another version than
`expected_version` (StaleVersion), not a player, a paused game, and the engine's
refusal of the move itself (RuleViolation, when a payment was named). A tunnel's
surcharge and a tourist stack's placement are moves of their own after the claim
(the game then waits for them: `Waiting.must`).

Only the move copies the game (the runner's step: `ServiceCore.working_copy`); a
question or a refusal copies nothing.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass
from enum import StrEnum

from bot.service.checks import check_id, check_version
from bot.service.choices import ClaimBlock, ClaimRefusal, RouteChoice, Souvenir, board_route, route_claim
from bot.service.core import ServiceCore
from bot.service.dealt import seated
from bot.service.errors import IdKind, Why, WrongState
from bot.service.loading import LiveGame
from bot.service.play import PlayService, clock_retried
from bot.service.results import ActionResult
from maps import Route


@dataclass(frozen=True)
class ClaimAsk:
    """A claim as a member asks for it: the routes named by id (the first they can claim now is taken; a button
    names one, a typed text may name the tracks between two places), the cards to pay (None: the default
    payment, or the question which one where the colour is a choice) and the place of the souvenir taken where
    there are two."""

    routes: tuple[int, ...]
    pay: Mapping[str, int] | None = None
    souvenir: str | None = None


class Ask(StrEnum):
    """What a member must say before the claim is made."""

    CONFIRM = "confirm"  # the member confirms their moves: this route, paid `pay` (or another of `payments`)?
    PAYMENT = "payment"  # the payments with the fewest wilds differ in colour: which of `payments`?
    SOUVENIR = "souvenir"  # the route has a souvenir at both ends: which of `souvenirs`? (paid `pay`)


@dataclass(frozen=True)
class ClaimQuestion:
    """Nothing done yet: the member is asked (`ask`) about the claim of `route`, as the game is at `version`."""

    ask: Ask
    route: Route
    pay: Counter[str]  # the payment as it stands: the one named, else the default (`RouteChoice.default_payment`)
    payments: tuple[Counter[str], ...]  # every payment the rules allow
    souvenirs: tuple[Souvenir, ...]
    version: int


@dataclass(frozen=True)
class Claimed:
    """The claim was made: the action's result."""

    result: ActionResult


@dataclass(frozen=True)
class ClaimRefused:
    """Nothing done: why the claim cannot be made."""

    refusal: ClaimRefusal


ClaimOutcome = Claimed | ClaimQuestion | ClaimRefused


class ClaimService:
    def __init__(self, core: ServiceCore, play: PlayService) -> None:
        self.core = core
        self.play = play

    async def claim(
        self,
        game_id: int,
        user_id: int,
        ask: ClaimAsk,
        *,
        confirm: bool = False,
        expected_version: int | None = None,
    ) -> ClaimOutcome:
        """Claim a route for the player seated as `user_id`: one lock, the game as committed, the engine's options
        asked for once, then the move (on the one copy the move needs) or the question or the refusal.

        `confirm`: the member confirms claims first: a claim the rules allow is answered `Ask.CONFIRM` (with
        `expected_version` checked first), not made. `expected_version`: the version the control was shown at
        (None from a typed command); the move is refused with StaleVersion unless the game is still there.
        """
        user_id = check_id(user_id, IdKind.USER)

        async def attempt() -> ClaimOutcome:
            return await self._claim(await self.core.live(game_id), user_id, ask, confirm, expected_version)

        tried = clock_retried(attempt)

        async def work() -> ClaimOutcome:
            outcome = await tried()
            if isinstance(outcome, ClaimRefused) and await self.core.stale(game_id):
                # refused by a copy another process has outdated (as `core.act` does for a refused move)
                self.core.forget(game_id)
                outcome = await tried()
            return outcome

        return await self.core.act(game_id, work)

    async def _claim(
        self, live: LiveGame, user_id: int, ask: ClaimAsk, confirm: bool, expected_version: int | None
    ) -> ClaimOutcome:
        """The claim decided on the game as committed and, if it is to be made, made; the caller holds the lock."""
        info, game = live.info, live.game
        if game is None:
            raise WrongState(Why.NOT_DEALT)
        _, player, seat = seated(info, user_id)
        routes = [board_route(game.board, route_id) for route_id in ask.routes]
        if confirm:
            check_version(info, expected_version)  # a confirmation is never asked from an outdated control
        claim = route_claim(game, player, seat, routes)
        paid = ask.pay is not None
        refusal = claim.refused(paid=paid and not confirm)
        if refusal is not None:
            return ClaimRefused(refusal)
        route, option = claim.route, claim.choice
        if option is None:  # a payment named for a route the rules refuse now: the move says why, in its words
            move = game.claim_for(player, route, ask.pay or {}, ask.souvenir)
            return Claimed(await self.play.move_now(live, user_id, move, expected_version))
        pay = Counter(ask.pay) if ask.pay is not None else option.default_payment()
        if confirm:
            if ask.pay is not None and not _offered(pay, option):
                return ClaimRefused(ClaimRefusal(ClaimBlock.NOT_OFFERED, route=route))
            return _question(Ask.CONFIRM, option, pay, info.version)
        if not paid and option.colour_to_choose():
            return _question(Ask.PAYMENT, option, pay, info.version)
        if ask.souvenir is None and len(option.souvenirs) == 2:
            return _question(Ask.SOUVENIR, option, pay, info.version)
        move = game.claim_for(player, route, pay, ask.souvenir)
        return Claimed(await self.play.move_now(live, user_id, move, expected_version))


def _offered(pay: Counter[str], option: RouteChoice) -> bool:
    """Is `pay` one of the route's payments (cards counted, zeros ignored)?"""
    wanted = +pay
    return any(+p == wanted for p in option.payments)


def _question(ask: Ask, option: RouteChoice, pay: Counter[str], version: int) -> ClaimQuestion:
    return ClaimQuestion(ask, option.route, pay, option.payments, option.souvenirs, version)
