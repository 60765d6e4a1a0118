"""Snapshots: a game's whole state as JSON, so a long game loads without a replay.

A snapshot is only a cache of the move log. It names the number of moves it
stands for and a digest of them, and `restore` refuses it unless the moves it
is given match, or when it is damaged in any way; the caller then replays the
moves instead. No I/O here: the store decides where snapshots live.
"""

from __future__ import annotations

import hashlib
import json
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from engine.cards import FACE_UP_SLOTS, CardPiles
from engine.errors import GameError
from engine.game import Game
from engine.moves import Move, move_to_json
from engine.state import GameState, Pending, Phase, PlayerState, Stack, TunnelState, card_census, ticket_census
from maps import MAP_NAMES, load_board

FORMAT = 1
EMPTY_DIGEST = hashlib.sha256(b"conductor move log").hexdigest()


class SnapshotError(ValueError):
    """A snapshot that cannot be trusted: damaged, or not made from these moves."""


# one encoder for every call (json.dumps would build one each time); JSON values have no cycles to look for
_CANONICAL = json.JSONEncoder(sort_keys=True, separators=(",", ":"), ensure_ascii=False, check_circular=False)


def canonical_json(value: Any) -> str:
    """The one text of a JSON value that digests are taken over."""
    return _CANONICAL.encode(value)


def extend_digest(digest: str, move: Move) -> str:
    """The digest of a move log after `move` is appended to a log whose digest is `digest`.

    A chain rather than one hash of the whole log, so that recording a move
    costs the same on move 300 as on move 1.
    """
    return hashlib.sha256(f"{digest}\n{canonical_json(move_to_json(move))}".encode()).hexdigest()


def moves_digest(moves: Iterable[Move]) -> str:
    digest = EMPTY_DIGEST
    for move in moves:
        digest = extend_digest(digest, move)
    return digest


# ----- writing -----------------------------------------------------------------


def _pairs(counter: Counter[str]) -> list[list[Any]]:
    # pairs, not an object: the restored Counter iterates in the same order,
    # so listings built from a hand (legal payments) come out in the same order
    return [[card, n] for card, n in counter.items()]


def _player(p: PlayerState) -> dict[str, Any]:
    return {
        "name": p.name,
        "trains": p.trains,
        "hand": _pairs(p.hand),
        "tickets": list(p.tickets),
        "offered": None if p.offered is None else list(p.offered),
        "routes": list(p.routes),
        "route_points": p.route_points,
        "merchandise": p.merchandise,
        "souvenirs": list(p.souvenirs),
        "setup_done": p.setup_done,
    }


def _state(s: GameState) -> dict[str, Any]:
    t = s.tunnel
    return {
        "players": [_player(p) for p in s.players],
        "piles": {
            "seed": s.piles.seed,
            "deck": list(s.piles.deck),
            "discard": list(s.piles.discard),
            "face_up": list(s.piles.face_up),
            "reshuffles": s.piles.reshuffles,
            "resets": s.piles.resets,
        },
        "ticket_deck": list(s.ticket_deck),
        "phase": s.phase.value,
        "current": s.current,
        "pending": None if s.pending is None else s.pending.value,
        "tunnel": None
        if t is None
        else {
            "route": t.route,
            "laid": _pairs(t.laid),
            "revealed": list(t.revealed),
            "colour": t.colour,
            "surcharge": t.surcharge,
            "souvenir": t.souvenir,
        },
        "owner": [[route, seat] for route, seat in s.owner.items()],
        "final_turns": s.final_turns,
        "final_trigger": s.final_trigger,
        "merchandise_left": s.merchandise_left,
        "stacks": [[place, st.symbol, st.tokens] for place, st in s.stacks.items()],
        "placements": s.placements,
        "removed_tickets": list(s.removed_tickets),
        "turn": s.turn,
    }


def _check_value(body: dict[str, Any]) -> str:
    return hashlib.sha256(canonical_json(body).encode()).hexdigest()


def _body(game: Game, digest: str | None) -> dict[str, Any]:
    return {
        "format": FORMAT,
        "map": game.board.name,
        "players": list(game.names),
        "seed": game.seed,
        "trains": game.trains_option,
        "decks": {"cards": list(game.initial_cards), "tickets": list(game.initial_tickets)},
        "moves": len(game.moves),
        "moves_digest": moves_digest(game.moves) if digest is None else digest,
        "pass_round_ends": game.pass_round_ends,
        "state": _state(game.state),
    }


