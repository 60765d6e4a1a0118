"""A planned turn, worked out: given a game and a player's plan, which item applies now, the moves it makes, and
why each item before it does not apply. Pure: no I/O, the game it is given is never changed.

A plan is a short ordered list of items (`PlanItem`). When the player's turn begins, the first item whose
condition holds is played; an item that cannot be played is skipped, never guessed at. Every condition is the
engine's own answer ("may this move be made, and if not why", a typed `Refusal`, from `Game.check` and
`Game.route_status`): nothing here re-implements a rule. A plan fails closed: it makes only the moves its item
names, and where the turn needs a new decision (a tunnel's extra cards, tickets to keep, a second card that
cannot be drawn as planned) it stops and the turn waits for the player.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from bot.service.payments import default_payment
from engine import Game, GameError, Move, Pending, Phase, Refusal
from engine.autopilot import Level, choose_move
from engine.errors import AlreadyClaimed, BothTokens, OtherTrackTaken, OwnOtherTrack, TooFewPieces
from engine.moves import Claim, DrawCard, DrawTickets, payment_of

MAX_ITEMS = 5  # the longest plan a player may set
DECK = "deck"


class ItemKind(StrEnum):
    CLAIM = "claim"  # claim `route`, paying `pay` (None: the default payment), if it is still free and they can
    CARDS = "cards"  # take the face-up `first` if one is showing, then `second` if showing, else from the deck
    DECK = "deck"  # draw two cards from the deck
    TICKETS = "tickets"  # draw tickets (the turn then waits for the player's choice)


@dataclass(frozen=True)
class PlanItem:
    kind: ItemKind
    route: int | None = None  # CLAIM: the board's route id
    pay: tuple[tuple[str, int], ...] | None = None  # CLAIM: the cards to pay (None: the default payment)
    first: str | None = None  # CARDS: the face-up colour to take first
    second: str | None = None  # CARDS: the colour for the second card (from the deck when not showing); None: deck

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"kind": self.kind.value}
        if self.route is not None:
            out["route"] = self.route
        if self.pay is not None:
            out["pay"] = dict(self.pay)
        if self.first is not None:
            out["first"] = self.first
        if self.second is not None:
            out["second"] = self.second
        return out

    @staticmethod
    def from_json(data: dict[str, Any]) -> PlanItem:
        pay = data.get("pay")
        return PlanItem(
            ItemKind(data["kind"]),
            route=data.get("route"),
            pay=None if pay is None else payment_of({str(c): int(n) for c, n in pay.items()}),
            first=data.get("first"),
            second=data.get("second"),
        )


def plan_text(items: Sequence[PlanItem]) -> str:
    """A plan as the store keeps it (JSON)."""
    return json.dumps([item.to_json() for item in items], sort_keys=True, separators=(",", ":"))


def plan_of(text: str) -> tuple[PlanItem, ...]:
    """A plan from its stored text."""
    return tuple(PlanItem.from_json(item) for item in json.loads(text))


class Ending(StrEnum):
    """How a planned turn ended."""

    PLAYED = "played"  # an item was played and the turn is over
    WAITS = "waits"  # an item was begun and the turn waits for a decision of the player (`stop` says why)
    NONE_APPLIED = "none_applied"  # no item could be played: the turn waits for the player
    NOT_NOW = "not_now"  # it is not the start of the player's turn: nothing was tried


class StopReason(StrEnum):
    """Why a begun item left the turn to the player."""

    TUNNEL = "tunnel"  # the tunnel asks for extra cards
    TICKETS = "tickets"  # tickets drawn: the player chooses which to keep
    SECOND_CARD = "second_card"  # the second card cannot be drawn as planned (`refusal` says why)
    SOUVENIR = "souvenir"  # the claim takes a souvenir at either end: the player chooses which (`refusal`)


@dataclass(frozen=True)
class Skipped:
    """An item that did not apply: the engine's refusal (None: no payment of the player's cards pays for the route)."""

    index: int
    item: PlanItem
    refusal: Refusal | None


@dataclass(frozen=True)
class PlanOutcome:
    ending: Ending
    skipped: tuple[Skipped, ...] = ()
    played: int | None = None  # the index of the item played (or begun)
    moves: tuple[Move, ...] = ()  # the moves to make, in order
    stop: StopReason | None = None
    refusal: Refusal | None = None  # SECOND_CARD: the engine's refusal of the second card; SOUVENIR: the choice


# the refusals of a claim that are about the route or the pieces, not the cards paid
_NOT_PAYMENT = (AlreadyClaimed, OwnOtherTrack, OtherTrackTaken, TooFewPieces)


def turn_begins(game: Game, player: str) -> bool:
    """Whether `player` is at the start of their turn (nothing of it done yet)."""
    to_move = game.to_move()
    return (
        game.state.phase is Phase.PLAY and to_move is not None and to_move.player == player and to_move.must == "turn"
    )


def _refusal(game: Game, move: Move) -> Refusal | None:
    try:
        game.check(move)
    except GameError as exc:
        return exc.refusal
    return None


def _claim(game: Game, player: str, item: PlanItem) -> Move | Refusal | None:
    """The claim the item names, or why it cannot be made (None: the cards cannot pay for it)."""
    if item.route is None or not 0 <= item.route < len(game.board.routes):
        return None
    route = game.board.routes[item.route]
    if item.pay is not None:
        move = game.claim_for(player, route, dict(item.pay))
        return _refusal(game, move) or move
    option = next((o for o in game.claim_options(player) if o.route.id == route.id), None)
    if option is not None:
        pay = default_payment(list(option.payments))
        move = game.claim_for(player, route, pay)
        return _refusal(game, move) or move
    # why not: the engine's refusal of the route or the pieces, else the cards (there is no payment to name)
    why = _refusal(game, game.claim_for(player, route, Counter()))
    return why if isinstance(why, _NOT_PAYMENT) else None


def _first_move(game: Game, player: str, item: PlanItem) -> Move | Refusal | None:
    if item.kind is ItemKind.CLAIM:
        return _claim(game, player, item)
    if item.kind is ItemKind.CARDS:
        move: Move = DrawCard(player, item.first or DECK)
    elif item.kind is ItemKind.DECK:
        move = DrawCard(player, DECK)
    else:
        move = DrawTickets(player)
    return _refusal(game, move) or move


def _second_card(game: Game, player: str, item: PlanItem) -> Move | Refusal:
    """The second card's draw: the planned colour if it is showing, else from the deck."""
    if item.kind is ItemKind.CARDS and item.second not in (None, DECK):
        move = DrawCard(player, str(item.second))
        if game.state.piles.slot_of(move.source) is not None:
            return _refusal(game, move) or move
    move = DrawCard(player, DECK)
    return _refusal(game, move) or move


