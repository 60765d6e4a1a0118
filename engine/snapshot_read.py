"""Reading a snapshot back (`restore`): every value's type checked, the checksum, the move log it stands for and
the cards and tickets it holds, so that a damaged snapshot ends in SnapshotError, never in a half-built game."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import Any

from engine.cards import FACE_UP_SLOTS, CardPiles
from engine.errors import GameError
from engine.game import Game
from engine.moves import Move
from engine.snapshot_format import FORMAT, SnapshotError, check_value, moves_digest
from engine.state import GameState, Pending, Phase, PlayerState, Stack, TunnelState, card_census, ticket_census
from maps import MAP_NAMES, load_board

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
    if top["check"] != check_value(body):
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
