"""Game records (docs/game-record.md): read, write and replay them."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from engine.errors import GameError, MoveError, RecordError
from engine.game import Game
from engine.moves import Move, move_from_json, move_to_json, parse_ticket_ref
from engine.options import check_trains_option
from engine.tickets import ticket_key
from maps import MAP_NAMES, Board, load_board

FORMAT = 1
KNOWN_OPTIONS = {"trains"}
# a Conductor extension (docs/game-record.md, section 9): true when a whole round of passes ends the game; the
# specification does not know it, and a record without it replays strictly by the specification
PASS_ROUND_ENDS = "pass_round_ends"


@dataclass
class Record:
    map: str
    players: list[str]
    seed: str | int
    options: dict[str, Any] = field(default_factory=dict)
    cards: list[str] | None = None
    tickets: list[Any] | None = None  # ticket references as in the record
    moves: list[Any] = field(default_factory=list)  # raw JSON moves, parsed one by one when replayed
    pass_round_ends: bool = False  # the record's `pass_round_ends`


def _fail(message: str) -> RecordError:
    return RecordError(message)


def parse_record(doc: Any) -> Record:
    """Check the record's frame (not its moves); RecordError says what is wrong."""
    if not isinstance(doc, dict):
        raise _fail("a game record must be a JSON object")
    if "format" in doc and (type(doc["format"]) is not int or doc["format"] != FORMAT):
        raise _fail(f"unknown record format {doc['format']!r}; this bot reads format {FORMAT}")
    name = doc.get("map")
    if name not in MAP_NAMES:
        raise _fail(f"unknown map {name!r}; the maps are {', '.join(MAP_NAMES)}")
    players = doc.get("players")
    if not isinstance(players, list) or not players or not all(isinstance(p, str) and p for p in players):
        raise _fail("'players' must be a list of non-empty names")
    if len(set(players)) != len(players):
        raise _fail("player names must be unique")
    if "seed" not in doc:
        raise _fail("the record has no 'seed'")
    seed = doc["seed"]
    if isinstance(seed, bool) or not isinstance(seed, (str, int)):
        raise _fail("'seed' must be a text or a whole number")
    options = doc.get("options", {})
    if options is None:
        options = {}
    if not isinstance(options, dict):
        raise _fail("'options' must be an object")
    unknown = sorted(set(options) - KNOWN_OPTIONS)
    if unknown:
        raise _fail(f"unknown option(s): {', '.join(unknown)}")
    if "trains" in options:
        try:
            check_trains_option(options["trains"])
        except GameError as exc:
            raise _fail(str(exc)) from None
    cards = tickets = None
    decks = doc.get("decks")
    if decks is not None:
        if not isinstance(decks, dict):
            raise _fail("'decks' must be an object with 'cards' and 'tickets'")
        cards = decks.get("cards")
        tickets = decks.get("tickets")
        if not isinstance(cards, list) or not all(isinstance(c, str) for c in cards):
            raise _fail("decks.cards must be the list of all train cards, top first")
        if not isinstance(tickets, list):
            raise _fail("decks.tickets must be the list of all tickets, top first")
    moves = doc.get("moves", [])
    if not isinstance(moves, list):
        raise _fail("'moves' must be a list")
    pass_round_ends = doc.get(PASS_ROUND_ENDS, False)
    if not isinstance(pass_round_ends, bool):
        raise _fail(f"'{PASS_ROUND_ENDS}' must be true or false")
    return Record(name, list(players), seed, dict(options), cards, tickets, moves, pass_round_ends)


