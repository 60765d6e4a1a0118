"""Games anyone can verify: a commitment to the seed and both decks, and a hash chain over the moves.

Before the first move the bot publishes the **commitment**: the SHA-256 of
the canonical JSON text of `{"cards": [...], "seed": "S", "tickets": [...]}`
(the train-card deck and the ticket deck top first, tickets as record
references, S the seed's text). It reveals nothing usable: the seed is 64
random bits, so the decks cannot be worked back from the hash. When the
game ends the bot reveals the seed and the **head** of the chain: link 0 is
the commitment, link i is the SHA-256 of link i-1, a newline and the
canonical JSON of move i. Anyone holding the record can then recompute both
and see that the decks are the ones committed to (and are what the seed
shuffles), and that no move was changed, added or removed.

Canonical JSON: keys sorted, no spaces (`","` and `":"`), non-ASCII kept as
UTF-8. Hashes are lower-case hex.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from engine.deal import card_deck, ticket_deck
from engine.errors import MoveError, RecordError
from engine.game import Game
from engine.moves import move_to_json
from engine.record import Record, parse_record, replay, resolve_ticket_deck
from maps import load_board


def canonical(value: Any) -> bytes:
    """The one text of a JSON value that is hashed."""
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode("utf-8")


def commitment(seed: str | int, cards: Sequence[str], tickets: Sequence[Any]) -> str:
    """The hash published at the start: of the seed and both decks (`tickets` as record references)."""
    return hashlib.sha256(canonical({"cards": list(cards), "seed": str(seed), "tickets": list(tickets)})).hexdigest()


def chain(start: str, moves: Sequence[Any]) -> list[str]:
    """The links after each move (moves in their record form); the last one is the head."""
    links: list[str] = []
    link = start
    for move in moves:
        link = hashlib.sha256(link.encode("ascii") + b"\n" + canonical(move)).hexdigest()
        links.append(link)
    return links


def head(start: str, moves: Sequence[Any]) -> str:
    """The chain's last link (the commitment itself before any move)."""
    links = chain(start, moves)
    return links[-1] if links else start


def game_commitment(game: Game) -> str:
    """The commitment of a game as it was dealt."""
    refs = [game.board.tickets[t].ref() for t in game.initial_tickets]
    return commitment(game.seed, game.initial_cards, refs)


def game_head(game: Game) -> str:
    return head(game_commitment(game), [move_to_json(m) for m in game.moves])


def verification_of(
    seed: str | int, cards: Sequence[str], tickets: Sequence[Any], moves: Sequence[Any]
) -> dict[str, Any]:
    """What a record the bot exports carries under `conductor.verification`."""
    start = commitment(seed, cards, tickets)
    links = chain(start, moves)
    return {"commitment": start, "chain": links, "head": links[-1] if links else start}


@dataclass
class Check:
    """One thing `verify` checked: what, whether it holds, and the detail."""

    what: str
    ok: bool
    detail: str = ""


@dataclass
class Verdict:
    checks: list[Check] = field(default_factory=list)
    commitment: str | None = None
    head: str | None = None

    @property
    def ok(self) -> bool:
        return bool(self.checks) and all(c.ok for c in self.checks)

    def add(self, what: str, ok: bool, detail: str = "") -> None:
        self.checks.append(Check(what, ok, detail))


def _claimed(doc: dict[str, Any]) -> dict[str, Any]:
    conductor = doc.get("conductor")
    found = conductor.get("verification") if isinstance(conductor, dict) else None
    return found if isinstance(found, dict) else {}


def verify(doc: Any, *, posted_commitment: str | None = None, posted_head: str | None = None) -> Verdict:
    """Is this record the game that was committed to?

    Recomputes the commitment from the record's seed and decks and the chain
    from its moves, and compares them with what the record carries (and with
    the commitment and head the bot posted, when given); checks that the
    decks are the seed's shuffle and that every move replays by the rules.
    """
    verdict = Verdict()
    try:
        record: Record = parse_record(doc)
    except RecordError as exc:
        verdict.add("the record can be read", False, str(exc))
        return verdict
    if record.cards is None or record.tickets is None:
        verdict.add("the record holds both decks", False, "a record without `decks` cannot be checked")
        return verdict
    board = load_board(record.map)
    start = commitment(record.seed, record.cards, record.tickets)
    links = chain(start, record.moves)
    verdict.commitment = start
    verdict.head = links[-1] if links else start
    claimed = _claimed(doc)
    if "commitment" in claimed:
        verdict.add("the commitment in the record is the seed's and decks'", claimed["commitment"] == start)
    if posted_commitment is not None:
        verdict.add("the posted commitment is the seed's and decks'", posted_commitment.strip().lower() == start)
    if "chain" in claimed:
        verdict.add("every link of the record's chain is its move's", claimed["chain"] == links)
    if "head" in claimed:
        verdict.add("the head in the record is the last move's", claimed["head"] == verdict.head)
    if posted_head is not None:
        verdict.add("the posted head is the last move's", posted_head.strip().lower() == verdict.head)
    if not (claimed or posted_commitment or posted_head):
        verdict.add("there is a commitment to compare with", False, "neither the record nor the command line has one")
    try:
        given = [board.tickets[t].key for t in resolve_ticket_deck(board, record.tickets)]
        seed = str(record.seed)
        cards_shuffled = card_deck(board.rules, seed, None) == list(record.cards)
        tickets_shuffled = [board.tickets[t].key for t in ticket_deck(board, seed, None)] == given
    except RecordError as exc:
        verdict.add("the decks are the map's", False, str(exc))
        return verdict
    verdict.add("the decks are what the seed shuffles", cards_shuffled and tickets_shuffled)
    try:
        replay(record)
    except (RecordError, MoveError) as exc:
        verdict.add("every move is legal", False, str(exc))
    else:
        verdict.add("every move is legal", True)
    return verdict
