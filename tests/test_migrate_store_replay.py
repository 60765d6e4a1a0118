"""`python -m bot migrate-store FROM TO` with a FROM whose games were tampered with, as a hostile operator would.

Every game is dealt again from its seed and replayed by the rules before anything is written: a move the rules
refuse, a changed seed, a reordered deck, a snapshot or status the moves do not make is refused with exit 1,
one line naming the game and the move or what differs, and TO left empty; the untouched FROM then goes in.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import random
import re
import shutil
import sqlite3
from collections.abc import Callable
from pathlib import Path

import asyncpg
import pytest
from helpers.service_support import open_service, play, started_game

from bot.commands.cli import main
from bot.commands.game_checks import game_problem
from bot.commands.store_copy import TABLES
from bot.store import GameStatus, SqliteStore
from engine.snapshot import canonical_json
from maps import MAP_NAMES

NOW = "2026-01-01T00:00:00+00:00"


async def _played(path: Path) -> None:
    """Game 1 (USA) and game 2 (Switzerland) 20 moves in, game 3 (USA) just dealt: tickets not kept yet."""
    service = await open_service(path)
    try:
        rng = random.Random(5)
        for map_name in ("usa", "switzerland"):
            game_id, _ = await started_game(service, map_name)
            assert await play(service, game_id, 20, rng) == 20
        await started_game(service, "usa")
    finally:
        await service.close()


def _sql(path: Path, *statements: str, params: tuple[object, ...] = ()) -> None:
    conn = sqlite3.connect(path, isolation_level=None)
    try:
        for statement in statements:
            conn.execute(statement, params) if params else conn.execute(statement)
        conn.execute("PRAGMA journal_mode = DELETE")  # one file, nothing beside it
    finally:
        conn.close()


def _one(path: Path, query: str) -> str:
    conn = sqlite3.connect(path)
    try:
        return str(conn.execute(query).fetchone()[0])
    finally:
        conn.close()


def _appended(game_id: int, move: dict[str, object]) -> Callable[[Path], None]:
    """A move added at the end of the game's log, as the bot writes one."""

    def tamper(path: Path) -> None:
        player = _one(path, f"SELECT player FROM seats WHERE game_id = {game_id} AND seat = 0")
        count = int(_one(path, f"SELECT COUNT(*) FROM moves WHERE game_id = {game_id}"))
        text = json.dumps({**move, "player": player})
        _sql(
            path,
            "INSERT INTO moves (game_id, idx, move, user_id, created_at, actor) VALUES (?, ?, ?, 100, ?, 'player')",
            params=(game_id, count, text, NOW),
        )

    return tamper


def _swapped(column: str, game_id: int) -> Callable[[Path], None]:
    """The game's deck (`cards` or `tickets`) with its first two different entries swapped: the same deck, in
    another order."""

    def tamper(path: Path) -> None:
        deck = json.loads(_one(path, f"SELECT {column} FROM games WHERE id = {game_id}"))
        other = next(i for i, item in enumerate(deck) if item != deck[0])
        deck[0], deck[other] = deck[other], deck[0]
        _sql(path, f"UPDATE games SET {column} = ? WHERE id = {game_id}", params=(json.dumps(deck),))

    return tamper


def _snapshot_forged(path: Path) -> None:
    """Game 1's snapshot with a player given a train more, its checksum made again: it restores, but is not the
    game its moves make."""
    data = json.loads(_one(path, "SELECT data FROM snapshots WHERE game_id = 1"))
    data["state"]["players"][0]["trains"] += 1
    body = {key: value for key, value in data.items() if key != "check"}
    data["check"] = hashlib.sha256(canonical_json(body).encode()).hexdigest()
    _sql(path, "UPDATE snapshots SET data = ? WHERE game_id = 1", params=(json.dumps(data),))