def evaluate(game: Game, player: str, items: Sequence[PlanItem]) -> PlanOutcome:
    """What the plan does at the start of `player`'s turn in `game` (which is not changed)."""
    if not turn_begins(game, player):
        return PlanOutcome(Ending.NOT_NOW)
    skipped: list[Skipped] = []
    for index, item in enumerate(items):
        first = _first_move(game, player, item)
        if isinstance(first, BothTokens):  # a choice the plan did not make: nothing is played, the turn waits
            return PlanOutcome(Ending.WAITS, tuple(skipped), None, (), StopReason.SOUVENIR, first)
        if not isinstance(first, Move):
            skipped.append(Skipped(index, item, first))
            continue
        after = game.copy()
        after.apply(first)
        to_move = after.to_move()
        pending = after.state.pending if to_move is not None and to_move.player == player else None
        done = tuple(skipped)
        if pending is Pending.TUNNEL:
            return PlanOutcome(Ending.WAITS, done, index, (first,), StopReason.TUNNEL)
        if pending is Pending.KEEP:
            return PlanOutcome(Ending.WAITS, done, index, (first,), StopReason.TICKETS)
        if pending is Pending.DRAW:
            second = _second_card(after, player, item)
            if not isinstance(second, Move):
                return PlanOutcome(Ending.WAITS, done, index, (first,), StopReason.SECOND_CARD, second)
            return PlanOutcome(Ending.PLAYED, done, index, (first, second))
        return PlanOutcome(Ending.PLAYED, done, index, (first,))
    return PlanOutcome(Ending.NONE_APPLIED, tuple(skipped))


def suggestion(game: Game, player: str, level: Level = Level.STRONG) -> tuple[PlanItem, ...]:
    """What the autopilot at `level` would play if `player`'s turn were now and nothing changed before it, as a
    plan: its move, then two cards from the deck as the fallback. It reads only what the player may know: the
    second card of a draw is planned from the deck (a face-up card's replacement is not known yet)."""
    now = game.copy()
    state = now.state
    if state.phase is not Phase.PLAY:
        return (PlanItem(ItemKind.DECK),)
    state.current, state.pending, state.tunnel = now.seat(player), None, None
    move = choose_move(now, player, level)
    fallback = PlanItem(ItemKind.DECK)
    if isinstance(move, Claim):
        return (PlanItem(ItemKind.CLAIM, route=_claimed_route(now, move), pay=move.pay), fallback)
    if isinstance(move, DrawTickets):
        return (PlanItem(ItemKind.TICKETS), fallback)
    if isinstance(move, DrawCard) and move.source != DECK:
        return (PlanItem(ItemKind.CARDS, first=move.source), fallback)
    return (fallback,)


def _claimed_route(game: Game, move: Claim) -> int:
    """The route a legal claim takes: of the tracks between its places (of its colour, if it names one), the first
    the player may claim by the engine's double-route rules."""
    seat = game.seat(move.player)
    tracks = [r for r in game.board.routes_between(move.a, move.b) if move.route is None or r.color == move.route]
    return next((r.id for r in tracks if game.route_status(seat, r) is None), tracks[0].id)
