"""A player's claims now as a lazy sequence (`ClaimMoves`): counted on the board's claim index, each built only
when asked for."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Protocol, overload

from engine import payment as pay_rules
from engine.claim_index import ClaimIndex, route_ids
from engine.events import Action
from engine.extras.registry import Extras
from engine.moves import Claim, Move
from engine.state import GameState
from maps import Board, Route, Rules


class ClaimSource(Protocol):
    """What `ClaimMoves` reads of the game (its `Claims` part): the board's claim index, which routes a seat can
    pay, and the claims it lists and vouches for."""

    board: Board
    rules: Rules
    state: GameState
    extras: Extras
    _index: ClaimIndex
    _vouched: tuple[Move, Action] | None

    def _payable(self, seat: int) -> tuple[int, dict[int, int], int]: ...

    def _can_claim_any(self, seat: int) -> bool: ...

    def _claim_action(self, seat: int, rid: int, move: Claim) -> Action: ...

    def _list_claims(self, name: str, seat: int, bits: int, doubled: set[int]) -> list[Claim]: ...


class ClaimMoves(Sequence[Claim]):
    """The claims of one player now, in the order `legal_moves` lists them: by route, payment, souvenir.

    Whether there is any, and how many, is counted on the board's claim index
    without building a move; indexing builds one route's payments only.
    Random play picks from it with `rng.choice`, which draws the same index as
    from the full list, so games stay the same. A claim it builds is vouched
    for: `apply` carries it out without checking it again, as long as it is
    the very object built here and no move was applied since.
    """

    __slots__ = ("_bits", "_counted", "_counts", "_doubled", "_game", "_len", "_name", "_seat")

    def __init__(self, game: ClaimSource, name: str, seat: int | None) -> None:
        self._game = game
        self._name = name
        self._seat = seat  # None: this player may not claim now
        self._counted = False  # the rest is set by `_count`

    def _count(self) -> None:
        if self._counted:
            return
        self._counted = True
        self._bits = 0  # the payable routes
        self._counts: dict[int, int] = {}  # payments by shape
        self._doubled: set[int] = set()  # routes whose claim may take either end's souvenir
        self._len = 0
        if self._seat is None:
            return
        game = self._game
        self._bits, self._counts, self._len = game._payable(self._seat)
        if game.extras.has_souvenirs:
            s = game.state
            shape_of = game._index.shape_of
            for rid in route_ids(self._bits):
                if len(game.extras.souvenir_ends(s, self._seat, game.board.routes[rid])) == 2:
                    self._doubled.add(rid)
                    self._len += self._counts[shape_of[rid]]

    def __bool__(self) -> bool:
        if self._counted:
            return self._len > 0
        return self._seat is not None and self._game._can_claim_any(self._seat)

    def __len__(self) -> int:
        self._count()
        return self._len

    def routes(self) -> Iterator[tuple[Route, int, bool]]:
        """Each payable route in board order, its number of payments, and whether either end's souvenir may be taken."""
        self._count()
        shape_of = self._game._index.shape_of
        routes = self._game.board.routes
        for rid in route_ids(self._bits):
            yield routes[rid], self._counts[shape_of[rid]], rid in self._doubled

    @overload
    def __getitem__(self, index: int) -> Claim: ...

    @overload
    def __getitem__(self, index: slice) -> Sequence[Claim]: ...

    def __getitem__(self, index: int | slice) -> Claim | Sequence[Claim]:
        self._count()
        if isinstance(index, slice):
            return [self[i] for i in range(*index.indices(self._len))]
        if index < 0:
            index += self._len
        if not 0 <= index < self._len:
            raise IndexError("claim index out of range")
        shape_of = self._game._index.shape_of
        counts = self._counts
        doubled = self._doubled
        bits = self._bits
        if 2 * index < self._len:  # from the first route on
            while bits:
                low = bits & -bits
                rid = low.bit_length() - 1
                bits ^= low
                size = counts[shape_of[rid]]
                if doubled and rid in doubled:
                    size *= 2
                if index < size:
                    return self._build(rid, index)
                index -= size
        else:  # from the last route back
            back = self._len - 1 - index
            while bits:
                rid = bits.bit_length() - 1
                bits ^= 1 << rid
                size = counts[shape_of[rid]]
                if doubled and rid in doubled:
                    size *= 2
                if back < size:
                    return self._build(rid, size - 1 - back)
                back -= size
        raise AssertionError("unreachable: the sizes add up to the length")

    def _build(self, rid: int, index: int) -> Claim:
        """The `index`th claim of route `rid`, vouched for."""
        seat = self._seat
        assert seat is not None
        game = self._game
        route = game.board.routes[rid]
        souvenir: str | None = None
        if rid in self._doubled:
            index, side = divmod(index, 2)
            souvenir = route.ends[side]
        pay = pay_rules.nth_payment(game.rules, route, game.state.players[seat].hand, index)
        doubled = route.id in game._index.doubled
        # as `claim_for` writes it: the track's colour named where its places have several
        move = Claim(self._name, route.a, route.b, pay, route.color if doubled else None, souvenir)
        game._vouched = (move, game._claim_action(seat, rid, move))
        return move

    def __iter__(self) -> Iterator[Claim]:
        self._count()
        if self._seat is None or not self._bits:
            return iter(())
        return iter(self._game._list_claims(self._name, self._seat, self._bits, self._doubled))
