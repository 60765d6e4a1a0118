"""Group commit: writes of different games that arrive together share one commit, each still all or nothing.

And the clock the service keeps in memory between moves: the store stays the
truth, so a pause written by another process is seen by the next move.
"""

from __future__ import annotations

import asyncio
import random
import sqlite3
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import pytest
from helpers.service_support import (
    a_move_each,
    lobbies,
    open_service,
    refused,
    replay_rows,
    same_game,
    started_game,
    stored,
)

import bot.store.sqlite.core as sqlite_core
from bot.service import Why, WrongState
from bot.store import GameStatus, SqliteStore, StoreError, VersionConflict
from bot.store.sqlite.core import write_group
from engine.random_play import random_move

Work = Callable[[sqlite3.Connection], Any]


@pytest.fixture
def groups(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """The size of every group the store commits."""
    sizes: list[int] = []
    real = sqlite_core.write_group

    def counting(conn: sqlite3.Connection, *, works: Sequence[Work]) -> list[tuple[bool, Any]]:
        sizes.append(len(works))
        return real(conn, works=works)

    monkeypatch.setattr(sqlite_core, "write_group", counting)
    return sizes


def statuses(db: Path) -> dict[int, str]:
    conn = sqlite3.connect(db)
    try:
        return {row[0]: row[1] for row in conn.execute("SELECT id, status FROM games")}
    finally:
        conn.close()


async def test_moves_of_many_games_at_once_share_commits_and_all_are_stored(db: Path, groups: list[int]) -> None:
    service = await open_service(db)
    try:
        games = [(await started_game(service))[0] for _ in range(12)]
        rng = random.Random(5)
        for _ in range(3):
            calls = await a_move_each(service, games, rng)
            groups.clear()
            await asyncio.gather(*calls)
            assert max(groups) > 1  # they did go together
            assert sum(groups) >= len(games)  # one write per move at least (the autopilot's come on top)
        for game_id in games:
            rows = await stored(db, game_id)
            assert len(rows.moves) >= 3
            assert same_game(await service.reading.engine_game(game_id), replay_rows(rows))
    finally:
        await service.close()


async def test_a_failing_write_in_a_group_leaves_out_only_itself(db: Path, groups: list[int]) -> None:
    service = await open_service(db)
    try:
        games = await lobbies(service, 5)
        store = service.store
        groups.clear()
        outcomes = await asyncio.gather(
            *(
                store.games.set_status(game_id, version + (7 if i == 2 else 0), GameStatus.CANCELLED)
                for i, (game_id, version) in enumerate(games)
            ),
            store.games.add_seat(games[0][0], games[0][1] + 5, 101, "late"),  # a stale version too
            return_exceptions=True,
        )
        assert max(groups) > 1 and sum(groups) == 6  # they went together
        assert [type(o).__name__ for o in outcomes] == [
            "int",
            "int",
            "VersionConflict",
            "int",
            "int",
            "VersionConflict",
        ]
        found = statuses(db)
        for i, (game_id, _) in enumerate(games):
            assert found[game_id] == ("lobby" if i == 2 else "cancelled")
        assert [s.display_name for s in await store.games.seats(games[0][0])] == ["host0"]
    finally:
        await service.close()


async def test_a_write_answered_by_a_database_error_in_a_group_is_a_store_error(db: Path) -> None:
    store = await SqliteStore.open(db)
    service = await open_service(db)
    try:
        (first, v1), (second, v2) = await lobbies(service, 2)
        outcomes = await asyncio.gather(
            store.games.add_seat(first, v1, 300, "ann"),
            store.games.add_seat(second, v2, 301, "bob"),
            store.games.add_seat(first, v1 + 1, 300, "ann again"),  # seated already: the table says no
            store.games.add_seat(second, v2 + 1, 302, "cid"),
            return_exceptions=True,
        )
        assert outcomes[:2] == [v1 + 1, v2 + 1] and outcomes[3] == v2 + 2
        assert isinstance(outcomes[2], StoreError) and not isinstance(outcomes[2], VersionConflict)
        assert [s.user_id for s in await store.games.seats(first)] == [100, 300]
        assert [s.user_id for s in await store.games.seats(second)] == [101, 301, 302]
    finally:
        await service.close()
        await store.close()


def test_a_group_whose_transaction_breaks_is_run_again_one_write_at_a_time(tmp_path: Path) -> None:
    conn = sqlite3.connect(tmp_path / "plain.sqlite3", isolation_level=None)
    conn.execute("CREATE TABLE t (id INTEGER PRIMARY KEY, v TEXT)")

    def insert(value: str) -> Work:
        return lambda c: c.execute("INSERT INTO t (v) VALUES (?)", (value,)).lastrowid

    def ends_the_transaction(c: sqlite3.Connection) -> None:
        c.execute("INSERT INTO t (v) VALUES ('lost')")
        c.execute("ROLLBACK")  # takes the whole group's transaction with it
        raise sqlite3.OperationalError("gone")

    outcomes = write_group(conn, works=[insert("a"), ends_the_transaction, insert("b")])
    assert [ok for ok, _ in outcomes] == [True, False, True]
    assert [row[0] for row in conn.execute("SELECT v FROM t ORDER BY id")] == ["a", "b"]
    assert not conn.in_transaction
    conn.close()


async def test_a_write_whose_caller_is_cancelled_is_still_committed(db: Path) -> None:
    service = await open_service(db)
    (game_id, version), (other, other_version) = await lobbies(service, 2)
    first = asyncio.ensure_future(service.store.games.set_status(other, other_version, GameStatus.CANCELLED))
    task = asyncio.ensure_future(service.store.games.set_status(game_id, version, GameStatus.CANCELLED))
    await asyncio.sleep(0)
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task
    await first
    await service.close()  # waits for what was asked
    assert statuses(db) == {game_id: "cancelled", other: "cancelled"}


async def test_a_pause_written_by_another_process_stops_the_next_move(db: Path) -> None:
    service = await open_service(db)
    other = await open_service(db)  # a second process on the same file
    try:
        game_id, _ = await started_game(service)
        rng = random.Random(3)
        for _ in range(4):  # the clock is now the one this service last wrote
            game = await service.reading.engine_game(game_id)
            move = random_move(game, rng)
            assert move is not None
            await service.play.act(game_id, (await service.core.game(game_id)).user_of(move.player) or 0, move)
        await other.moderation.pause(game_id, 900, "checking")
        game = await service.reading.engine_game(game_id)
        move = random_move(game, rng)
        assert move is not None
        before = len((await stored(db, game_id)).moves)
        with refused(WrongState, Why.PAUSED):
            await service.play.act(game_id, (await service.core.game(game_id)).user_of(move.player) or 0, move)
        assert len((await stored(db, game_id)).moves) == before
        await other.moderation.resume(game_id, 900, "done")
        user = (await service.core.game(game_id)).user_of(move.player) or 0
        # the resume moved the game on elsewhere: this process finds its copy old and reads the game again (issue
        # 27: two processes on one shard), so the move is made at once
        await service.play.act(game_id, user, move)
        assert len((await stored(db, game_id)).moves) == before + 1
    finally:
        await other.close()
        await service.close()
