"""Games anyone can verify: a commitment to everything that decides the game, and a hash chain over its story.

Before the first move the bot publishes the **commitment**: the SHA-256 of
the canonical JSON text of the **committed setup**

    {"deal": D, "map": M, "options": O, "seats": [{"player": P, "user_id": U}, ...], "version": 3}

where M is the map, O the record's `options` (`{}` without any), the seats
are in seat order with the member who held each at the start (as the
record's `conductor.seats` holds them, with the seat changes it notes taken
back; `null` where the record names no member), and D is the **deal**: the
SHA-256 of the canonical JSON text of `{"cards": [...], "seed": "S",
"tickets": [...]}` (the train-card deck and the ticket deck top first,
tickets as record references, S the seed's text). It reveals nothing usable:
the seed is 64 random bits, so the decks cannot be worked back from the hash.

When the game's end is final the bot reveals the seed and the **head** of the
chain: link 0 is the deal D, and each later link is the SHA-256 of the link
before, a newline and the canonical JSON of the next event: the moves in
order, with each seat change (engine/seat_changes.py: a seat given to another
member, handed to the autopilot or taken back) placed after the move it
followed. Without seat changes the chain is the chain over the moves alone.

What each posted value covers: the commitment, the map, options, seats with
their members at the start, seed and decks; the head, the seed and decks and
every move and seat change in order (so it also shows where the record ends).
Both together cover the whole record. A record the bot exports carries the
committed setup itself (`conductor.verification.committed`), so `verify` can
say which part of a record differs from it.

Older versions: setups of version 2 are the same but for their `version`,
and their chain covers the moves only (not the seat changes); games started
before the commitment covered the setup published the deal D itself (version
1). `verify` accepts both, and says what they do not cover.

Canonical JSON: keys sorted, no spaces (`","` and `":"`), non-ASCII kept as
UTF-8. Hashes are lower-case hex.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from engine.deal import card_deck, ticket_deck
from engine.errors import MoveError, RecordError
from engine.game import Game
from engine.moves import move_to_json
from engine.record import Record, parse_record, replay, resolve_ticket_deck
from engine.seat_changes import ChangeError, SeatChange, describe, events, holders, read_changes
from engine.verdict import CHANGES, DEAL, MOVES, OLDER, OLDER_SETUP, SETUP_PARTS, Verdict
from maps import load_board

VERSION = 3  # the committed setup's `version`: 3, the chain covers the seat changes; 2, the moves only; 1: the deal

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
    version: int = VERSION,
) -> dict[str, Any]:
    """What the published commitment is the hash of: everything that decides the game."""
    seats = [{"player": p, "user_id": u} for p, u in zip(players, members, strict=True)]
    return {"deal": deal, "map": map_name, "options": dict(options), "seats": seats, "version": version}


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


def _conductor(doc: Mapping[str, Any]) -> Mapping[str, Any]:
    found = doc.get("conductor")
    return found if isinstance(found, Mapping) else {}


def record_holders(doc: Mapping[str, Any], players: Sequence[str]) -> list[int | None]:
    """The members the record's `conductor.seats` names for its seats (who held them when it was exported)."""
    by_player: dict[str, int | None] = {}
    seats = _conductor(doc).get("seats")
    for seat in seats if isinstance(seats, list) else []:
        if isinstance(seat, Mapping) and isinstance(seat.get("player"), str):
            user = seat.get("user_id")
            by_player[seat["player"]] = user if type(user) is int else None
    return [by_player.get(p) for p in players]


def record_members(doc: Mapping[str, Any], players: Sequence[str]) -> list[int | None]:
    """The members who held the record's seats at the start (`conductor.seats`, `conductor.seat_changes`)."""
    changes = _conductor(doc).get("seat_changes")
    return members_at_start(record_holders(doc, players), changes if isinstance(changes, list) else [])


def chain(start: str, moves: Sequence[Any]) -> list[str]:
    """The links after each event (moves in their record form, seat changes in their link form)."""
    links: list[str] = []
    link = start
    for move in moves:
        link = hashlib.sha256(link.encode("ascii") + b"\n" + canonical(move)).hexdigest()
        links.append(link)
    return links


