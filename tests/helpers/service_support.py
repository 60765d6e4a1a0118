"""Building, playing and checking games through the real service on real database files."""

from __future__ import annotations

import hashlib
import itertools
import random
import re
import sqlite3
from collections.abc import Collection, Coroutine, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import asyncpg
import pytest

from bot.present.refusals import refusal_text
from bot.service import GameService, ServiceError, Why
from bot.service.settings import MAX_OPEN_GAMES
from bot.store import Database, StoredGame, open_store
from engine import Game
from engine.moves import move_from_json
from engine.random_play import random_move
from engine.record import parse_record, replay
from maps import load_board

GUILD = 1
_channels = itertools.count(1000)


@contextmanager
def refused(
    kind: type[ServiceError], match: Why | str, **facts: object
) -> Iterator[pytest.ExceptionInfo[ServiceError]]:
    """pytest.raises(kind) for the typed refusal `match` (a `Why`) with at least these facts, which the front can
    word; or, for a test of the words, `match` (a `str`) searched in the refusal as the person who asked reads it."""
    with pytest.raises(kind) as caught:
        yield caught
    error = caught.value
    text = refusal_text(error)
    if isinstance(match, Why):
        assert error.why is match, f"{error.why} is not {match}"
        for key, value in facts.items():
            assert key in error.facts and error.facts[key] == value, (key, value, error.facts)
        assert text.strip()
    else:
        assert not facts
        assert re.search(match, text), f"{match!r} not found in {text!r}"


def user_ids(count: int) -> list[int]:
    return [100 + i for i in range(count)]


async def open_service(path: Database, seed: int = 0, **kwargs: Any) -> GameService:
    """The service, without open-game limits: these tests host many games (tests/test_load_limits.py has them)."""
    return unlimited(await GameService.open(path, rng=random.Random(seed), **kwargs))


def unlimited(service: GameService) -> GameService:
    """The service with no practical limit on open games, unless a server sets one."""
    service.settings.default_open_games = (MAX_OPEN_GAMES, MAX_OPEN_GAMES)
    return service


async def started_game(
    service: GameService, map_name: str = "usa", players: int = 3, trains: int | None = None
) -> tuple[int, list[int]]:
    """A game past the deal, with users 100, 101, ... (user 100 hosts); its id and the users."""
    users = user_ids(players)
    result = await service.lobby.create_game(GUILD, next(_channels), users[0], "p0", map_name, trains=trains)
    game_id = result.game.id
    for i, user in enumerate(users[1:], start=1):
        await service.lobby.join(game_id, user, f"p{i}")
    await service.lobby.start(game_id, users[0])
    return game_id, users


async def play(service: GameService, game_id: int, moves: int, rng: random.Random) -> int:
    """Up to `moves` random legal moves through the service; how many were made."""
    for made in range(moves):
        game = await service.reading.engine_game(game_id)
        move = random_move(game, rng)
        if move is None:
            return made
        info = await service.core.game(game_id)
        user = info.user_of(move.player)
        assert user is not None
        await service.play.act(game_id, user, move, expected_version=info.version)
    return moves


def same_game(a: Game, b: Game) -> bool:
    return (
        a.board.name == b.board.name
        and a.names == b.names
        and str(a.seed) == str(b.seed)
        and a.trains_option == b.trains_option
        and a.pass_round_ends == b.pass_round_ends
        and a.initial_cards == b.initial_cards
        and a.initial_tickets == b.initial_tickets
        and a.moves == b.moves
        and a.state == b.state
    )


def replay_rows(stored: StoredGame) -> Game:
    """The game its stored rows describe, replayed from scratch by the record replayer (a bot game: with the rule
    that a whole round of passes ends it, as its exported record says)."""
    row = stored.game
    assert row.seed is not None and row.cards is not None and row.tickets is not None
    board = load_board(row.map)
    doc: dict[str, Any] = {
        "map": row.map,
        "players": [s.player for s in stored.seats],
        "seed": row.seed,
        "pass_round_ends": True,
        "decks": {"cards": list(row.cards), "tickets": [board.tickets[t].ref() for t in row.tickets]},
        "moves": [m.move for m in stored.moves],
    }
    if row.options.get("trains") is not None:
        doc["options"] = {"trains": row.options["trains"]}
    game = replay(parse_record(doc))
    assert game.moves == [move_from_json(m.move) for m in stored.moves]
    return game


async def stored(path: Database, game_id: int) -> StoredGame:
    store = await open_store(path)
    try:
        found = await store.games.stored_game(game_id)
    finally:
        await store.close()
    assert found is not None
    return found


def fingerprint(path: Path) -> str:
    """A digest of everything in the database, read through a separate connection."""
    conn = sqlite3.connect(path)
    try:
        digest = hashlib.sha256()
        for line in conn.iterdump():
            digest.update(line.encode())
        return digest.hexdigest()
    finally:
        conn.close()


async def database_fingerprint(database: Database) -> str:
    """A digest of everything in the database, whichever store it is, read through a separate connection."""
    if not isinstance(database, str):
        return fingerprint(database)
    conn = await asyncpg.connect(database)
    try:
        digest = hashlib.sha256()
        tables = await conn.fetch(
            "SELECT table_name FROM information_schema.tables WHERE table_schema = 'public' ORDER BY table_name"
        )
        for (table,) in tables:
            digest.update(table.encode())
            columns = await conn.fetchval(
                "SELECT COUNT(*) FROM information_schema.columns WHERE table_schema = 'public' AND table_name = $1",
                table,
            )
            order = "1, 2" if columns > 1 else "1"  # alembic_version has one column
            for row in await conn.fetch(f"SELECT * FROM {table} ORDER BY {order}"):
                digest.update(repr(tuple(row)).encode())
        return digest.hexdigest()
    finally:
        await conn.close()


async def a_move_each(service: GameService, games: list[int], rng: random.Random) -> list[Coroutine[Any, Any, Any]]:
    """One random move of each game, by the player whose turn it is, ready to be made together."""
    calls = []
    for game_id in games:
        game = await service.reading.engine_game(game_id)
        move = random_move(game, rng)
        assert move is not None
        user = (await service.core.game(game_id)).user_of(move.player)
        assert user is not None
        calls.append(service.play.act(game_id, user, move))
    return calls


def member_reads(service: GameService, monkeypatch: pytest.MonkeyPatch) -> list[list[int]]:
    """The members each read of members' settings asks for, from now on (sorted user ids, one list a read)."""
    reads: list[list[int]] = []
    real = service.store.settings.settings_of_members

    async def counting(user_ids: Collection[int]) -> dict[int, dict[str, Any]]:
        reads.append(sorted(user_ids))
        return await real(user_ids)

    monkeypatch.setattr(service.store.settings, "settings_of_members", counting)
    return reads


async def lobbies(service: GameService, count: int) -> list[tuple[int, int]]:
    """`count` lobbies in servers of their own: (game id, version)."""
    out = []
    for i in range(count):
        created = await service.lobby.create_game(500 + i, 700 + i, 100 + i, f"host{i}", "usa")
        out.append((created.game.id, created.game.version))
    return out
