"""The store on real databases, SQLite files and PostgreSQL (the `database` fixture): what it keeps, and what it
refuses. The tests that reach into SQLite itself open an SQLite store of their own."""

from __future__ import annotations

import sqlite3
from collections.abc import AsyncIterator
from datetime import UTC, datetime, timedelta, timezone
from pathlib import Path

import pytest
from helpers.service_support import database_fingerprint

from bot.store import (
    ChannelBusy,
    Database,
    GameStart,
    GameStatus,
    NewAudit,
    NewGame,
    NewMove,
    SqliteStore,
    StartedSeat,
    Store,
    StoreError,
    UnknownGame,
    VersionConflict,
    open_store,
)


@pytest.fixture
async def store(database: Database) -> AsyncIterator[Store]:
    opened = await open_store(database)
    yield opened
    await opened.close()


def lobby(channel: int = 10, host: int = 100) -> NewGame:
    return NewGame(guild_id=1, channel_id=channel, host_user_id=host, host_name="ann", map="usa", options={"x": 1})


async def started(store: Store, channel: int = 10) -> int:
    row = await store.games.create_game(lobby(channel))
    version = await store.games.add_seat(row.id, row.version, 101, "bob")
    start = GameStart(
        seed="s",
        cards=["red", "blue"],
        tickets=[3, 1, 2],
        seats=[StartedSeat(101, 0, "bob"), StartedSeat(100, 1, "ann")],
        status=GameStatus.SETUP,
        snapshot="{}",
    )
    await store.games.start_game(row.id, version, start)
    return row.id


async def test_guild_settings_are_kept_per_guild_and_none_removes_one(store: Store) -> None:
    await store.settings.set_guild_setting(1, "moderator_role", 5)
    await store.settings.set_guild_setting(1, "default_map", "india")
    await store.settings.set_guild_setting(2, "moderator_role", {"id": 9})
    await store.settings.set_guild_setting(1, "moderator_role", 6)
    assert await store.settings.guild_settings(1) == {"moderator_role": 6, "default_map": "india"}
    assert await store.settings.guild_settings(2) == {"moderator_role": {"id": 9}}
    await store.settings.set_guild_setting(1, "default_map", None)
    assert await store.settings.guild_settings(1) == {"moderator_role": 6}
    assert await store.settings.guild_settings(3) == {}


async def test_member_settings_are_kept_per_member_by_key_and_none_removes_one(store: Store) -> None:
    await store.settings.set_member_setting(7, "confirmations", False)
    await store.settings.set_member_setting(7, "language", "fr")
    await store.settings.set_member_setting(8, "confirmations", True)
    await store.settings.set_member_setting(7, "confirmations", True)
    assert await store.settings.member_settings(7) == {"confirmations": True, "language": "fr"}
    assert await store.settings.member_settings(8) == {"confirmations": True}
    await store.settings.set_member_setting(7, "language", None)
    assert await store.settings.member_settings(7) == {"confirmations": True}
    assert await store.settings.member_settings(9) == {}
    assert await store.settings.guild_settings(7) == {}  # a member's settings are not a server's
    # several members in one read: each asked for is there, with nothing when it has no settings
    both = {"confirmations": True}
    assert await store.settings.settings_of_members([9, 8, 7, 8]) == {7: both, 8: both, 9: {}}
    assert await store.settings.settings_of_members([]) == {}


async def test_a_new_game_is_a_lobby_with_its_host_seated(store: Store) -> None:
    row = await store.games.create_game(lobby())
    assert (row.status, row.version, row.seed, row.cards, row.options) == (GameStatus.LOBBY, 0, None, None, {"x": 1})
    seats = await store.games.seats(row.id)
    assert [(s.user_id, s.display_name, s.joined, s.seat, s.player) for s in seats] == [(100, "ann", 0, None, None)]
    assert await store.games.active_game(10) == row
    assert await store.games.game(row.id) == row
    assert await store.games.game(row.id + 1) is None


async def test_one_active_game_per_channel(store: Store) -> None:
    first = await store.games.create_game(lobby())
    with pytest.raises(ChannelBusy) as caught:
        await store.games.create_game(lobby(host=200))
    assert caught.value.game_id == first.id
    other = await store.games.create_game(lobby(channel=11))
    assert other.id != first.id
    await store.games.set_status(first.id, 0, GameStatus.CANCELLED)
    again = await store.games.create_game(lobby(host=300))
    assert (await store.games.active_game(10)) == again


async def test_the_database_itself_refuses_a_second_active_game_in_a_channel(tmp_path: Path) -> None:
    store = await SqliteStore.open(tmp_path / "db.sqlite3")
    await store.games.create_game(lobby())
    await store.close()
    conn = sqlite3.connect(tmp_path / "db.sqlite3")
    with pytest.raises(sqlite3.IntegrityError):
        conn.execute(
            "INSERT INTO games (guild_id, channel_id, host_user_id, map, status, created_at, updated_at) "
            "VALUES (1, 10, 5, 'usa', 'playing', 'x', 'x')"
        )
    conn.close()


