"""The state of a game: players, piles, board ownership and what is pending."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from enum import StrEnum

from engine.cards import CardPiles


def counter_copy(counter: Counter[str]) -> Counter[str]:
    """A copy of `counter`, as `Counter(counter)` makes it (same items, same order), only faster."""
    copied: Counter[str] = dict.__new__(Counter)
    dict.update(copied, counter)
    return copied


class Phase(StrEnum):
    SETUP_KEEP = "setup_keep"  # every player chooses starting tickets
    SETUP_PLACE = "setup_place"  # San Francisco: players place the two free stacks
    PLAY = "play"
    OVER = "over"


class Pending(StrEnum):
    """What the player to move must do to finish the turn they began."""

    DRAW = "draw"  # second card of a draw
    KEEP = "keep"  # choose among drawn tickets
    TUNNEL = "tunnel"  # pay the tunnel surcharge or give up


@dataclass
class PlayerState:
    name: str
    trains: int
    hand: Counter[str] = field(default_factory=Counter)
    tickets: list[int] = field(default_factory=list)  # kept ticket ids
    offered: list[int] | None = None  # tickets to choose from, in offer order
    routes: list[int] = field(default_factory=list)  # claimed route ids, in order
    route_points: int = 0
    merchandise: int = 0
    souvenirs: list[str] = field(default_factory=list)  # symbols, in order taken
    setup_done: bool = False

    def copy(self) -> PlayerState:
        return PlayerState(
            self.name,
            self.trains,
            counter_copy(self.hand),
            list(self.tickets),
            None if self.offered is None else list(self.offered),
            list(self.routes),
            self.route_points,
            self.merchandise,
            list(self.souvenirs),
            self.setup_done,
        )

    @property
    def cards(self) -> int:
        return sum(self.hand.values())


@dataclass
class TunnelState:
    route: int
    laid: Counter[str]
    revealed: list[str]
    colour: str | None  # None when the payment was only wilds
    surcharge: int
    souvenir: str | None

    def copy(self) -> TunnelState:
        return TunnelState(
            self.route, counter_copy(self.laid), list(self.revealed), self.colour, self.surcharge, self.souvenir
        )


@dataclass
class Stack:
    symbol: str
    tokens: int


@dataclass
class GameState:
    players: list[PlayerState]
    piles: CardPiles
    ticket_deck: list[int]  # index 0 is the top
    phase: Phase = Phase.SETUP_KEEP
    current: int = 0
    pending: Pending | None = None
    tunnel: TunnelState | None = None
    owner: dict[int, int] = field(default_factory=dict)  # route id -> seat
    final_turns: int | None = None  # turns left once the final round began
    final_trigger: int | None = None  # seat whose turn began the final round
    merchandise_left: int = 0
    stacks: dict[str, Stack] = field(default_factory=dict)  # place -> tourist stack
    placements: int = 0  # San Francisco stacks placed by players so far
    removed_tickets: list[int] = field(default_factory=list)  # Switzerland's returned tickets
    turn: int = 0  # completed turns

    def copy(self) -> GameState:
        return GameState(
            [p.copy() for p in self.players],
            self.piles.copy(),
            list(self.ticket_deck),
            self.phase,
            self.current,
            self.pending,
            None if self.tunnel is None else self.tunnel.copy(),
            dict(self.owner),
            self.final_turns,
            self.final_trigger,
            self.merchandise_left,
            {k: Stack(v.symbol, v.tokens) for k, v in self.stacks.items()},
            self.placements,
            list(self.removed_tickets),
            self.turn,
        )


def card_census(state: GameState) -> Counter[str]:
    """Every card in `state`: deck, discard pile, face-up row, hands, and a tunnel's laid and revealed cards."""
    cards: Counter[str] = Counter(state.piles.deck) + Counter(state.piles.discard)
    cards += Counter(c for c in state.piles.face_up if c is not None)
    for p in state.players:
        cards += p.hand
    if state.tunnel is not None:
        cards += state.tunnel.laid + Counter(state.tunnel.revealed)
    return cards


def ticket_census(state: GameState) -> list[int]:
    """Every ticket id in `state`, sorted: deck, set aside, held and on offer."""
    tickets = list(state.ticket_deck) + list(state.removed_tickets)
    for p in state.players:
        tickets += p.tickets + (p.offered or [])
    return sorted(tickets)