def snapshot(game: Game, digest: str | None = None) -> dict[str, Any]:
    """The game as a JSON-able object; `digest` is `moves_digest(game.moves)` if the caller keeps it."""
    body = _body(game, digest)
    return {**body, "check": _check_value(body)}


def snapshot_text(game: Game, digest: str | None = None) -> str:
    """`snapshot(game)` as JSON text, serialised once (it is written after every move).

    The very text `canonical_json` gives for the body, with the check added,
    built from parts: the parts that stay the same all game long (the decks
    as dealt, the players, the seed) are serialised once per game and reused,
    so a move costs the serialising of the state alone.
    """
    fixed = _fixed_parts(
        game.board.name,
        tuple(game.names),
        game.seed,
        game.trains_option,
        tuple(game.initial_cards),
        tuple(game.initial_tickets),
    )
    moves_hash = moves_digest(game.moves) if digest is None else digest
    # the keys in canonical_json's (sorted) order: check that `_body` still has exactly these
    body = (
        f'{{"decks":{fixed.decks},"format":{FORMAT},"map":{fixed.map},"moves":{len(game.moves)},'
        f'"moves_digest":{canonical_json(moves_hash)},"pass_round_ends":{canonical_json(game.pass_round_ends)},'
        f'"players":{fixed.players},"seed":{fixed.seed},'
        f'"state":{canonical_json(_state(game.state))},"trains":{fixed.trains}}}'
    )
    check = hashlib.sha256(body.encode()).hexdigest()
    return f'{body[:-1]},"check":"{check}"}}'


@dataclass(frozen=True)
class _Fixed:
    """The parts of a game's snapshot text that stay the same all game long, each as canonical JSON."""

    decks: str
    map: str
    players: str
    seed: str
    trains: str


@lru_cache(maxsize=4096)
def _fixed_parts(
    map_name: str,
    names: tuple[str, ...],
    seed: str | int,
    trains: int | None,
    cards: tuple[str, ...],
    tickets: tuple[int, ...],
) -> _Fixed:
    return _Fixed(
        canonical_json({"cards": list(cards), "tickets": list(tickets)}),
        canonical_json(map_name),
        canonical_json(list(names)),
        canonical_json(seed),
        canonical_json(trains),
    )


# ----- reading -----------------------------------------------------------------
# Every reader checks types itself: a damaged snapshot must end in SnapshotError,
# never in a half-built game or a TypeError deep inside the engine.


def _fail(what: str) -> SnapshotError:
    return SnapshotError(f"damaged snapshot: {what}")


def _obj(value: Any, what: str, keys: set[str]) -> dict[str, Any]:
    if not isinstance(value, dict):
        raise _fail(f"{what} is not an object")
    if set(value) != keys:
        raise _fail(f"{what} has keys {sorted(value)}, expected {sorted(keys)}")
    return value


def _int(value: Any, what: str, low: int = 0) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < low:
        raise _fail(f"{what} is not a whole number from {low}")
    return value


def _opt_int(value: Any, what: str) -> int | None:
    return None if value is None else _int(value, what)


def _str(value: Any, what: str) -> str:
    if not isinstance(value, str):
        raise _fail(f"{what} is not a text")
    return value


def _opt_str(value: Any, what: str) -> str | None:
    return None if value is None else _str(value, what)


def _bool(value: Any, what: str) -> bool:
    if not isinstance(value, bool):
        raise _fail(f"{what} is not true or false")
    return value


def _list(value: Any, what: str) -> list[Any]:
    if not isinstance(value, list):
        raise _fail(f"{what} is not a list")
    return value


def _ints(value: Any, what: str) -> list[int]:
    return [_int(v, what) for v in _list(value, what)]


def _strs(value: Any, what: str) -> list[str]:
    return [_str(v, what) for v in _list(value, what)]


def _counter(value: Any, what: str) -> Counter[str]:
    out: Counter[str] = Counter()
    for pair in _list(value, what):
        if not isinstance(pair, list) or len(pair) != 2:
            raise _fail(f"{what} holds {pair!r}, not a [card, count] pair")
        out[_str(pair[0], what)] = _int(pair[1], what)
    return out


