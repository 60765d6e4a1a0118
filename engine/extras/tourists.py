"""San Francisco's tourists: stacks of souvenir tokens, taken by claiming routes.

Some stacks start on their home places; the players place the others before
play starts. Claiming a route takes one token from a stack at one of its ends
whose symbol the player lacks; at the end each player scores by the number of
different symbols they hold.

State: the stacks by place (GameState.stacks), how many the players have
placed (GameState.placements), each player's souvenirs in the order taken
(PlayerState.souvenirs), and the souvenir a pending tunnel would take
(TunnelState.souvenir). It adds the setup phase Phase.SETUP_PLACE and the
PlaceStack move.
"""

from __future__ import annotations

from functools import partial
from typing import Any

from engine.errors import (
    BothTokens,
    HoldsStack,
    IllegalMoveError,
    InvalidMoveError,
    NotAnEnd,
    NotAPlace,
    NotAStack,
    NoToken,
    NotYourTurnError,
    SetupStack,
    StackTurn,
)
from engine.events import Action, Event
from engine.extras.base import SouvenirRule
from engine.extras.host import FlowHost
from engine.moves import Move, PlaceStack
from engine.scoring import Network, PlayerScore
from engine.state import GameState, Phase, Stack
from maps import Board, Route
from maps.board import TouristRules


class Tourists(SouvenirRule):
    def __init__(self, board: Board) -> None:
        super().__init__(board)
        assert board.rules.tourists is not None
        self.tourists: TouristRules = board.rules.tourists

    @staticmethod
    def applies(board: Board) -> bool:
        return board.rules.tourists is not None

    # ----- stacks --------------------------------------------------------------

    def setup(self, state: GameState) -> None:
        size = self.tourists.stack_size[len(state.players)]
        for symbol, home in self.tourists.fixed:
            state.stacks[home] = Stack(symbol, size)

    def placement_order(self, players: int) -> list[int]:
        """Two players: the second places every free stack; more: the last seats, backwards."""
        if players == 2:
            return [1] * len(self.tourists.placed)
        return [players - 1 - i for i in range(len(self.tourists.placed))]

    def placement_size(self, players: int) -> int:
        return 1 if players == 2 else self.tourists.stack_size[players]

    def unplaced_symbols(self, state: GameState) -> list[str]:
        on_board = {st.symbol for st in state.stacks.values()}
        return [sym for sym in self.tourists.placed if sym not in on_board]

    def placement_moves(self, game: FlowHost, seat: int) -> list[Move]:
        s = game.state
        if self.placement_order(len(game.names))[s.placements] != seat:
            return []
        name = game.names[seat]
        return [
            PlaceStack(name, sym, place)
            for sym in self.unplaced_symbols(s)
            for place in self.board.places
            if place not in s.stacks
        ]

    def plan_placement(self, game: FlowHost, seat: int, move: Move) -> Action:
        s = game.state
        placer = self.placement_order(len(game.names))[s.placements]
        if not isinstance(move, PlaceStack):
            raise IllegalMoveError(SetupStack(game.names[placer]))
        if placer != seat:
            raise NotYourTurnError(StackTurn(game.names[placer], game.names[seat]))
        remaining = self.unplaced_symbols(s)
        if move.symbol not in remaining:
            raise IllegalMoveError(NotAStack(move.symbol, tuple(remaining)))
        at = self.board.resolve_place(move.at)
        if at is None or at not in self.board.places:
            raise InvalidMoveError(NotAPlace(move.at))
        if at in s.stacks:
            raise IllegalMoveError(HoldsStack(at))
        return partial(self._place, game, seat, move.symbol, at)

    def _place(self, game: FlowHost, seat: int, symbol: str, at: str) -> list[Event]:
        s = game.state
        players = len(game.names)
        size = self.placement_size(players)
        s.stacks[at] = Stack(symbol, size)
        s.placements += 1
        events = [Event("place", game.names[seat], {"symbol": symbol, "at": at, "tokens": size})]
        if s.placements == len(self.placement_order(players)):
            s.phase = Phase.PLAY
            events.append(Event("setup_done", None))
        return events

    # ----- souvenirs -----------------------------------------------------------

    def souvenir_ends(self, state: GameState, seat: int, route: Route) -> tuple[str, ...]:
        owned = set(state.players[seat].souvenirs)
        out = []
        for end in route.ends:
            st = state.stacks.get(end)
            if st and st.tokens > 0 and st.symbol not in owned:
                out.append(end)
        return tuple(out)

    def claim_souvenir(self, game: FlowHost, seat: int, route: Route, asked: str | None) -> str | None:
        qualifying = self.souvenir_ends(game.state, seat, route)
        name = game.names[seat]
        if asked is not None:
            end = self.board.resolve_place(asked)
            if end not in route.ends:
                raise IllegalMoveError(NotAnEnd(asked, route.a, route.b))
            if end not in qualifying:
                raise IllegalMoveError(NoToken(name, end))
            return end
        if len(qualifying) == 2:
            raise IllegalMoveError(BothTokens(route.a, route.b, name))
        return qualifying[0] if qualifying else None

    def after_claim(
        self, state: GameState, seat: int, route: Route, souvenir: str | None, public: dict[str, Any]
    ) -> None:
        if souvenir is None:
            return
        stack = state.stacks[souvenir]
        stack.tokens -= 1
        state.players[seat].souvenirs.append(stack.symbol)
        public["souvenir"] = {"symbol": stack.symbol, "at": souvenir}

    def bonus(self, state: GameState, scores: list[PlayerScore], networks: list[Network]) -> None:
        for sc, p in zip(scores, state.players, strict=True):
            sc.bonus["tourists"] = self.tourists.bonus[len(set(p.souvenirs))]