def head(start: str, moves: Sequence[Any], changes: Sequence[SeatChange] = ()) -> str:
    """The chain's last link (the deal itself before any event)."""
    links = chain(start, events(moves, changes))
    return links[-1] if links else start


def game_commitment(game: Game) -> str:
    """The deal of a game (its seed and decks as dealt): link 0 of its chain."""
    refs = [game.board.tickets[t].ref() for t in game.initial_tickets]
    return commitment(game.seed, game.initial_cards, refs)


def game_setup(game: Game, members: Sequence[int | None]) -> dict[str, Any]:
    """The committed setup of a game as dealt, `members` holding its seats (in seat order)."""
    options = {} if game.trains_option is None else {"trains": game.trains_option}
    return committed_setup(game.board.name, options, game.names, members, game_commitment(game))


def game_head(game: Game, changes: Sequence[SeatChange] = ()) -> str:
    """The head of a game's chain: its moves, with the seat changes (those after its moves are left out)."""
    moves = [move_to_json(m) for m in game.moves]
    return head(game_commitment(game), moves, [c for c in changes if c.after_moves <= len(moves)])


def verification_of(
    seed: str | int,
    cards: Sequence[str],
    tickets: Sequence[Any],
    moves: Sequence[Any],
    setup: Mapping[str, Any] | None = None,
    changes: Sequence[SeatChange] = (),
) -> dict[str, Any]:
    """What a record the bot exports carries under `conductor.verification`.

    With the committed `setup` (what the bot does): the commitment is its hash, and the setup itself is
    carried as `committed`; without it, the commitment is the deal alone, as in version 1. The chain covers the
    moves and the seat `changes` (read from the record's `seat_changes`, engine/seat_changes.py).
    """
    deal = commitment(seed, cards, tickets)
    links = chain(deal, events(moves, changes))
    last = links[-1] if links else deal
    if setup is None:
        return {"commitment": deal, "chain": links, "head": last}
    return {
        "version": setup.get("version", VERSION),
        "commitment": setup_commitment(setup),
        "committed": dict(setup),
        "chain": links,
        "head": last,
    }


def _claimed(doc: dict[str, Any]) -> dict[str, Any]:
    found = _conductor(doc).get("verification")
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


def _check_commitments(verdict: Verdict, claimed: dict[str, Any], setup: dict[str, Any], posted: str | None) -> None:
    """The commitment the record carries and the one the bot posted, against the record's setup (any version)."""
    full, older = setup_commitment(setup), setup_commitment(setup | {"version": 2})
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
            if committed.get(key) == setup[key]:
                verdict.add(f"{name} {are} as committed", True)
            else:
                verdict.add(f"{name} {differ} from the commitment", False, _difference(committed.get(key), setup[key]))
    elif "commitment" in claimed:
        if claimed["commitment"] == deal:
            verdict.add("the commitment in the record is the seed's and decks'", True, OLDER)
        else:
            verdict.add(
                "the commitment in the record is the record's map, options, seats, seed and decks'",
                claimed["commitment"] in (full, older),
            )
    if posted is not None:
        if posted == deal:
            verdict.add("the posted commitment is the seed's and decks'", True, OLDER)
            verdict.cover("the posted commitment", [DEAL])
            return
        same = posted in (full, older)
        detail = OLDER_SETUP if posted == older else "" if same else "the map, options, seats, seed or decks differ"
        verdict.add("the posted commitment is the record's map, options, seats, seed and decks'", same, detail)
        if same:
            verdict.cover("the posted commitment", [*SETUP_PARTS, DEAL])


