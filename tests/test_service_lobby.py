"""The lobby through the service: create, join, leave, cancel, start, lookups."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest
from helpers.service_support import database_fingerprint, refused

from bot.service import (
    ChannelBusy,
    GameFull,
    GameService,
    InvalidInput,
    NotAllowed,
    NotAPlayer,
    NotFound,
    StaleVersion,
    Why,
    WrongState,
)
from bot.service.errors import IdKind
from bot.service.events import Cancelled, Dealt
from bot.service.names import unique_names
from bot.service.views import LobbySeat
from bot.store import Database, GameStatus
from engine import Phase


async def test_a_lobby_fills_and_starts_with_a_random_seat_order(service: GameService) -> None:
    created = await service.lobby.create_game(1, 10, 100, "Ann", "usa", max_players=4)
    game_id = created.game.id
    assert created.game.status is GameStatus.LOBBY
    assert [e.kind for e in created.public] == ["created"]
    for user, name in ((101, "Bob"), (102, "Cid")):
        joined = await service.lobby.join(game_id, user, name)
        assert joined.public[0].kind == "joined" and joined.public[0].user_id == user
    started = await service.lobby.start(game_id, 100)
    info = started.game
    assert info.status is GameStatus.SETUP and info.version == 3
    assert sorted(s.user_id for s in info.seats) == [100, 101, 102]
    assert [s.seat for s in info.seats] == [0, 1, 2]
    assert {s.player for s in info.seats} == {"Ann", "Bob", "Cid"}
    assert started.public[0].kind == "started"
    # everyone is dealt privately: their own hand and ticket offer, and nobody else's
    assert sorted(e.user_id for e in started.private) == [100, 101, 102]
    game = await service.reading.engine_game(game_id)
    for event in started.private:
        assert isinstance(event.data, Dealt)
        seat = info.seat_of(event.user_id)
        assert seat is not None and seat.seat is not None
        player = game.state.players[seat.seat]
        assert list(event.data.offered) == player.offered
        assert event.data.hand == {c: n for c, n in player.hand.items() if n}
    assert started.waiting is not None and started.waiting.must == "keep"
    assert set(started.waiting.user_ids) == {100, 101, 102}
    assert game.state.phase is Phase.SETUP_KEEP and game.moves == []


async def test_seat_order_and_seed_come_from_the_service_rng(database: Database, tmp_path: Path) -> None:
    orders = set()
    seeds = set()
    for attempt in range(8):
        service = await GameService.open(tmp_path / f"{attempt}.sqlite3", rng=random.Random(attempt))
        try:
            created = await service.lobby.create_game(1, 10, 100, "a", "usa")
            for user in (101, 102, 103):
                await service.lobby.join(created.game.id, user, f"u{user}")
            started = await service.lobby.start(created.game.id, 100)
            orders.add(tuple(s.user_id for s in started.game.seats))
            seeds.add((await service.reading.engine_game(created.game.id)).seed)
        finally:
            await service.close()
    assert len(orders) > 1 and len(seeds) == 8


async def test_a_secure_rng_is_the_default(database: Database) -> None:
    service = await GameService.open(database)
    try:
        assert isinstance(service.core.rng, random.SystemRandom)
    finally:
        await service.close()


async def test_one_active_game_per_channel(service: GameService) -> None:
    first = await service.lobby.create_game(1, 10, 100, "a", "usa")
    with refused(ChannelBusy, Why.CHANNEL_BUSY, game_id=first.game.id) as caught:
        await service.lobby.create_game(1, 10, 200, "b", "india")
    assert caught.value.game_id == first.game.id
    await service.lobby.cancel(first.game.id, 100)
    second = await service.lobby.create_game(1, 10, 200, "b", "india")
    assert (await service.reading.active_game(10)) == second.game


@pytest.mark.parametrize(
    ("kwargs", "why", "facts"),
    [
        ({"map_name": "atlantis"}, Why.UNKNOWN_MAP, {"map": "atlantis"}),
        ({"map_name": "switzerland", "max_players": 4}, Why.BAD_SEATS, {"map": "switzerland", "low": 2, "high": 3}),
        ({"max_players": 1}, Why.BAD_SEATS, {"low": 2, "high": 5}),
        ({"max_players": True}, Why.BAD_SEATS, {"low": 2, "high": 5}),
        ({"trains": 2}, Why.BAD_TRAINS, {"low": 3, "high": 60}),
        ({"trains": "12"}, Why.BAD_TRAINS, {"low": 3, "high": 60}),
        ({"host_name": None}, Why.NO_DISPLAY_NAME, {}),
        ({"channel_id": -5}, Why.BAD_ID, {"what": IdKind.CHANNEL}),
        ({"guild_id": "1"}, Why.BAD_ID, {"what": IdKind.SERVER}),
        ({"host_user_id": 2**63}, Why.BAD_ID, {"what": IdKind.USER}),
    ],
)
async def test_bad_options_are_refused_and_change_nothing(
    service: GameService, database: Database, kwargs: dict[str, Any], why: Why, facts: dict[str, object]
) -> None:
    args: dict[str, Any] = {
        "guild_id": 1,
        "channel_id": 10,
        "host_user_id": 100,
        "host_name": "ann",
        "map_name": "usa",
    }
    args.update(kwargs)
    before = await database_fingerprint(database)
    with refused(InvalidInput, why, **facts):
        await service.lobby.create_game(**args)
    assert await database_fingerprint(database) == before


async def test_a_name_with_nothing_visible_is_kept_empty_and_its_seat_plays_as_player_n(service: GameService) -> None:
    # it used to be refused; now the member plays, as "player N"
    game_id = (await service.lobby.create_game(1, 10, 100, " \u200b\n", "usa")).game.id
    await service.lobby.join(game_id, 101, "bob")
    info = await service.core.game(game_id)
    assert [s.display_name for s in info.seats] == ["", "bob"]
    await service.lobby.start(game_id, 100)
    players = {s.user_id: s.player for s in (await service.core.game(game_id)).seats}
    assert players[101] == "bob" and players[100] in ("player 1", "player 2")


async def test_joining_is_refused_when_full_twice_or_after_the_start(service: GameService, database: Database) -> None:
    game_id = (await service.lobby.create_game(1, 10, 100, "a", "switzerland", max_players=2)).game.id
    with refused(WrongState, Why.ALREADY_JOINED):
        await service.lobby.join(game_id, 100, "a")
    await service.lobby.join(game_id, 101, "b")
    before = await database_fingerprint(database)
    with refused(GameFull, Why.FULL, seats=2):
        await service.lobby.join(game_id, 102, "c")
    assert await database_fingerprint(database) == before
    await service.lobby.start(game_id, 100)
    with refused(WrongState, Why.ALREADY_STARTED):
        await service.lobby.join(game_id, 102, "c")
    with refused(NotFound, Why.NO_SUCH_GAME, game_id=999):
        await service.lobby.join(999, 102, "c")


async def test_only_the_host_starts_and_only_with_enough_players(service: GameService) -> None:
    game_id = (await service.lobby.create_game(1, 10, 100, "a", "usa")).game.id
    with refused(WrongState, Why.TOO_FEW, low=2, joined=1):
        await service.lobby.start(game_id, 100)
    await service.lobby.join(game_id, 101, "b")
    with refused(NotAllowed, Why.ONLY_HOST_STARTS):
        await service.lobby.start(game_id, 101)
    with refused(StaleVersion, Why.STALE):
        await service.lobby.start(game_id, 100, expected_version=0)
    started = await service.lobby.start(game_id, 100, expected_version=1)
    assert started.game.status is GameStatus.SETUP
    with refused(WrongState, Why.ALREADY_STARTED):
        await service.lobby.start(game_id, 100)


async def test_a_leaving_host_hands_over_and_the_last_one_out_cancels(service: GameService) -> None:
    game_id = (await service.lobby.create_game(1, 10, 100, "a", "usa")).game.id
    await service.lobby.join(game_id, 101, "b")
    await service.lobby.join(game_id, 102, "c")
    left = await service.lobby.leave(game_id, 100)
    assert left.game.host_user_id == 101
    assert [e.kind for e in left.public] == ["left", "host_changed"]
    assert [s.user_id for s in left.game.seats] == [101, 102]
    left = await service.lobby.leave(game_id, 102)
    assert left.game.host_user_id == 101 and [e.kind for e in left.public] == ["left"]
    with pytest.raises(NotAPlayer):
        await service.lobby.leave(game_id, 102)
    last = await service.lobby.leave(game_id, 101)
    assert last.game.status is GameStatus.CANCELLED
    assert [e.kind for e in last.public] == ["left", "cancelled"]
    assert await service.reading.active_game(10) is None


async def test_leaving_or_cancelling_a_started_game(service: GameService) -> None:
    game_id = (await service.lobby.create_game(1, 10, 100, "a", "usa")).game.id
    await service.lobby.join(game_id, 101, "b")
    with refused(NotAllowed, Why.ONLY_HOST_CANCELS):
        await service.lobby.cancel(game_id, 101)
    await service.lobby.start(game_id, 100)
    with refused(WrongState, Why.LEAVE_STARTED):
        await service.lobby.leave(game_id, 101)
    with refused(WrongState, Why.CANCEL_STARTED):
        await service.lobby.cancel(game_id, 100)
    cancelled = await service.lobby.cancel(game_id, 555, moderator=True)
    assert cancelled.game.status is GameStatus.CANCELLED
    assert cancelled.public[0].data == Cancelled(moderator=True)
    with refused(WrongState, Why.ALREADY_OVER, status=GameStatus.CANCELLED):
        await service.lobby.cancel(game_id, 555, moderator=True)


async def test_lookups_of_channels_and_users(service: GameService) -> None:
    a = (await service.lobby.create_game(1, 10, 100, "a", "usa")).game.id
    b = (await service.lobby.create_game(1, 11, 200, "b", "india")).game.id
    await service.lobby.join(b, 100, "a")
    c = (await service.lobby.create_game(1, 12, 100, "a", "amsterdam")).game.id
    await service.lobby.cancel(c, 100)
    assert [g.id for g in await service.reading.games_of_user(100)] == [a, b]
    assert [g.id for g in await service.reading.games_of_user(100, active_only=False)] == [a, b, c]
    assert await service.reading.games_of_user(999) == []
    found = await service.reading.active_game(11)
    assert found is not None and found.id == b and [s.user_id for s in found.seats] == [200, 100]
    assert await service.reading.active_game(12) is None
    info = await service.core.game(b)
    assert info.title == "India" and info.max_players == 4 and info.trains is None


async def test_players_with_the_same_display_name_get_distinct_record_names(service: GameService) -> None:
    game_id = (await service.lobby.create_game(1, 10, 100, "Ann", "usa")).game.id
    await service.lobby.join(game_id, 101, "ann")
    await service.lobby.join(game_id, 102, "  Ann\u200b ")
    started = await service.lobby.start(game_id, 100)
    names = [s.player for s in started.game.seats]
    assert len(set(names)) == 3
    assert all(isinstance(n, str) and n.casefold().startswith("ann") for n in names)


def test_unique_names_keep_real_names_and_number_the_copies() -> None:
    assert unique_names(["Ann", "ann", "ann (2)"]) == ["Ann", "ann (3)", "ann (2)"]
    assert unique_names(["", "\x00"]) == ["player 1", "player 2"]
    long = "x" * 40
    named = unique_names([long, long])
    assert named == ["x" * 32, "x" * 28 + " (2)"]
    assert unique_names(["a\tb\n c"]) == ["a b c"]


async def test_a_private_view_needs_a_seat_and_a_deal(service: GameService) -> None:
    game_id = (await service.lobby.create_game(1, 10, 100, "a", "usa")).game.id
    with refused(WrongState, Why.NOT_DEALT):
        await service.reading.private_view(game_id, 100)
    with pytest.raises(NotAPlayer):
        await service.reading.private_view(game_id, 101)
    with refused(WrongState, Why.NOT_DEALT):
        await service.reading.engine_game(game_id)
    view = await service.reading.public_view(game_id)
    assert view.lobby == (LobbySeat(user_id=100, display_name="a", host=True),)
    assert view.status == "lobby"