PLAYER_KEYS = {
    "name",
    "trains",
    "hand",
    "tickets",
    "offered",
    "routes",
    "route_points",
    "merchandise",
    "souvenirs",
    "setup_done",
}
STATE_KEYS = {
    "players",
    "piles",
    "ticket_deck",
    "phase",
    "current",
    "pending",
    "tunnel",
    "owner",
    "final_turns",
    "final_trigger",
    "merchandise_left",
    "stacks",
    "placements",
    "removed_tickets",
    "turn",
}
PILES_KEYS = {"seed", "deck", "discard", "face_up", "reshuffles", "resets"}
TUNNEL_KEYS = {"route", "laid", "revealed", "colour", "surcharge", "souvenir"}
# snapshots written before games had `pass_round_ends` lack it: every one is of a bot game, which has the rule
OLD_TOP_KEYS = {"format", "map", "players", "seed", "trains", "decks", "moves", "moves_digest", "state", "check"}
TOP_KEYS = OLD_TOP_KEYS | {"pass_round_ends"}


def _read_player(value: Any) -> PlayerState:
    p = _obj(value, "a player", PLAYER_KEYS)
    offered = p["offered"]
    return PlayerState(
        name=_str(p["name"], "a player's name"),
        trains=_int(p["trains"], "trains"),
        hand=_counter(p["hand"], "a hand"),
        tickets=_ints(p["tickets"], "tickets"),
        offered=None if offered is None else _ints(offered, "offered tickets"),
        routes=_ints(p["routes"], "routes"),
        route_points=_int(p["route_points"], "route points"),
        merchandise=_int(p["merchandise"], "merchandise"),
        souvenirs=_strs(p["souvenirs"], "souvenirs"),
        setup_done=_bool(p["setup_done"], "setup_done"),
    )


def _read_piles(value: Any) -> CardPiles:
    p = _obj(value, "the card piles", PILES_KEYS)
    face_up = _list(p["face_up"], "the face-up row")
    if len(face_up) != FACE_UP_SLOTS:
        raise _fail(f"the face-up row has {len(face_up)} slots")
    return CardPiles(
        seed=_str(p["seed"], "the piles' seed"),
        deck=_strs(p["deck"], "the deck"),
        discard=_strs(p["discard"], "the discard pile"),
        face_up=[_opt_str(c, "a face-up card") for c in face_up],
        reshuffles=_int(p["reshuffles"], "reshuffles"),
        resets=_int(p["resets"], "resets"),
    )


def _read_tunnel(value: Any) -> TunnelState | None:
    if value is None:
        return None
    t = _obj(value, "the tunnel", TUNNEL_KEYS)
    return TunnelState(
        route=_int(t["route"], "the tunnel's route"),
        laid=_counter(t["laid"], "the laid cards"),
        revealed=_strs(t["revealed"], "the revealed cards"),
        colour=_opt_str(t["colour"], "the tunnel colour"),
        surcharge=_int(t["surcharge"], "the surcharge"),
        souvenir=_opt_str(t["souvenir"], "the souvenir"),
    )


def _read_state(value: Any) -> GameState:
    s = _obj(value, "the state", STATE_KEYS)
    owner: dict[int, int] = {}
    for pair in _list(s["owner"], "owners"):
        if not isinstance(pair, list) or len(pair) != 2:
            raise _fail("owners hold something other than [route, seat] pairs")
        owner[_int(pair[0], "an owned route")] = _int(pair[1], "an owner's seat")
    stacks: dict[str, Stack] = {}
    for triple in _list(s["stacks"], "stacks"):
        if not isinstance(triple, list) or len(triple) != 3:
            raise _fail("stacks hold something other than [place, symbol, tokens]")
        stacks[_str(triple[0], "a stack's place")] = Stack(_str(triple[1], "a symbol"), _int(triple[2], "tokens"))
    try:
        phase = Phase(_str(s["phase"], "the phase"))
        pending = None if s["pending"] is None else Pending(_str(s["pending"], "pending"))
    except ValueError:
        raise _fail(f"unknown phase {s['phase']!r} or pending {s['pending']!r}") from None
    return GameState(
        players=[_read_player(p) for p in _list(s["players"], "players")],
        piles=_read_piles(s["piles"]),
        ticket_deck=_ints(s["ticket_deck"], "the ticket deck"),
        phase=phase,
        current=_int(s["current"], "the current seat"),
        pending=pending,
        tunnel=_read_tunnel(s["tunnel"]),
        owner=owner,
        final_turns=_opt_int(s["final_turns"], "final turns"),
        final_trigger=_opt_int(s["final_trigger"], "the final trigger"),
        merchandise_left=_int(s["merchandise_left"], "merchandise left"),
        stacks=stacks,
        placements=_int(s["placements"], "placements"),
        removed_tickets=_ints(s["removed_tickets"], "removed tickets"),
        turn=_int(s["turn"], "turns"),
    )