def _read_changes(verdict: Verdict, doc: dict[str, Any], record: Record, start: list[int | None]) -> list[SeatChange]:
    """The record's seat changes as its chain holds them, checked against who holds the seats now."""
    try:
        changes = read_changes(_conductor(doc).get("seat_changes"), len(record.players), len(record.moves))
    except ChangeError as exc:
        verdict.add("the seat changes can be read", False, str(exc))
        return []
    after = holders(start, changes)
    now = record_holders(doc, record.players)
    detail = after if isinstance(after, str) else "" if after == now else f"they lead to {after}, the record has {now}"
    verdict.add(
        "the seat changes lead from the members at the start to the members the record names now", not detail, detail
    )
    verdict.seat_changes = [describe(c, record.players) for c in changes]
    return changes


def _where_it_ends(verdict: Verdict, record: Record, head_matched: bool) -> None:
    """Replay the moves; where the game stands when they run out, if it has not ended by the rules."""
    try:
        game = replay(record)
    except (RecordError, MoveError) as exc:
        verdict.add("every move is legal", False, str(exc))
        return
    verdict.add("every move is legal", True)
    to_move = game.to_move()
    if to_move is None:
        return
    where = f"the record ends before the game did: after move {len(record.moves)}, {to_move.player} must {to_move.must}"
    if head_matched:
        verdict.notes.append(f"{where}; the posted head ends there too (a moderator ended the game then)")
    else:
        verdict.notes.append(f"{where}; without the head posted at the end nothing shows whether moves are missing")


def verify(doc: Any, *, posted_commitment: str | None = None, posted_head: str | None = None) -> Verdict:
    """Is this record the game that was committed to?

    Recomputes the committed setup (map, options, seats and their members at
    the start, the deal of seed and decks) and the chain from the moves and
    seat changes, and compares them with what the record carries (naming each
    part that differs from the setup it says was committed) and with the
    commitment and head the bot posted, when given; checks that the decks are
    the seed's shuffle and that every move replays by the rules; says what
    each posted value covers, what none covers, and where an unfinished
    record ends.
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
    start = record_members(doc, record.players)
    setup = committed_setup(record.map, record.options, record.players, start, deal)
    given = None if posted_commitment is None else posted_commitment.strip().lower()
    claimed = _claimed(doc)
    version = claimed.get("version")
    # the chain holds the seat changes from version 3 on: what the posted commitment (when of version 3) or else
    # the record says; a record that calls itself older is held to that, and told what it leaves uncovered
    covers_changes = given == setup_commitment(setup) or (type(version) is int and version >= VERSION)
    _check_commitments(verdict, claimed, setup, given)
    changes = _read_changes(verdict, doc, record, start) if covers_changes else []
    links = chain(deal, events(record.moves, changes))
    verdict.commitment = setup_commitment(setup if covers_changes else setup | {"version": 2})
    verdict.head = links[-1] if links else deal
    what = "every link of the record's chain is its move's" + (" or seat change's" if covers_changes else "")
    if "chain" in claimed:
        verdict.add(what, claimed["chain"] == links)
    if "head" in claimed:
        verdict.add("the head in the record is the chain's last link", claimed["head"] == verdict.head)
    head_matched = posted_head is not None and posted_head.strip().lower() == verdict.head
    if posted_head is not None:
        verdict.add("the posted head is the last link of the record's chain", head_matched)
        if head_matched:
            verdict.cover("the posted head", [DEAL, MOVES, *([CHANGES] * covers_changes)])
    if not (claimed or posted_commitment or posted_head):
        verdict.add("there is a commitment to compare with", False, "neither the record nor the command line has one")
    raw = _conductor(doc).get("seat_changes")
    if not covers_changes and isinstance(raw, list) and raw:
        verdict.notes.append(f"the record notes {len(raw)} seat change(s) its chain does not cover (an older record)")
    try:
        shown = [board.tickets[t].key for t in resolve_ticket_deck(board, record.tickets)]
        seed = str(record.seed)
        cards_shuffled = card_deck(board.rules, seed, None) == list(record.cards)
        tickets_shuffled = [board.tickets[t].key for t in ticket_deck(board, seed, None)] == shown
    except RecordError as exc:
        verdict.add("the decks are the map's", False, str(exc))
        return verdict
    verdict.add("the decks are what the seed shuffles", cards_shuffled and tickets_shuffled)
    _where_it_ends(verdict, record, head_matched)
    return verdict