def resolve_ticket_deck(board: Board, refs: list[Any]) -> list[int]:
    """Ticket ids for a record's ticket deck; equal references take equal cards in turn."""
    free: dict[tuple[str, frozenset[str]], list[int]] = {}
    for t in board.tickets:
        free.setdefault(t.key, []).append(t.id)
    ids = []
    for i, raw in enumerate(refs):
        try:
            key = ticket_key(board, parse_ticket_ref(raw))
        except GameError as exc:
            raise _fail(f"decks.tickets[{i}]: {exc}") from None
        if not free.get(key):
            raise _fail(f"decks.tickets[{i}] {raw!r} is not a ticket of this map, or appears too often")
        ids.append(free[key].pop(0))
    if len(ids) != len(board.tickets):
        raise _fail(f"decks.tickets has {len(ids)} tickets; the {board.rules.title} deck has {len(board.tickets)}")
    return ids


def new_game(record: Record) -> Game:
    board = load_board(record.map)
    tickets = None if record.tickets is None else resolve_ticket_deck(board, record.tickets)
    try:
        return Game(
            board,
            record.players,
            record.seed,
            record.options.get("trains"),
            record.cards,
            tickets,
            pass_round_ends=record.pass_round_ends,
        )
    except GameError as exc:
        raise _fail(str(exc)) from None


def replay(record: Record, stop_at: int | None = None) -> Game:
    """Play the record's moves; MoveError names the first one that is not legal."""
    game = new_game(record)
    moves = record.moves if stop_at is None else record.moves[:stop_at]
    for index, raw in enumerate(moves):
        try:
            move: Move = move_from_json(raw)
            game.apply(move)
        except GameError as exc:
            raise MoveError(index, exc) from None
    return game


def to_record(game: Game) -> dict[str, Any]:
    """The game as a record with explicit decks; it replays to the same state.

    A game with the rule that a whole round of passes ends it says so (`pass_round_ends`: true); a game
    without it writes a record of the specification alone.
    """
    doc: dict[str, Any] = {
        "format": FORMAT,
        "map": game.board.name,
        "players": list(game.names),
        "seed": game.seed,
    }
    if game.trains_option is not None:
        doc["options"] = {"trains": game.trains_option}
    if game.pass_round_ends:
        doc[PASS_ROUND_ENDS] = True
    doc["decks"] = {
        "cards": list(game.initial_cards),
        "tickets": [game.board.tickets[t].ref() for t in game.initial_tickets],
    }
    doc["moves"] = [move_to_json(m) for m in game.moves]
    return doc


def outcome(game: Game) -> dict[str, Any]:
    """What `python -m bot replay` prints for a game that replayed."""
    s = game.state
    finished = game.finished
    scores = game.score()
    players = []
    for p, sc in zip(s.players, scores, strict=True):
        entry: dict[str, Any] = {
            "name": p.name,
            "score": sc.total if finished else p.route_points,
            "trains": p.trains,
            "routes": p.route_points,
            "tickets": (
                {"completed": sc.completed, "failed": sc.failed, "points": sc.ticket_points} if finished else None
            ),
            "longest": sc.longest,
            "bonus": dict(sc.bonus) if finished else None,
            "merchandise_cards": p.merchandise,
            "souvenirs": len(set(p.souvenirs)),
        }
        players.append(entry)
    to_move = game.to_move()
    return {
        "map": game.board.name,
        "finished": finished,
        "to_move": None if to_move is None else {"player": to_move.player, "must": to_move.must},
        "players": players,
        "winners": game.winners() if finished else None,
    }


def replay_text(text: str) -> tuple[int, dict[str, Any]]:
    """Replay a record given as JSON text: (exit status, the object to print)."""
    try:
        doc = json.loads(text.removeprefix("\ufeff"))  # a byte-order mark is not part of the record
    except (ValueError, RecursionError) as exc:
        return 1, {"error": {"move": None, "message": f"the file is not valid JSON: {exc}"}}
    try:
        game = replay(parse_record(doc))
    except RecordError as exc:
        return 1, {"error": {"move": None, "message": str(exc)}}
    except MoveError as exc:
        return 1, {"error": {"move": exc.index, "message": str(exc.reason)}}
    return 0, outcome(game)


__all__ = [
    "PASS_ROUND_ENDS",
    "Record",
    "new_game",
    "outcome",
    "parse_record",
    "replay",
    "replay_text",
    "to_record",
]