async def test_seats_join_in_order_and_leave(store: Store) -> None:
    row = await store.games.create_game(lobby())
    v = await store.games.add_seat(row.id, 0, 101, "bob")
    v = await store.games.add_seat(row.id, v, 102, "cid")
    assert v == 2
    v = await store.games.remove_seat(row.id, v, 100, new_host=101)
    v = await store.games.add_seat(row.id, v, 103, "dee")
    seats = await store.games.seats(row.id)
    assert [(s.user_id, s.joined) for s in seats] == [(101, 1), (102, 2), (103, 3)]
    game = await store.games.game(row.id)
    assert game is not None and (game.host_user_id, game.version) == (101, 4)
    with pytest.raises(StoreError, match="already seated"):
        await store.games.add_seat(row.id, v, 102, "cid")
    with pytest.raises(StoreError, match="not seated"):
        await store.games.remove_seat(row.id, v, 999, None)
    assert (await store.games.game(row.id)).version == 4  # type: ignore[union-attr]


async def test_every_versioned_write_refuses_an_old_version(store: Store, database: Database) -> None:
    game_id = await started(store)
    before = await database_fingerprint(database)
    move = NewMove(0, {"player": "bob", "draw": "deck"}, 101, GameStatus.PLAYING, "{}")
    for write in (
        store.games.add_seat(game_id, 1, 105, "x"),
        store.games.remove_seat(game_id, 1, 100, None),
        store.games.set_status(game_id, 1, GameStatus.CANCELLED),
        store.history.append_move(game_id, 1, move),
        store.history.save_snapshot(game_id, 1, 0, "{}"),
    ):
        with pytest.raises(VersionConflict):
            await write
    assert await database_fingerprint(database) == before
    with pytest.raises(UnknownGame):
        await store.games.set_status(999, 0, GameStatus.CANCELLED)


async def test_start_records_seed_decks_seat_order_and_the_first_snapshot(store: Store) -> None:
    game_id = await started(store)
    stored = await store.games.stored_game(game_id)
    assert stored is not None
    row = stored.game
    assert (row.status, row.version, row.seed, row.cards, row.tickets) == (
        GameStatus.SETUP,
        2,
        "s",
        ("red", "blue"),
        (3, 1, 2),
    )
    assert [(s.seat, s.player, s.user_id) for s in stored.seats] == [(0, "bob", 101), (1, "ann", 100)]
    assert stored.snapshot is not None and (stored.snapshot.move_count, stored.snapshot.data) == (0, "{}")
    assert stored.moves == []


async def test_a_start_must_place_every_seat(store: Store, database: Database) -> None:
    row = await store.games.create_game(lobby())
    version = await store.games.add_seat(row.id, 0, 101, "bob")
    before = await database_fingerprint(database)
    start = GameStart("s", [], [], [StartedSeat(100, 0, "ann")], GameStatus.SETUP, "{}")
    with pytest.raises(StoreError, match="2 seats"):
        await store.games.start_game(row.id, version, start)
    assert await database_fingerprint(database) == before


async def test_moves_are_appended_in_order_with_their_snapshot(store: Store) -> None:
    game_id = await started(store)
    v = 2
    for index in range(3):
        move = NewMove(index, {"player": "bob", "n": index}, 101, GameStatus.PLAYING, f'{{"at": {index}}}')
        v = await store.history.append_move(game_id, v, move)
    moves = await store.history.moves(game_id)
    assert [(m.index, m.move["n"], m.user_id) for m in moves] == [(0, 0, 101), (1, 1, 101), (2, 2, 101)]
    snap = await store.history.snapshot(game_id)
    assert snap is not None and (snap.move_count, snap.data) == (3, '{"at": 2}')
    row = await store.games.game(game_id)
    assert row is not None and (row.version, row.status) == (5, GameStatus.PLAYING)
    gap = NewMove(5, {"player": "bob"}, 101, GameStatus.PLAYING, "{}")
    with pytest.raises(StoreError, match="cannot be logged"):
        await store.history.append_move(game_id, v, gap)
    again = NewMove(1, {"player": "bob"}, 101, GameStatus.PLAYING, "{}")
    with pytest.raises(StoreError, match="cannot be logged"):
        await store.history.append_move(game_id, v, again)
    assert len(await store.history.moves(game_id)) == 3
    assert (await store.games.game(game_id)).version == 5  # type: ignore[union-attr]


