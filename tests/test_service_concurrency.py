"""Simultaneous actions: on one game exactly one applies; different games never wait for each other."""

from __future__ import annotations

import asyncio
import random
from typing import Any

import pytest
from helpers.service_support import GUILD, open_service, play, replay_rows, same_game, started_game, stored

from bot.service import ActionResult, GameService, NotYourTurn, RuleViolation, StaleVersion, WrongState
from bot.store import Database, GameStatus, NewMove, PostgresStore, SqliteStore
from engine import DrawCard, DrawTickets, MapNames, Move, Pending, Phase
from engine.errors import MustKeep
from engine.random_play import random_move
from maps import MAP_NAMES


async def game_in_play(service: GameService, players: int = 3) -> int:
    """A game where the player to move starts a fresh turn (after setup)."""
    game_id, _ = await started_game(service, "usa", players)
    rng = random.Random(game_id)
    while True:
        game = await service.reading.engine_game(game_id)
        if game.state.phase is Phase.PLAY and game.state.pending is None:
            return game_id
        await play(service, game_id, 1, rng)


async def test_two_clicks_on_the_same_version_apply_once(service: GameService, database: Database) -> None:
    game_id = await game_in_play(service)
    info = await service.core.game(game_id)
    game = await service.reading.engine_game(game_id)
    player = game.names[game.state.current]
    user = info.user_of(player)
    assert user is not None
    moves_before = len(game.moves)
    outcomes = await asyncio.gather(
        service.play.act(game_id, user, DrawCard(player, "deck"), expected_version=info.version),
        service.play.act(game_id, user, DrawCard(player, "deck"), expected_version=info.version),
        return_exceptions=True,
    )
    assert sorted(type(o).__name__ for o in outcomes) == ["ActionResult", "StaleVersion"]
    rows = await stored(database, game_id)
    assert len(rows.moves) == moves_before + 1 and rows.game.version == info.version + 1
    assert same_game(await service.reading.engine_game(game_id), replay_rows(rows))


@pytest.mark.parametrize("first", ["to_move", "other"])
async def test_two_players_at_once_one_applies_the_other_is_told_why(
    service: GameService, database: Database, first: str
) -> None:
    game_id = await game_in_play(service)
    info = await service.core.game(game_id)
    game = await service.reading.engine_game(game_id)
    mover = game.names[game.state.current]
    other = game.names[(game.state.current + 1) % len(game.names)]
    calls = {
        name: service.play.act(game_id, info.user_of(name) or 0, DrawTickets(name), expected_version=info.version)
        for name in (mover, other)
    }
    order = [mover, other] if first == "to_move" else [other, mover]
    outcomes = await asyncio.gather(*(calls[n] for n in order), return_exceptions=True)
    by_name = dict(zip(order, outcomes, strict=True))
    assert isinstance(by_name[mover], ActionResult)
    assert isinstance(by_name[other], StaleVersion if first == "to_move" else NotYourTurn)
    assert len((await stored(database, game_id)).moves) == len(game.moves) + 1


async def test_a_double_click_without_a_version_meets_the_rules(service: GameService, database: Database) -> None:
    game_id = await game_in_play(service)
    info = await service.core.game(game_id)
    game = await service.reading.engine_game(game_id)
    player = game.names[game.state.current]
    user = info.user_of(player) or 0
    outcomes = await asyncio.gather(
        service.play.act(game_id, user, DrawTickets(player)),
        service.play.act(game_id, user, DrawTickets(player)),
        return_exceptions=True,
    )
    assert isinstance(outcomes[0], ActionResult)
    assert isinstance(outcomes[1], RuleViolation)
    assert outcomes[1].reason.refusal == MustKeep(player, MapNames.of(game.rules))
    after = await service.reading.engine_game(game_id)
    assert after.state.pending is Pending.KEEP and len(after.moves) == len(game.moves) + 1


