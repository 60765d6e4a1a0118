"""The moves of a game, as values, and their JSON form in game records."""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from engine.errors import (
    ActionCount,
    BadTicket,
    ClaimNeedsPay,
    ClaimPlaces,
    InvalidMoveError,
    KeepNotAList,
    NotACount,
    NotAnObject,
    NotAText,
    NotCardCounts,
    PassNotTrue,
    PlaceShape,
    UnknownKeys,
)

Payment = tuple[tuple[str, int], ...]  # sorted (card, count) pairs, counts > 0


def payment_of(cards: Mapping[str, int]) -> Payment:
    return tuple(sorted((c, n) for c, n in cards.items() if n > 0))


def payment_counter(pay: Payment) -> Counter[str]:
    """`Counter(dict(pay))`, built without `Counter.__init__` (which only fills it)."""
    counter: Counter[str] = dict.__new__(Counter)
    dict.update(counter, pay)
    return counter


def describe_payment(pay: Payment) -> str:
    return ", ".join(f"{n} {c}" for c, n in pay) or "nothing"


@dataclass(frozen=True)
class TicketRef:
    """A ticket as records name it: [A, B] or [ORIGIN, [COUNTRY, ...]]."""

    origin: str
    dests: tuple[str, ...]
    country: bool = False

    def to_json(self) -> list[Any]:
        if self.country:
            return [self.origin, list(self.dests)]
        return [self.origin, self.dests[0]]


@dataclass(frozen=True)
class Keep:
    player: str
    tickets: tuple[TicketRef, ...]


@dataclass(frozen=True)
class DrawCard:
    player: str
    source: str  # "deck" or a card name taken from the face-up row


@dataclass(frozen=True)
class DrawTickets:
    player: str


@dataclass(frozen=True)
class Claim:
    player: str
    a: str
    b: str
    pay: Payment
    route: str | None = None  # colour of the track, among parallel routes
    souvenir: str | None = None  # San Francisco: the end whose token is taken


def new_claim(player: str, a: str, b: str, pay: Payment, route: str | None, souvenir: str | None) -> Claim:
    """`Claim(player, a, b, pay, route, souvenir)`, the same value built in half the time: its fields set at
    once, in the order its `__init__` sets them one by one (listing claims builds many)."""
    move = _new_object(Claim)
    _set_attribute(
        move, "__dict__", {"player": player, "a": a, "b": b, "pay": pay, "route": route, "souvenir": souvenir}
    )
    return move


_new_object = object.__new__
_set_attribute = object.__setattr__


@dataclass(frozen=True)
class TunnelPay:
    player: str
    pay: Payment | None  # None gives the tunnel up


@dataclass(frozen=True)
class PlaceStack:
    player: str
    symbol: str
    at: str


@dataclass(frozen=True)
class Pass:
    player: str


Move = Keep | DrawCard | DrawTickets | Claim | TunnelPay | PlaceStack | Pass

ACTIONS = ("keep", "draw", "claim", "tunnel", "place", "pass")
CLAIM_EXTRAS = {"pay", "route", "souvenir"}


def _text(value: Any, what: str) -> str:
    if not isinstance(value, str) or not value:
        raise InvalidMoveError(NotAText(what, repr(value)))
    return value


def _count(value: Any, card: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise InvalidMoveError(NotACount(card, repr(value)))
    return value


def parse_payment(value: Any, what: str = "pay") -> Payment:
    if not isinstance(value, dict):
        raise InvalidMoveError(NotCardCounts(what))
    cards: dict[str, int] = {}
    for card, n in value.items():
        cards[_text(card, "a card name")] = _count(n, card)
    return payment_of(cards)


def parse_ticket_ref(value: Any) -> TicketRef:
    bad = InvalidMoveError(BadTicket(repr(value)))
    if not isinstance(value, list) or len(value) != 2:
        raise bad
    origin, dest = value
    if not isinstance(origin, str):
        raise bad
    if isinstance(dest, str):
        return TicketRef(origin, (dest,))
    if isinstance(dest, list) and dest and all(isinstance(d, str) for d in dest):
        return TicketRef(origin, tuple(dest), country=True)
    raise bad


def move_from_json(obj: Any) -> Move:
    """Parse one record move; InvalidMoveError says what is malformed."""
    if not isinstance(obj, dict):
        raise InvalidMoveError(NotAnObject(repr(obj)))
    player = _text(obj.get("player"), "'player'")
    actions = [k for k in obj if k in ACTIONS]
    if len(actions) != 1:
        raise InvalidMoveError(ActionCount(ACTIONS, tuple(actions)))
    action = actions[0]
    allowed = {"player", action} | (CLAIM_EXTRAS if action == "claim" else set())
    unknown = sorted(set(obj) - allowed)
    if unknown:
        raise InvalidMoveError(UnknownKeys(action, tuple(unknown)))
    value = obj[action]
    if action == "keep":
        if not isinstance(value, list):
            raise InvalidMoveError(KeepNotAList())
        return Keep(player, tuple(parse_ticket_ref(t) for t in value))
    if action == "draw":
        source = _text(value, "'draw'")
        if source == "tickets":
            return DrawTickets(player)
        return DrawCard(player, source)
    if action == "claim":
        if not (isinstance(value, list) and len(value) == 2 and all(isinstance(v, str) for v in value)):
            raise InvalidMoveError(ClaimPlaces())
        if "pay" not in obj:
            raise InvalidMoveError(ClaimNeedsPay())
        route = obj.get("route")
        souvenir = obj.get("souvenir")
        return Claim(
            player,
            value[0],
            value[1],
            parse_payment(obj["pay"]),
            None if route is None else _text(route, "'route'"),
            None if souvenir is None else _text(souvenir, "'souvenir'"),
        )
    if action == "tunnel":
        return TunnelPay(player, None if value is None else parse_payment(value, "tunnel"))
    if action == "place":
        if not isinstance(value, dict) or set(value) != {"symbol", "at"}:
            raise InvalidMoveError(PlaceShape())
        return PlaceStack(player, _text(value["symbol"], "'symbol'"), _text(value["at"], "'at'"))
    if value is not True:
        raise InvalidMoveError(PassNotTrue())
    return Pass(player)


def move_to_json(move: Move) -> dict[str, Any]:
    out: dict[str, Any] = {"player": move.player}
    if isinstance(move, Keep):
        out["keep"] = [t.to_json() for t in move.tickets]
    elif isinstance(move, DrawCard):
        out["draw"] = move.source
    elif isinstance(move, DrawTickets):
        out["draw"] = "tickets"
    elif isinstance(move, Claim):
        out["claim"] = [move.a, move.b]
        out["pay"] = dict(move.pay)
        if move.route is not None:
            out["route"] = move.route
        if move.souvenir is not None:
            out["souvenir"] = move.souvenir
    elif isinstance(move, TunnelPay):
        out["tunnel"] = None if move.pay is None else dict(move.pay)
    elif isinstance(move, PlaceStack):
        out["place"] = {"symbol": move.symbol, "at": move.at}
    else:
        out["pass"] = True
    return out
