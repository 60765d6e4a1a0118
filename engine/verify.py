"""Games anyone can verify: a commitment to everything that decides the game, and a hash chain over the moves.

Before the first move the bot publishes the **commitment**: the SHA-256 of
the canonical JSON text of the **committed setup**

    {"deal": D, "map": M, "options": O, "seats": [{"player": P, "user_id": U}, ...], "version": 2}

where M is the map, O the record's `options` (`{}` without any), the seats
are in seat order with the member who held each at the start (as the
record's `conductor.seats` holds them, before any seat change it notes;
`null` where the record names no member), and D is the **deal**: the SHA-256
of the canonical JSON text of `{"cards": [...], "seed": "S", "tickets": [...]}`
(the train-card deck and the ticket deck top first, tickets as record
references, S the seed's text). It reveals nothing usable: the seed is 64
random bits, so the decks cannot be worked back from the hash. When the game
ends the bot reveals the seed and the **head** of the chain: link 0 is the
deal D, link i is the SHA-256 of link i-1, a newline and the canonical JSON
of move i. Anyone holding the record can then recompute both and see that
the map, options, seats, seed and decks are the ones committed to (and that
the decks are what the seed shuffles), and that no move was changed, added
or removed. A record the bot exports carries the committed setup itself
(`conductor.verification.committed`), so `verify` can say which part of a
record differs from it.

Games started before the commitment covered the map, options and seats
published the deal D itself as their commitment; `verify` still accepts
that (and says that it covers the seed and decks only).

Canonical JSON: keys sorted, no spaces (`","` and `":"`), non-ASCII kept as
UTF-8. Hashes are lower-case hex.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from engine.deal import card_deck, ticket_deck
from engine.errors import MoveError, RecordError
from engine.game import Game
from engine.moves import move_to_json
from engine.record import Record, parse_record, replay, resolve_ticket_deck
from maps import load_board

VERSION = 2  # the committed setup's `version`: map, options, seats and the deal (1: the deal alone)

# the parts of the committed setup, and how verify names each when it differs
PARTS = (
    ("map", "the map", "is", "differs"),
    ("options", "the options", "are", "differ"),
    ("seats", "the seats and their members", "are", "differ"),
    ("deal", "the seed and decks", "are", "differ"),
)


def canonical(value: Any) -> bytes:
    """The one text of a JSON value that is hashed."""
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode("utf-8")


def _sha256(value: Any) -> str:
    return hashlib.sha256(canonical(value)).hexdigest()


def commitment(seed: str | int, cards: Sequence[str], tickets: Sequence[Any]) -> str:
    """The deal: the hash of the seed and both decks (`tickets` as record references); link 0 of the chain."""
    return _sha256({"cards": list(cards), "seed": str(seed), "tickets": list(tickets)})


def committed_setup(
    map_name: str,
    options: Mapping[str, Any],
    players: Sequence[str],
    members: Sequence[int | None],
    deal: str,
) -> dict[str, Any]:
    """What the published commitment is the hash of: everything that decides the game."""
    seats = [{"player": p, "user_id": u} for p, u in zip(players, members, strict=True)]
    return {"deal": deal, "map": map_name, "options": dict(options), "seats": seats, "version": VERSION}


def setup_commitment(setup: Mapping[str, Any]) -> str:
    """The commitment published at the start: the hash of the committed setup."""
    return _sha256(dict(setup))


def members_at_start(current: Sequence[int | None], changes: Iterable[Any]) -> list[int | None]:
    """Who held each seat at the start: the holders now, with the seat changes (`replace` entries with `seat` and
    `from_user_id`, oldest first, as the record's `conductor.seat_changes` lists them) taken back, newest first.
    Entries that are not such changes are passed over."""
    members = list(current)
    for change in reversed(list(changes)):
        if not isinstance(change, Mapping) or change.get("action") != "replace":
            continue
        seat, before = change.get("seat"), change.get("from_user_id")
        if type(seat) is int and 0 <= seat < len(members) and (before is None or type(before) is int):
            members[seat] = before
    return members


def record_members(doc: Mapping[str, Any], players: Sequence[str]) -> list[int | None]:
    """The members who held the record's seats at the start (`conductor.seats`, `conductor.seat_changes`)."""
    conductor = doc.get("conductor")
    if not isinstance(conductor, Mapping):
        return [None] * len(players)
    by_player: dict[str, int | None] = {}
    seats = conductor.get("seats")
    for seat in seats if isinstance(seats, list) else []:
        if isinstance(seat, Mapping) and isinstance(seat.get("player"), str):
            user = seat.get("user_id")
            by_player[seat["player"]] = user if type(user) is int else None
    changes = conductor.get("seat_changes")
    return members_at_start([by_player.get(p) for p in players], changes if isinstance(changes, list) else [])


def chain(start: str, moves: Sequence[Any]) -> list[str]:
    """The links after each move (moves in their record form); the last one is the head."""
    links: list[str] = []
    link = start
    for move in moves:
        link = hashlib.sha256(link.encode("ascii") + b"\n" + canonical(move)).hexdigest()
        links.append(link)
    return links


def head(start: str, moves: Sequence[Any]) -> str:
    """The chain's last link (the deal itself before any move)."""
    links = chain(start, moves)
    return links[-1] if links else start


def game_commitment(game: Game) -> str:
    """The deal of a game (its seed and decks as dealt): link 0 of its chain."""
    refs = [game.board.tickets[t].ref() for t in game.initial_tickets]
    return commitment(game.seed, game.initial_cards, refs)


def game_setup(game: Game, members: Sequence[int | None]) -> dict[str, Any]:
    """The committed setup of a game as dealt, `members` holding its seats (in seat order)."""
    options = {} if game.trains_option is None else {"trains": game.trains_option}
    return committed_setup(game.board.name, options, game.names, members, game_commitment(game))


def game_head(game: Game) -> str:
    return head(game_commitment(game), [move_to_json(m) for m in game.moves])


def verification_of(
    seed: str | int,
    cards: Sequence[str],
    tickets: Sequence[Any],
    moves: Sequence[Any],
    setup: Mapping[str, Any] | None = None,
) -> dict[str, Any]:
    """What a record the bot exports carries under `conductor.verification`.

    With the committed `setup` (what the bot does): the commitment is its hash, and the setup itself is
    carried as `committed`; without it, the commitment is the deal alone, as before version 2.
    """
    deal = commitment(seed, cards, tickets)
    links = chain(deal, moves)
    last = links[-1] if links else deal
    if setup is None:
        return {"commitment": deal, "chain": links, "head": last}
    return {
        "version": VERSION,
        "commitment": setup_commitment(setup),
        "committed": dict(setup),
        "chain": links,
        "head": last,
    }


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


def _shown(value: Any) -> str:
    return canonical(value).decode("utf-8")


def _difference(committed: Any, found: Any) -> str:
    """What differs in one part: the seats one by one, anything else as a whole."""
    if isinstance(committed, list) and isinstance(found, list) and len(committed) == len(found):
        lines = [
            f"seat {i + 1}: committed {_shown(was)}, the record has {_shown(now)}"
            for i, (was, now) in enumerate(zip(committed, found, strict=True))
            if was != now
        ]
        return "; ".join(lines)
    return f"committed {_shown(committed)}, the record has {_shown(found)}"


OLDER = "an older commitment: it covers the seed and decks only, not the map, options and seats"


def _check_commitments(verdict: Verdict, claimed: dict[str, Any], setup: dict[str, Any], posted: str | None) -> None:
    """The commitment the record carries and the one the bot posted, against the record's setup."""
    full = setup_commitment(setup)
    deal = setup["deal"]
    committed = claimed.get("committed")
    if committed is not None:
        # the setup the bot committed to, carried by the record: name each part of the record that differs
        if not isinstance(committed, dict):
            committed = {}
        verdict.add(
            "the committed setup in the record is its commitment",
            claimed.get("commitment") == setup_commitment(committed),
        )
        for key, name, are, differ in PARTS:
            same = committed.get(key) == setup[key]
            if same:
                verdict.add(f"{name} {are} as committed", True)
            else:
                verdict.add(f"{name} {differ} from the commitment", False, _difference(committed.get(key), setup[key]))
    elif "commitment" in claimed:
        if claimed["commitment"] == deal:
            verdict.add("the commitment in the record is the seed's and decks'", True, OLDER)
        else:
            verdict.add(
                "the commitment in the record is the record's map, options, seats, seed and decks'",
                claimed["commitment"] == full,
            )
    if posted is not None:
        given = posted.strip().lower()
        if given == deal:
            verdict.add("the posted commitment is the seed's and decks'", True, OLDER)
        else:
            detail = "" if given == full else "the map, options, seats, seed or decks differ from what was committed"
            verdict.add(
                "the posted commitment is the record's map, options, seats, seed and decks'", given == full, detail
            )


def verify(doc: Any, *, posted_commitment: str | None = None, posted_head: str | None = None) -> Verdict:
    """Is this record the game that was committed to?

    Recomputes the committed setup (map, options, seats and their members at
    the start, the deal of seed and decks) and the chain from the moves, and
    compares them with what the record carries (naming each part that differs
    from the setup it says was committed) and with the commitment and head the
    bot posted, when given; checks that the decks are the seed's shuffle and
    that every move replays by the rules.
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
    deal = commitment(record.seed, record.cards, record.tickets)
    setup = committed_setup(record.map, record.options, record.players, record_members(doc, record.players), deal)
    links = chain(deal, record.moves)
    verdict.commitment = setup_commitment(setup)
    verdict.head = links[-1] if links else deal
    claimed = _claimed(doc)
    _check_commitments(verdict, claimed, setup, posted_commitment)
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
