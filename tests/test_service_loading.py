"""Loading games: from the snapshot when it matches the move log, by replaying the log when not."""

from __future__ import annotations

import json
import logging
import random
import sqlite3
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path

import pytest
from helpers.service_support import open_service, play, refused, replay_rows, same_game, started_game, stored

from bot.service import GameDamaged, Why
from bot.store import StoredGame
from engine.snapshot import canonical_json, restore, snapshot

REBUILT = "rebuilt from its move log"


async def two_games(db: Path, moves: int) -> tuple[int, int]:
    service = await open_service(db)
    try:
        game_id, _ = await started_game(service, "usa", 3)
        await play(service, game_id, moves, random.Random(1))
        other_id, _ = await started_game(service, "usa", 3)
        await play(service, other_id, moves, random.Random(2))
    finally:
        await service.close()
    return game_id, other_id


def execute(db: Path, sql: str, *params: object) -> None:
    conn = sqlite3.connect(db)
    try:
        conn.execute(sql, params)
        conn.commit()
    finally:
        conn.close()


def set_snapshot(db: Path, game_id: int, text: str) -> None:
    execute(db, "UPDATE snapshots SET data = ? WHERE game_id = ?", text, game_id)


Damage = Callable[[Path, StoredGame, StoredGame], None]


def truncated(db: Path, game: StoredGame, other: StoredGame) -> None:
    assert game.snapshot is not None
    set_snapshot(db, game.game.id, game.snapshot.data[:100])


def not_json(db: Path, game: StoredGame, other: StoredGame) -> None:
    set_snapshot(db, game.game.id, "not json at all")


def missing(db: Path, game: StoredGame, other: StoredGame) -> None:
    execute(db, "DELETE FROM snapshots WHERE game_id = ?", game.game.id)


def one_number_changed(db: Path, game: StoredGame, other: StoredGame) -> None:
    assert game.snapshot is not None
    data = json.loads(game.snapshot.data)
    data["state"]["players"][1]["trains"] -= 1
    set_snapshot(db, game.game.id, canonical_json(data))


def of_an_earlier_move(db: Path, game: StoredGame, other: StoredGame) -> None:
    earlier = replay_rows(replace(game, moves=game.moves[:-3]))
    set_snapshot(db, game.game.id, canonical_json(snapshot(earlier)))


def of_another_game(db: Path, game: StoredGame, other: StoredGame) -> None:
    assert other.snapshot is not None
    set_snapshot(db, game.game.id, other.snapshot.data)


DAMAGES = [truncated, not_json, missing, one_number_changed, of_an_earlier_move, of_another_game]


@pytest.mark.parametrize(
    ("damage", "moves"),
    # at the deal (0 moves) there is no earlier move to take a snapshot of
    [(d, m) for d in DAMAGES for m in (0, 35) if not (d is of_an_earlier_move and m == 0)],
)
async def test_a_bad_snapshot_is_replaced_by_a_replay_of_the_log(
    tmp_path: Path, caplog: pytest.LogCaptureFixture, damage: Damage, moves: int
) -> None:
    db = tmp_path / "db.sqlite3"
    game_id, other_id = await two_games(db, moves)
    game, other = await stored(db, game_id), await stored(db, other_id)
    damage(db, game, other)
    caplog.set_level(logging.WARNING, logger="bot.service")
    service = await open_service(db)
    try:
        loaded = await service.reading.engine_game(game_id)
        assert same_game(loaded, replay_rows(game))
        assert f"game #{game_id}: snapshot not used" in caplog.text and REBUILT in caplog.text
        assert same_game(await service.reading.engine_game(other_id), replay_rows(other))
        # it plays on from the rebuilt game
        assert await play(service, game_id, 3, random.Random(3)) == 3
    finally:
        await service.close()
    # the snapshot was repaired: the next start loads it without a replay
    repaired = await stored(db, game_id)
    assert repaired.snapshot is not None
    restored = restore(json.loads(repaired.snapshot.data), replay_rows(repaired).moves)
    assert same_game(restored, replay_rows(repaired))
    caplog.clear()
    service = await open_service(db)
    try:
        assert same_game(await service.reading.engine_game(game_id), restored)
    finally:
        await service.close()
    assert REBUILT not in caplog.text


async def test_a_good_snapshot_is_used_without_a_replay(tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    db = tmp_path / "db.sqlite3"
    game_id, _ = await two_games(db, 50)
    caplog.set_level(logging.WARNING, logger="bot.service")
    service = await open_service(db)
    try:
        assert same_game(await service.reading.engine_game(game_id), replay_rows(await stored(db, game_id)))
    finally:
        await service.close()
    assert REBUILT not in caplog.text


async def test_a_move_log_that_does_not_replay_is_reported_and_still_exportable(tmp_path: Path) -> None:
    db = tmp_path / "db.sqlite3"
    game_id, other_id = await two_games(db, 20)
    rows = await stored(db, game_id)
    bad = {"player": rows.seats[0].player, "claim": ["Nowhere", "Atlantis"], "pay": {"red": 1}}
    execute(
        db,
        "INSERT INTO moves (game_id, idx, move, user_id, created_at) VALUES (?, ?, ?, NULL, ?)",
        game_id,
        len(rows.moves),
        json.dumps(bad),
        "2026-01-01T00:00:00+00:00",
    )
    execute(db, "DELETE FROM snapshots WHERE game_id = ?", game_id)
    service = await open_service(db)
    try:
        with refused(GameDamaged, Why.MOVE_UNPLAYABLE, game_id=game_id, index=len(rows.moves)):
            await service.reading.engine_game(game_id)
        with pytest.raises(GameDamaged):
            await service.reading.public_view(game_id)
        record = (await service.audit.export_record(game_id, 99, moderator=True)).record
        assert record["moves"][-1] == bad
        assert await play(service, other_id, 2, random.Random(0)) == 2  # other games are not affected
    finally:
        await service.close()


async def test_an_unreadable_stored_move_is_reported(tmp_path: Path) -> None:
    db = tmp_path / "db.sqlite3"
    game_id, _ = await two_games(db, 5)
    rows = await stored(db, game_id)
    execute(
        db,
        "INSERT INTO moves (game_id, idx, move, user_id, created_at) VALUES (?, ?, ?, NULL, ?)",
        game_id,
        len(rows.moves),
        '{"fly": 1}',
        "2026-01-01T00:00:00+00:00",
    )
    service = await open_service(db)
    try:
        with refused(GameDamaged, Why.MOVE_UNREADABLE, index=len(rows.moves)):
            await service.reading.engine_game(game_id)
    finally:
        await service.close()