async def test_two_processes_on_one_database_cannot_both_apply(database: Database) -> None:
    first = await open_service(database)
    second = await open_service(database)
    try:
        game_id = await game_in_play(first)
        await second.reading.engine_game(game_id)  # both now hold the game as it is
        game = await first.reading.engine_game(game_id)
        player = game.names[game.state.current]
        info = await first.core.game(game_id)
        user = info.user_of(player) or 0
        # a button pressed twice, each press answered by another process: both carry the version they were shown at
        outcomes = await asyncio.gather(
            first.play.act(game_id, user, DrawCard(player, "deck"), expected_version=info.version),
            second.play.act(game_id, user, DrawCard(player, "deck"), expected_version=info.version),
            return_exceptions=True,
        )
        assert sorted(type(o).__name__ for o in outcomes) == ["ActionResult", "StaleVersion"]
        loser = second if isinstance(outcomes[1], StaleVersion) else first
        # the loser forgot its outdated game: it sees the winner's move and plays on
        assert await play(loser, game_id, 2, random.Random(0)) == 2
        rows = await stored(database, game_id)
        assert len(rows.moves) == len(game.moves) + 3
        assert same_game(await loser.reading.engine_game(game_id), replay_rows(rows))
    finally:
        await first.close()
        await second.close()


async def test_a_process_with_an_old_copy_reads_the_game_again_before_refusing(database: Database) -> None:
    """Two processes on one shard (an overlapping deploy): the one that did not make the last move does not refuse
    the next player's legal move from its old copy ("not your turn"); it reads the game again and makes it."""
    first = await open_service(database)
    second = await open_service(database)
    try:
        game_id = await game_in_play(first)
        before = len((await second.reading.engine_game(game_id)).moves)  # the second process holds it as it is
        for turn in range(4):
            mover, other = (first, second) if turn % 2 == 0 else (second, first)
            game = replay_rows(await stored(database, game_id))  # the game as stored: whose turn it is now
            player = game.names[game.state.current]
            user = (await first.core.game(game_id)).user_of(player) or 0
            # a whole turn (two cards), each move through the process whose turn it is to answer
            for _ in range(2):
                await mover.play.act(game_id, user, DrawCard(player, "deck"))
            assert len((await other.reading.engine_game(game_id)).moves) < len(game.moves) + 2  # its copy is old
        assert len((await stored(database, game_id)).moves) == before + 8  # four turns of two cards, all made
        with pytest.raises(NotYourTurn):  # a move that is not legal on the game as stored is still refused
            game = replay_rows(await stored(database, game_id))
            waiting = game.names[game.state.current]
            not_waiting = next(n for n in game.names if n != waiting)
            user = (await first.core.game(game_id)).user_of(not_waiting) or 0
            await first.play.act(game_id, user, DrawCard(not_waiting, "deck"))
    finally:
        await first.close()
        await second.close()


async def test_moderators_and_lobbies_are_answered_from_the_stored_game_not_an_old_copy(database: Database) -> None:
    """A process that last saw a game in its lobby (a tournament table another process opened and started) refuses
    neither a host's start ("not enough players") nor a moderator's scored end ("nothing to score") from that
    old copy: it reads the game again. A refusal on the game as stored still stands."""
    first = await open_service(database)
    second = await open_service(database)
    try:
        users = [100, 101, 102]
        created = await first.lobby.create_game(GUILD, 4242, users[0], "p0", "usa")
        game_id = created.game.id
        assert len((await first.core.live(game_id)).info.seats) == 1  # the first process holds it as a lobby of one
        await second.lobby.join(game_id, users[1], "p1")
        await first.lobby.start(game_id, users[0])  # not "not enough players": two have joined, as stored
        assert (await second.core.live(game_id)).game is None  # the second process's copy is the lobby
        ended = await second.moderation.end(game_id, 9, True, "scored")
        assert ended.game.status is GameStatus.FINISHED and len(ended.game.seats) == 2
        with pytest.raises(WrongState):
            await first.moderation.end(game_id, 9, True, "again")  # over, as stored: still refused
    finally:
        await first.close()
        await second.close()


