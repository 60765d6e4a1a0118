"""The deal: both decks in their starting order, then the opening hands and ticket offers."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence

from engine.cards import CardPiles
from engine.errors import CardCount, GameError, MapNames, NotTheCardDeck, NotTheTicketDeck
from engine.extras.registry import Extras
from engine.state import GameState, PlayerState
from maps import Board, Rules


def card_deck(rules: Rules, seed: str, cards: Sequence[str] | None) -> list[str]:
    """The train cards top first: `cards` if given (it must be the map's deck), else shuffled by the seed."""
    if cards is None:
        deck = rules.deck()
        random.Random(f"{seed}:cards").shuffle(deck)
        return deck
    deck = list(cards)
    if Counter(deck) != Counter(rules.deck()):
        raise GameError(NotTheCardDeck(_deck_difference(deck, rules.deck()), MapNames.of(rules)))
    return deck


def ticket_deck(board: Board, seed: str, tickets: Sequence[int] | None) -> list[int]:
    """The ticket ids top first: `tickets` if given (each of the map's once), else shuffled by the seed."""
    if tickets is None:
        ids = [t.id for t in board.tickets]
        random.Random(f"{seed}:tickets").shuffle(ids)
    else:
        ids = list(tickets)
        if sorted(ids) != [t.id for t in board.tickets]:
            raise GameError(NotTheTicketDeck(MapNames.of(board.rules)))
    return _canonical_copies(board, ids)


def deal(
    board: Board, names: Sequence[str], trains: int, seed: str, cards: list[str], tickets: list[int], extras: Extras
) -> GameState:
    """The state before the first move: hands dealt, the face-up row laid, tickets offered."""
    rules = board.rules
    s = GameState(
        players=[PlayerState(n, trains) for n in names],
        piles=CardPiles(seed, list(cards)),
        ticket_deck=list(tickets),
    )
    for p in s.players:
        for _ in range(rules.starting_hand):
            card = s.piles.take_top()
            if card is not None:
                p.hand[card] += 1
    s.piles.refill_and_check()
    for p in s.players:
        p.offered = s.ticket_deck[: rules.initial_deal]
        del s.ticket_deck[: rules.initial_deal]
    extras.setup(s)
    return s


def _canonical_copies(board: Board, ticket_ids: list[int]) -> list[int]:
    """Give interchangeable tickets their ids in deck order.

    Records cannot tell two copies of a ticket apart, so a replayed game must
    hand out the same id for the same position as the game that was recorded.
    """
    groups: dict[tuple[str, frozenset[str]], list[int]] = {}
    for t in board.tickets:
        groups.setdefault(t.key, []).append(t.id)
    taken: Counter[tuple[str, frozenset[str]]] = Counter()
    out = []
    for ticket_id in ticket_ids:
        key = board.tickets[ticket_id].key
        out.append(groups[key][taken[key]])
        taken[key] += 1
    return out


def _deck_difference(deck: list[str], expected: list[str]) -> tuple[CardCount, ...]:
    have, want = Counter(deck), Counter(expected)
    return tuple(CardCount(c, have[c], want[c]) for c in sorted(set(have) | set(want)) if have[c] != want[c])