TAMPERED: dict[str, tuple[Callable[[Path], None], str]] = {
    "a draw before tickets are kept": (
        _appended(3, {"draw": "deck"}),
        r"game #3 of \S+ breaks the rules at move 0 \(p\d draws a card\): .+; nothing was copied",
    ),
    "a claim between places the map does not have": (
        _appended(1, {"claim": ["Atlantis", "El Dorado"], "pay": {"red": 1}}),
        r"game #1 of \S+ breaks the rules at move 20 \(p\d claims Atlantis–El Dorado\): .+",
    ),
    "a move in the middle of the log replaced (its trigger dropped)": (
        lambda p: _sql(
            p,
            "DROP TRIGGER moves_no_update",
            'UPDATE moves SET move = \'{"player": "p1", "claim": ["Atlantis", "Mu"], "pay": {}}\' '
            "WHERE game_id = 2 AND idx = 7",
        ),
        r"game #2 of \S+ breaks the rules at move 7 \(p1 claims Atlantis–Mu\): .+",
    ),
    "a move that is not a move": (
        _appended(2, {"dance": True}),
        r"game #2 of \S+ cannot be replayed: its move 20 cannot be read \(.+\)",
    ),
    "the seed changed": (
        lambda p: _sql(p, "UPDATE games SET seed = '00000000deadbeef' WHERE id = 2"),
        (
            r"game #2 of \S+ has a card deck that is not the one its seed deals \(the seed or the deck's order was "
            r"changed\); nothing was copied"
        ),
    ),
    "the card deck reordered": (
        _swapped("cards", 1),
        r"game #1 of \S+ has a card deck that is not the one its seed deals",
    ),
    "the ticket deck reordered": (
        _swapped("tickets", 3),
        r"game #3 of \S+ has a ticket deck that is not the one its seed deals",
    ),
    "the snapshot forged with a good checksum": (
        _snapshot_forged,
        r"game #1 of \S+ has a snapshot that is not the game its moves make \(it differs in state \(players\)\)",
    ),
    "the snapshot damaged": (
        lambda p: _sql(p, "UPDATE snapshots SET data = '{\"format\": 1' WHERE game_id = 2"),
        r"game #2 of \S+ has a snapshot that is not JSON",
    ),
    "the snapshot of fewer moves": (
        lambda p: _sql(p, "UPDATE snapshots SET move_count = 19 WHERE game_id = 2"),
        r"game #2 of \S+ has a snapshot of move 19, but 20 moves in its log",
    ),
    "a game in play stored as in setup": (
        lambda p: _sql(p, "UPDATE games SET status = 'setup' WHERE id = 1"),
        r"game #1 of \S+ is stored as setup, but its 20 moves leave it playing",
    ),
}


async def _rows_in(url: str) -> dict[str, int]:
    conn = await asyncpg.connect(url)
    try:
        counts = {t: int(await conn.fetchval(f"SELECT COUNT(*) FROM {t}")) for t in TABLES}
    finally:
        await conn.close()
    return {t: n for t, n in counts.items() if n}


@pytest.fixture
def good(tmp_path: Path) -> Path:
    path = tmp_path / "good" / "live.sqlite3"
    path.parent.mkdir()
    asyncio.run(_played(path))
    _sql(path)  # checkpointed into one file
    return path


def test_a_tampered_game_is_refused_naming_it_and_nothing_is_copied(
    good: Path, tmp_path: Path, pg_url: str, capsys: pytest.CaptureFixture[str]
) -> None:
    failures = []
    for index, (what, (tamper, expected)) in enumerate(TAMPERED.items()):
        path = tmp_path / f"tampered-{index}.sqlite3"
        shutil.copyfile(good, path)
        tamper(path)
        before = path.read_bytes()
        status = main(["migrate-store", str(path), str(pg_url)])
        captured = capsys.readouterr()
        lines = captured.err.strip().splitlines()
        if status != 1 or len(lines) != 1 or captured.out or "Traceback" in captured.err:
            failures.append(f"{what}: exit {status}, out {captured.out!r}, err {captured.err!r}")
        elif not re.fullmatch(r"migrate-store failed: " + expected + ".*", lines[0]):
            failures.append(f"{what}: {lines[0]!r}")
        if path.read_bytes() != before:
            failures.append(f"{what}: the source changed")
        left = asyncio.run(_rows_in(pg_url))
        if left:
            failures.append(f"{what}: the target kept rows {left}")
    assert not failures, "\n".join(failures)
    assert main(["migrate-store", str(good), pg_url]) == 0  # TO is as it was: the untouched source goes in
    assert "3 games replayed to the same state" in capsys.readouterr().out


def test_a_game_ended_early_or_cancelled_is_still_copied(good: Path, pg_url: str) -> None:
    """A moderator may end a game before its end (finished) or call it off (cancelled): neither is tampering."""
    _sql(
        good, "UPDATE games SET status = 'finished' WHERE id = 1", "UPDATE games SET status = 'cancelled' WHERE id = 2"
    )
    assert main(["migrate-store", str(good), pg_url]) == 0


def test_every_game_the_bot_plays_passes_its_check(tmp_path: Path) -> None:
    """Games played to their end on every map, through the service: none is taken for a tampered one."""

    async def run() -> None:
        path = tmp_path / "played.sqlite3"
        service = await open_service(path)
        try:
            for seed, map_name in enumerate(MAP_NAMES):
                game_id, _ = await started_game(service, map_name, 2)
                await play(service, game_id, 400, random.Random(seed))
        finally:
            await service.close()
        store = await SqliteStore.open(path)
        try:
            rows = await store.games.games_with_status(set(GameStatus))
            assert any(row.status is GameStatus.FINISHED for row in rows)
            for row in rows:
                stored = await store.games.stored_game(row.id)
                assert stored is not None and game_problem(stored) is None, row
        finally:
            await store.close()

    asyncio.run(run())