class Gate:
    """The real store (mixed in before it), except that appending a move to one chosen game waits for a gate."""

    held_game = 0
    entered: asyncio.Event
    gate: asyncio.Event

    def __init__(self, core: Any) -> None:
        super().__init__(core)  # type: ignore[call-arg]
        append = self.history.append_move  # type: ignore[attr-defined]

        async def append_move(game_id: int, expected_version: int, move: NewMove) -> int:
            if game_id == self.held_game:
                self.entered.set()
                await self.gate.wait()
            return await append(game_id, expected_version, move)  # type: ignore[no-any-return]

        self.history.append_move = append_move  # type: ignore[attr-defined]


class GatedSqlite(Gate, SqliteStore):
    pass


class GatedPostgres(Gate, PostgresStore):
    pass


GatedStore = GatedSqlite | GatedPostgres


async def gated_service(database: Database) -> tuple[GameService, GatedStore]:
    store: GatedStore = await (
        GatedPostgres.open(database) if isinstance(database, str) else GatedSqlite.open(database)
    )
    store.entered, store.gate = asyncio.Event(), asyncio.Event()
    return GameService(store, rng=random.Random(0)), store


async def next_move(service: GameService, game_id: int) -> tuple[int, Move, int]:
    game = await service.reading.engine_game(game_id)
    move = random_move(game, random.Random(len(game.moves)))
    assert move is not None
    info = await service.core.game(game_id)
    return info.user_of(move.player) or 0, move, info.version


async def test_a_slow_game_does_not_hold_up_the_others(database: Database) -> None:
    service, store = await gated_service(database)
    try:
        slow, _ = await started_game(service, "usa", 3)
        quick, _ = await started_game(service, "india", 3)
        store.held_game = slow
        user, move, version = await next_move(service, slow)
        held = asyncio.create_task(service.play.act(slow, user, move, expected_version=version))
        await asyncio.wait_for(store.entered.wait(), 10)
        # the same game waits behind its action in flight ...
        same_game_again = asyncio.create_task(service.play.act(slow, user, move, expected_version=version))
        # ... while another game plays several moves and is read, untouched by it
        for _ in range(5):
            q_user, q_move, q_version = await next_move(service, quick)
            await asyncio.wait_for(service.play.act(quick, q_user, q_move, expected_version=q_version), 10)
        await asyncio.wait_for(service.reading.public_view(quick), 10)
        assert not held.done() and not same_game_again.done()
        store.gate.set()
        assert isinstance(await held, ActionResult)
        with pytest.raises(StaleVersion):
            await same_game_again
        assert len((await stored(database, slow)).moves) == 1
    finally:
        await service.close()


async def test_a_cancelled_caller_does_not_cut_an_action_in_half(database: Database) -> None:
    service, store = await gated_service(database)
    try:
        game_id, _ = await started_game(service, "usa", 2)
        store.held_game = game_id
        user, move, version = await next_move(service, game_id)
        caller = asyncio.create_task(service.play.act(game_id, user, move, expected_version=version))
        await asyncio.wait_for(store.entered.wait(), 10)
        caller.cancel()
        with pytest.raises(asyncio.CancelledError):
            await caller
        store.gate.set()
        # the action finished behind the caller's back, and the service knows it
        after = await service.reading.engine_game(game_id)
        assert after.moves == [move]
        assert (await service.core.game(game_id)).version == version + 1
        rows = await stored(database, game_id)
        assert same_game(after, replay_rows(rows))
        user, move, version = await next_move(service, game_id)
        await service.play.act(game_id, user, move, expected_version=version)
    finally:
        await service.close()


async def test_many_games_in_parallel(service: GameService, database: Database) -> None:
    games = [(await started_game(service, MAP_NAMES[i % len(MAP_NAMES)], 2 + i % 2))[0] for i in range(30)]
    made = await asyncio.gather(*(play(service, g, 25, random.Random(g)) for g in games))
    assert sum(made) > 30 * 20
    for game_id, count in zip(games, made, strict=True):
        rows = await stored(database, game_id)
        assert len(rows.moves) == count
        assert same_game(await service.reading.engine_game(game_id), replay_rows(rows))