def _check_conservation(game: Game, state: GameState) -> None:
    """Every card and every ticket is somewhere, exactly once; seats and routes exist.

    The checksum catches damage; this catches a snapshot written from a state
    that was already wrong, before such a state spreads into more moves.
    """
    board = game.board
    if card_census(state) != Counter(game.rules.deck()):
        raise _fail("the cards in it are not the map's deck")
    if ticket_census(state) != [t.id for t in board.tickets]:
        raise _fail("the tickets in it are not the map's tickets")
    seats = len(state.players)
    if [p.name for p in state.players] != game.names or not 0 <= state.current < seats:
        raise _fail("its seats do not match its players")
    routes = [r for p in state.players for r in p.routes]
    if sorted(routes) != sorted(state.owner) or any(not 0 <= r < len(board.routes) for r in routes):
        raise _fail("route ownership is inconsistent")
    for route, seat in state.owner.items():
        if not 0 <= seat < seats or route not in state.players[seat].routes:
            raise _fail("route ownership is inconsistent")
    if state.piles.seed != str(game.seed):
        raise _fail("the card piles belong to another seed")


def restore(data: Any, moves: Sequence[Move], digest: str | None = None) -> Game:
    """The game a snapshot holds, after `moves`; SnapshotError when it cannot be trusted.

    `digest` is `moves_digest(moves)` when the caller already has it.
    """
    old = isinstance(data, dict) and "pass_round_ends" not in data
    top = _obj(data, "the snapshot", OLD_TOP_KEYS if old else TOP_KEYS)
    if top["format"] != FORMAT or isinstance(top["format"], bool):
        raise SnapshotError(f"unknown snapshot format {top['format']!r}")
    body = {k: v for k, v in top.items() if k != "check"}
    if top["check"] != _check_value(body):
        raise _fail("its checksum does not match its contents")
    count = _int(top["moves"], "the move count")
    if count != len(moves):
        raise SnapshotError(f"the snapshot is of move {count}, but the log has {len(moves)} moves")
    if top["moves_digest"] != (moves_digest(moves) if digest is None else digest):
        raise SnapshotError("the snapshot was made from other moves than those in the log")
    name = top["map"]
    if name not in MAP_NAMES:
        raise _fail(f"unknown map {name!r}")
    seed = top["seed"]
    if isinstance(seed, bool) or not isinstance(seed, (str, int)):
        raise _fail("the seed is neither a text nor a whole number")
    decks = _obj(top["decks"], "the decks", {"cards", "tickets"})
    trains = top["trains"]
    pass_round_ends = top.get("pass_round_ends", True)
    if not isinstance(pass_round_ends, bool):
        raise _fail("pass_round_ends is neither true nor false")
    try:
        game = Game(
            load_board(name),
            _strs(top["players"], "players"),
            seed,
            None if trains is None else _int(trains, "the trains option"),
            _strs(decks["cards"], "the card deck"),
            _ints(decks["tickets"], "the ticket deck"),
            pass_round_ends=pass_round_ends,
        )
    except GameError as exc:
        raise _fail(str(exc)) from None
    state = _read_state(top["state"])
    _check_conservation(game, state)
    game.state = state
    game.moves = list(moves)
    return game


__all__ = [
    "EMPTY_DIGEST",
    "FORMAT",
    "SnapshotError",
    "canonical_json",
    "extend_digest",
    "moves_digest",
    "restore",
    "snapshot",
    "snapshot_text",
]