async def test_the_move_log_cannot_be_rewritten(tmp_path: Path) -> None:
    store = await SqliteStore.open(tmp_path / "store.sqlite3")
    game_id = await started(store)
    await store.history.append_move(game_id, 2, NewMove(0, {"player": "bob"}, 101, GameStatus.PLAYING, "{}"))
    await store.close()
    conn = sqlite3.connect(tmp_path / "store.sqlite3")
    try:
        with pytest.raises(sqlite3.IntegrityError, match="append-only"):
            conn.execute("UPDATE moves SET move = '{}'")
        with pytest.raises(sqlite3.IntegrityError, match="append-only"):
            conn.execute("DELETE FROM moves")
    finally:
        conn.close()


async def test_lookups_by_user_and_status(store: Store) -> None:
    a = await store.games.create_game(lobby(channel=1, host=100))
    b = await store.games.create_game(lobby(channel=2, host=200))
    await store.games.add_seat(b.id, 0, 100, "ann")
    c = await store.games.create_game(lobby(channel=3, host=100))
    await store.games.set_status(c.id, 0, GameStatus.CANCELLED)
    active = {GameStatus.LOBBY, GameStatus.SETUP, GameStatus.PLAYING}
    assert [g.id for g in await store.games.games_of_user(100, active)] == [a.id, b.id]
    assert [g.id for g in await store.games.games_of_user(100, set(GameStatus))] == [a.id, b.id, c.id]
    assert [g.id for g in await store.games.games_of_user(200, active)] == [b.id]
    assert [g.id for g in await store.games.games_with_status({GameStatus.CANCELLED})] == [c.id]
    assert await store.games.games_with_status(set()) == []


async def test_timers_come_back_soonest_first(store: Store) -> None:
    game_id = await started(store)
    now = datetime(2026, 3, 1, 12, tzinfo=UTC)
    late = await store.timers.add_timer(game_id, "turn", now + timedelta(days=2), {"seat": 1})
    soon = await store.timers.add_timer(game_id, "reminder", now + timedelta(hours=1))
    global_timer = await store.timers.add_timer(None, "cleanup", now + timedelta(days=1))
    assert [t.id for t in await store.timers.timers()] == [soon.id, global_timer.id, late.id]
    assert [t.id for t in await store.timers.timers(game_id)] == [soon.id, late.id]
    assert late.data == {"seat": 1} and late.deadline == now + timedelta(days=2)
    assert await store.timers.next_timer() == soon
    assert await store.timers.due_timers(now) == []
    assert [t.id for t in await store.timers.due_timers(now + timedelta(days=1))] == [soon.id, global_timer.id]
    assert await store.timers.delete_timer(soon.id) is True
    assert await store.timers.delete_timer(soon.id) is False
    assert await store.timers.delete_timers(game_id, "reminder") == 0
    assert await store.timers.delete_timers(game_id) == 1
    assert [t.id for t in await store.timers.timers()] == [global_timer.id]
    with pytest.raises(ValueError, match="timezone-aware"):
        await store.timers.add_timer(game_id, "turn", datetime(2026, 1, 1))  # noqa: DTZ001  (a naive time, refused)
    with pytest.raises(UnknownGame):
        await store.timers.add_timer(999, "turn", now)


async def test_a_deadline_in_another_time_zone_is_compared_in_utc(store: Store) -> None:
    plus_two = timezone(timedelta(hours=2))
    await store.timers.add_timer(None, "x", datetime(2026, 1, 1, 13, tzinfo=plus_two))  # 11:00 UTC
    assert await store.timers.due_timers(datetime(2026, 1, 1, 11, 30, tzinfo=UTC)) != []
    assert await store.timers.due_timers(datetime(2026, 1, 1, 10, 30, tzinfo=UTC)) == []


async def test_posted_messages_are_kept_per_game_and_kind(store: Store) -> None:
    game_id = await started(store)
    await store.messages.add_message(game_id, "lobby", 10, 5001)
    await store.messages.add_message(game_id, "turn", 10, 5002)
    await store.messages.add_message(game_id, "turn", 10, 5002)  # recorded twice: kept once
    assert [m.message_id for m in await store.messages.messages(game_id)] == [5001, 5002]
    assert [m.message_id for m in await store.messages.messages(game_id, "turn")] == [5002]
    assert await store.messages.delete_message(5001) is True
    assert await store.messages.delete_message(5001) is False
    with pytest.raises(UnknownGame):
        await store.messages.add_message(999, "turn", 10, 7)


