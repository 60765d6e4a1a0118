"""A game of Ticket to Ride on one board: ask what is legal, check, apply.

`Game` gathers its parts: turn flow (engine/turns.py), card draws
(engine/draws.py), tickets (engine/tickets.py), claims and tunnels
(engine/claims.py), scoring (engine/scoring.py), and the extra rules of its
board (engine/extras/). Every move is first planned, which runs every check
and changes nothing, then carried out.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import partial
from typing import overload

from engine.claim_index import claim_index
from engine.claims import ClaimMoves, ClaimOption, Claims
from engine.deal import card_deck, deal, ticket_deck
from engine.draws import CardDraws
from engine.errors import BadNames, GameError, GameOver, IllegalMoveError, MayNotPass
from engine.events import Action, Event
from engine.extras.registry import Extras
from engine.moves import Claim, DrawCard, DrawTickets, Keep, Move, Pass, TunnelPay, payment_of
from engine.options import MAX_TRAINS_OPTION, MIN_TRAINS_OPTION, check_player_count, check_trains_option
from engine.score_flow import Scoring
from engine.state import Pending, Phase
from engine.tickets import Tickets
from engine.turns import ToMove
from maps import Board

__all__ = ["MAX_TRAINS_OPTION", "MIN_TRAINS_OPTION", "ClaimOption", "Game", "ToMove"]


class CardDrawMoves(Sequence[DrawCard]):
    """The card draws of the player to move, as `legal_moves` lists them, each built when asked for.

    A draw it builds is vouched for, like a claim of `ClaimMoves`.
    """

    def __init__(self, game: Game, name: str, sources: list[str]) -> None:
        self._game = game
        self._name = name
        self._sources = sources

    def __len__(self) -> int:
        return len(self._sources)

    @overload
    def __getitem__(self, index: int) -> DrawCard: ...

    @overload
    def __getitem__(self, index: slice) -> Sequence[DrawCard]: ...

    def __getitem__(self, index: int | slice) -> DrawCard | Sequence[DrawCard]:
        if isinstance(index, slice):
            return [DrawCard(self._name, src) for src in self._sources[index]]
        source = self._sources[index]
        move = DrawCard(self._name, source)
        game = self._game
        slot = None if source == "deck" else game.state.piles.slot_of(source)
        game._vouched = (move, partial(game._draw_card, game.state.current, slot))
        return move


class Game(CardDraws, Tickets, Claims, Scoring):
    """The whole game: board, seats, decks as dealt, moves so far and the state."""

    # in the worlds of an expert's search, what the strong autopilot worked out in any of them (engine/strong.py,
    # `Seat.ticket_path`): the cheapest way to finish a ticket, by ticket and route weights; None elsewhere
    _paths_kept: dict[tuple[int, tuple[float | None, ...]], tuple[float, list[int], int]] | None

    def __init__(
        self,
        board: Board,
        players: Sequence[str],
        seed: str | int,
        trains: int | None = None,
        cards: Sequence[str] | None = None,
        tickets: Sequence[int] | None = None,
        *,
        pass_round_ends: bool = False,
    ) -> None:
        """`pass_round_ends`: the bot's rule that a whole round of passes ends the game (docs/rules.md, "A game
        nobody can finish"); off, as in the game-record specification, a stuck game passes for ever. Every game
        the bot plays has it; a record has it only when it says so (docs/game-record.md, section 9)."""
        rules = board.rules
        names = list(players)
        if len(names) != len(set(names)) or any(not isinstance(n, str) or not n for n in names):
            raise GameError(BadNames())
        check_player_count(rules, len(names))
        if trains is not None:
            check_trains_option(trains)
        self.board = board
        self.rules = rules
        self.names = names
        self.seed = seed
        self.trains_option = trains
        self.pass_round_ends = pass_round_ends
        seed_text = str(seed)
        self.initial_cards = card_deck(rules, seed_text, cards)
        self.initial_tickets = ticket_deck(board, seed_text, tickets)
        self.moves = []
        self._closed_kept = {}
        self._networks_kept = {}
        self._claim_hints = {}
        self._claim_kept = {}
        self._kept_moves = {}
        self._draws_kept = {}
        self._paths_kept = None
        self._index = claim_index(board)
        self.extras = Extras(board)
        start = trains if trains is not None else rules.trains
        self.state = deal(board, names, start, seed_text, self.initial_cards, self.initial_tickets, self.extras)

    def copy(self) -> Game:
        other = Game.__new__(Game)
        other.__dict__.update(self.__dict__)
        other.moves = list(self.moves)
        other.state = self.state.copy()
        other._vouched = None
        other._listed = None
        # what was worked out from the owner map holds for its copy (same claims, in the same order)
        owner, copied = self.state.owner, other.state.owner
        other._closed_kept = {
            seat: (copied, n, bits) for seat, (kept, n, bits) in self._closed_kept.items() if kept is owner
        }
        # and so does a seat's network for its copied routes
        players, copies = self.state.players, other.state.players
        other._networks_kept = {
            seat: (copies[seat].routes, n, network)
            for seat, (kept, n, network) in self._networks_kept.items()
            if kept is players[seat].routes and n == len(kept)
        }
        other._claim_hints = dict(self._claim_hints)  # hints only: each is checked before it is trusted
        return other

    def replay_until(self, n: int) -> Game:
        """A new game from the same deal with this game's first `n` moves applied."""
        if not 0 <= n <= len(self.moves):
            raise ValueError(f"this game has {len(self.moves)} moves; it cannot be replayed until move {n}")
        game = Game(
            self.board,
            self.names,
            self.seed,
            self.trains_option,
            self.initial_cards,
            self.initial_tickets,
            pass_round_ends=self.pass_round_ends,
        )
        for move in self.moves[:n]:
            game.apply(move)
        return game

    def initial(self) -> Game:
        """A new game from the same deal, before any move."""
        return self.replay_until(0)

    # ----- questions ---------------------------------------------------------

    def has_action(self, name: str) -> bool:
        """True when this player, at the start of a turn, has something other than pass."""
        seat = self.seat(name)
        s = self.state
        return (
            s.piles.can_take_blind()
            or any(c is not None for c in s.piles.face_up)
            or bool(s.ticket_deck)
            or self._can_claim_any(seat)
        )

    def legal_moves(self, name: str) -> list[Move]:
        """Every legal move for this player now (payments and keeps enumerated)."""
        s = self.state
        seat = self.seat(name)
        if s.phase is Phase.OVER:
            return []
        if s.phase is Phase.SETUP_KEEP:
            return [] if s.players[seat].setup_done else self._keep_moves(name)
        if s.phase is Phase.SETUP_PLACE:
            return self.extras.placement_moves(self, seat)
        if s.current != seat:
            return []
        if s.pending is Pending.KEEP:
            return self._keep_moves(name)
        if s.pending is Pending.DRAW:
            draws: list[Move] = list(self._list_draws(name, self.card_draws(name)))
            self._listed = (len(self.moves), s, set(map(id, draws)))
            return draws
        if s.pending is Pending.TUNNEL:
            moves: list[Move] = [TunnelPay(name, payment_of(c)) for c in self.tunnel_options(name)]
            return [*moves, TunnelPay(name, None)]
        moves = list(self._list_draws(name, self.card_draws(name)))
        if s.ticket_deck:
            moves.append(DrawTickets(name))
        moves += self._claim_moves(name)
        if not moves:
            moves.append(Pass(name))
        # `apply` carries out the claims and card draws of this list without checking them again (see `_listed`)
        self._listed = (len(self.moves), s, set(map(id, moves)))
        return moves

    def moves_by_kind(self, name: str) -> dict[str, Sequence[Move]]:
        """`legal_moves` grouped by the move's class name, in the same order within each kind.

        At the start of a turn the claims come as a `ClaimMoves`, which counts
        them without building them, so choosing a kind and then one move of it
        costs a few moves built, not all of them.
        """
        s = self.state
        seat = self.seat(name)
        if s.phase is Phase.PLAY and s.current == seat and s.pending is Pending.DRAW:
            return {"DrawCard": CardDrawMoves(self, name, self._card_sources(True))}
        if s.phase is Phase.PLAY and s.current == seat and s.pending is None:
            kinds: dict[str, Sequence[Move]] = {}
            sources = self._card_sources(False)
            if sources:
                kinds["DrawCard"] = CardDrawMoves(self, name, sources)
            if s.ticket_deck:
                kinds["DrawTickets"] = [DrawTickets(name)]
            claims = ClaimMoves(self, name, seat)
            if claims:
                kinds["Claim"] = claims
            if not kinds:
                kinds["Pass"] = [Pass(name)]
            return kinds
        grouped: dict[str, list[Move]] = {}
        for m in self.legal_moves(name):
            grouped.setdefault(type(m).__name__, []).append(m)
        return dict(grouped)

    # ----- checking and applying moves ---------------------------------------

    def check(self, move: Move) -> None:
        """Raise the GameError that `apply(move)` would raise; change nothing."""
        self._plan(move)

    def can(self, move: Move) -> bool:
        """Whether `move` is legal now."""
        try:
            self._plan(move)
        except GameError:
            return False
        return True

    def apply(self, move: Move) -> list[Event]:
        """Check `move` and apply it; on any error nothing has changed."""
        vouched = self._vouched
        if vouched is not None and vouched[0] is move:
            action = vouched[1]
        else:
            action = self._listed_action(move) or self._plan(move)
        self._vouched = None
        self._listed = None
        s = self.state
        resets, reshuffles = s.piles.resets, s.piles.reshuffles
        events = action()
        s.piles.refill_and_check()
        if s.pending is Pending.DRAW and not self._card_sources(True):
            s.pending = None
            events += self._end_turn()
        if s.piles.reshuffles != reshuffles:
            events.insert(0, Event("reshuffle", None, {"count": s.piles.reshuffles - reshuffles}))
        if s.piles.resets != resets:
            events.append(Event("face_up_reset", None, {"count": s.piles.resets - resets}))
        self.moves.append(move)
        return events

    def _listed_action(self, move: Move) -> Action | None:
        """What carries out `move` if `legal_moves` listed this very object since the last move and built it
        as a claim or a card draw, else None."""
        listed = self._listed
        if listed is None or listed[1] is not self.state or listed[0] != len(self.moves) or id(move) not in listed[2]:
            return None
        found = self._kept_moves.get(id(move))
        if found is None or found[0] is not move:
            return None
        if isinstance(move, DrawCard):
            piles = self.state.piles
            slot = None if move.source == "deck" else piles.slot_of(move.source)
            return partial(self._draw_card, self.state.current, slot)
        assert isinstance(move, Claim)
        return self._claim_action(self.state.current, found[1], move)

    def _plan(self, move: Move) -> Action:
        """Run every check of `move` and return what carries it out."""
        s = self.state
        if s.phase is Phase.OVER:
            raise IllegalMoveError(GameOver())
        seat = self.seat(move.player)
        if s.phase is Phase.SETUP_KEEP:
            return self._plan_keep(seat, self._check_setup_keep(seat, move))
        if s.phase is Phase.SETUP_PLACE:
            return self.extras.plan_placement(self, seat, move)
        self._check_turn(seat, move)
        if isinstance(move, DrawCard):
            return self._plan_card_draw(seat, move.source)
        if isinstance(move, DrawTickets):
            return self._plan_ticket_draw(seat)
        if isinstance(move, Keep):
            return self._plan_keep(seat, move)
        if isinstance(move, Claim):
            return self._plan_claim(seat, move)
        if isinstance(move, Pass):
            return self._plan_pass(seat)
        return self.extras.plan_move(self, seat, move)

    def _plan_pass(self, seat: int) -> Action:
        name = self.names[seat]
        if self.has_action(name):
            raise IllegalMoveError(MayNotPass(name))
        return partial(self._pass, seat)

    def _pass(self, seat: int) -> list[Event]:
        events = [Event("pass", self.names[seat]), *self._end_turn()]
        # a whole round of passes (this one and one by each other player just before it, see `passes_in_a_row`)
        # changed nothing: nobody can do anything but pass, now or ever, so the game ends and is scored (when the
        # game has the rule; without it, as in the record specification, the game goes on passing)
        if (
            self.pass_round_ends
            and self.state.phase is not Phase.OVER
            and self.passes_in_a_row() + 1 >= len(self.names)
        ):
            self.state.phase = Phase.OVER
            events.append(Event("game_over", None, {"stalemate": True}))
        return events

    def passes_in_a_row(self) -> int:
        """How many of the last moves were passes, one after another (a pass is a whole turn)."""
        count = 0
        for move in reversed(self.moves):
            if not isinstance(move, Pass):
                break
            count += 1
        return count

    @property
    def stalemate(self) -> bool:
        """True when the game ended because nobody could do anything but pass (a whole round of passes), not by
        its final round."""
        return (
            self.pass_round_ends
            and self.finished
            and self.state.final_turns != 0
            and self.passes_in_a_row() >= len(self.names)
        )
