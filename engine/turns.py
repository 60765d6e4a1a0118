"""Turn flow: whose turn it is, what they must do now, and how a turn ends.

`TurnFlow` also holds what every part of a game shares (board, seats, decks
as dealt, moves, state, the board's extra rules); the other parts of `Game`
build on it.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from engine.errors import (
    AlreadyChosen,
    IllegalMoveError,
    InvalidMoveError,
    MapNames,
    MustKeep,
    MustSecond,
    MustTunnel,
    MustTurn,
    NotAPlayer,
    NotYourTurn,
    NotYourTurnError,
    Refusal,
    SetupTickets,
)
from engine.events import Event
from engine.moves import Claim, DrawCard, DrawTickets, Keep, Move, Pass, TunnelPay
from engine.state import GameState, Pending, Phase, PlayerState
from maps import Board, Rules

if TYPE_CHECKING:
    from engine.extras.registry import Extras


@dataclass(frozen=True)
class ToMove:
    player: str
    must: str  # "keep" | "place" | "turn" | "draw" | "tunnel"


# What may be played while a turn is under way, and what to tell a player who tries something else.
EXPECTED: dict[Pending | None, tuple[type[Move], ...]] = {
    None: (DrawCard, DrawTickets, Claim, Pass),
    Pending.DRAW: (DrawCard,),
    Pending.KEEP: (Keep,),
    Pending.TUNNEL: (TunnelPay,),
}
NEEDED: dict[Pending | None, Callable[[str, MapNames], Refusal]] = {
    None: MustTurn,
    Pending.DRAW: MustSecond,
    Pending.KEEP: MustKeep,
    Pending.TUNNEL: MustTunnel,
}


class TurnFlow:
    """Seats, phases and turns of a game."""

    board: Board
    rules: Rules
    names: list[str]
    seed: str | int
    trains_option: int | None
    pass_round_ends: bool
    initial_cards: list[str]
    initial_tickets: list[int]
    moves: list[Move]
    state: GameState
    extras: Extras

    def seat(self, name: str) -> int:
        try:
            return self.names.index(name)
        except ValueError:
            raise InvalidMoveError(NotAPlayer(name)) from None

    def player(self, name: str) -> PlayerState:
        return self.state.players[self.seat(name)]

    @property
    def finished(self) -> bool:
        return self.state.phase is Phase.OVER

    def placement_order(self) -> list[int]:
        """Seats that place things after the starting tickets (San Francisco's free stacks), in order."""
        return self.extras.placement_order(len(self.names))

    def unplaced_symbols(self) -> list[str]:
        return self.extras.unplaced_symbols(self.state)

    def to_move(self) -> ToMove | None:
        s = self.state
        if s.phase is Phase.OVER:
            return None
        if s.phase is Phase.SETUP_KEEP:
            for p in s.players:
                if not p.setup_done:
                    return ToMove(p.name, "keep")
            raise AssertionError("setup without a player to keep")
        if s.phase is Phase.SETUP_PLACE:
            return ToMove(self.names[self.placement_order()[s.placements]], "place")
        must = s.pending.value if s.pending else "turn"
        return ToMove(self.names[s.current], must)

    def waiting_for(self) -> list[str]:
        """Everyone who may act now (all unchosen players during setup)."""
        s = self.state
        if s.phase is Phase.PLAY:
            return [self.names[s.current]]
        if s.phase is Phase.SETUP_KEEP:
            return [p.name for p in s.players if not p.setup_done]
        tm = self.to_move()
        return [tm.player] if tm else []

    def _check_setup_keep(self, seat: int, move: Move) -> Keep:
        """`move`, unless it does not choose this seat's starting tickets."""
        if not isinstance(move, Keep):
            raise IllegalMoveError(SetupTickets(tuple(self.waiting_for()), MapNames.of(self.rules)))
        if self.state.players[seat].setup_done:
            raise NotYourTurnError(AlreadyChosen(self.names[seat], MapNames.of(self.rules)))
        return move

    def _check_turn(self, seat: int, move: Move) -> None:
        """Raise unless it is this seat's turn and `move` is of a kind the turn allows now."""
        s = self.state
        name = self.names[seat]
        if seat != s.current:
            raise NotYourTurnError(NotYourTurn(self.names[s.current], name))
        if not isinstance(move, EXPECTED[s.pending]):
            raise IllegalMoveError(NEEDED[s.pending](name, MapNames.of(self.rules)))

    def _end_turn(self) -> list[Event]:
        s = self.state
        seat = s.current
        p = s.players[seat]
        s.turn += 1
        events: list[Event] = []
        if s.final_turns is not None:
            s.final_turns -= 1
            if s.final_turns == 0:
                s.phase = Phase.OVER
                return [Event("game_over", None)]
        elif p.trains <= self.rules.end_game_trains:
            s.final_turns = len(s.players)
            s.final_trigger = seat
            events.append(Event("final_round", p.name, {"trains": p.trains}))
        s.current = (seat + 1) % len(s.players)
        return events