async def test_held_messages_come_back_when_due_and_are_taken_once(store: Store) -> None:
    game_id = await started(store)
    base = datetime(2026, 1, 1, 22, tzinfo=UTC)
    later = await store.messages.hold_message(
        7, game_id, "turn", "turn:3", "It is your turn", base + timedelta(hours=9)
    )
    sooner = await store.messages.hold_message(7, None, "played_for", None, "played for you", base + timedelta(hours=1))
    await store.messages.hold_message(8, game_id, "reminder", "turn:4", "Reminder", base + timedelta(hours=2))
    assert await store.messages.due_held_messages(base) == []
    due = await store.messages.due_held_messages(base + timedelta(hours=2))
    assert [(h.id, h.user_id) for h in due][:1] == [(sooner, 7)] and len(due) == 2
    mine = await store.messages.held_messages(7)
    assert [h.id for h in mine] == [sooner, later]
    assert (mine[1].game_id, mine[1].kind, mine[1].wait, mine[1].text) == (game_id, "turn", "turn:3", "It is your turn")
    assert mine[1].due_at == base + timedelta(hours=9) and mine[0].game_id is None and mine[0].wait is None
    assert await store.messages.take_held_message(sooner) is True
    assert await store.messages.take_held_message(sooner) is False  # taken once: another process gets False
    assert [h.id for h in await store.messages.held_messages(7)] == [later]


async def test_a_message_posted_with_buttons_is_marked_until_they_are_gone(store: Store) -> None:
    game_id = await started(store)
    other = await started(store, channel=11)
    await store.messages.add_message(game_id, "turn:1", 10, 6001, True)
    await store.messages.add_message(game_id, "turn:2", 10, 6002, True)
    await store.messages.add_message(game_id, "breakdown", 10, 6003)
    await store.messages.add_message(other, "turn:1", 11, 6004)
    assert [(m.message_id, m.buttons) for m in await store.messages.messages(game_id)] == [
        (6001, True),
        (6002, True),
        (6003, False),
    ]
    assert [g.id for g in await store.messages.games_with_buttons()] == [game_id]
    assert await store.messages.clear_buttons(6001) is True
    assert await store.messages.clear_buttons(6001) is False  # once
    assert await store.messages.clear_buttons(6004) is False  # never marked
    assert [m.buttons for m in await store.messages.messages(game_id)] == [False, True, False]
    assert await store.messages.clear_buttons(6002) is True
    assert await store.messages.games_with_buttons() == []


async def test_one_message_is_kept_under_each_of_its_stage_keys(store: Store) -> None:
    """The live table is one message edited for every stage: each key is recorded (revision 0018), its mark and
    its records go for all of them at once."""
    game_id = await started(store)
    await store.messages.add_message(game_id, "turn:1", 10, 7001, True)
    await store.messages.add_message(game_id, "notice", 10, 7002)
    await store.messages.add_message(game_id, "turn:2", 10, 7001, True)
    await store.messages.add_message(game_id, "turn:3", 10, 7001, True)
    await store.messages.add_message(game_id, "turn:3", 10, 7001, True)  # recorded twice: kept once
    rows = await store.messages.messages(game_id)
    assert [(m.kind, m.message_id, m.buttons) for m in rows] == [
        ("turn:1", 7001, True),
        ("notice", 7002, False),
        ("turn:2", 7001, True),
        ("turn:3", 7001, True),
    ]
    assert [m.message_id for m in await store.messages.messages(game_id, "turn:3")] == [7001]
    assert await store.messages.clear_buttons(7001) is True
    assert await store.messages.clear_buttons(7001) is False  # once, for every key
    assert [m.buttons for m in await store.messages.messages(game_id)] == [False, False, False, False]
    assert await store.messages.games_with_buttons() == []
    assert await store.messages.delete_message(7001) is True
    assert [m.kind for m in await store.messages.messages(game_id)] == ["notice"]
    assert await store.messages.delete_message(7001) is False


async def test_a_file_that_is_not_a_database_gives_a_clear_error(tmp_path: Path) -> None:
    path = tmp_path / "not.sqlite3"
    path.write_bytes(b"this is not a database, just some text that is long enough" * 20)
    with pytest.raises(StoreError, match="not a database"):
        await SqliteStore.open(path)


async def test_an_audit_entry_alone_leaves_the_game_and_its_timers_as_they_are(store: Store) -> None:
    game_id = await started(store)
    timer = await store.timers.add_timer(game_id, "deadline", datetime(2030, 1, 1, tzinfo=UTC))
    before = await store.games.game(game_id)
    entry = NewAudit(7, "read_log", {}, "a dispute", datetime(2026, 3, 1, tzinfo=UTC))
    audit_id = await store.history.add_audit(game_id, entry)
    assert [(a.id, a.action, a.reason) for a in await store.history.audit_log(game_id)] == [
        (audit_id, "read_log", "a dispute")
    ]
    assert await store.timers.timers(game_id) == [timer]
    assert await store.games.game(game_id) == before
    with pytest.raises(UnknownGame):
        await store.history.add_audit(999, entry)
