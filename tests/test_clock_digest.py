"""The catch-up digest: what changed since a player's own last turn, and nothing of anyone else's secrets."""

from __future__ import annotations

import pytest
from helpers.clock_support import START, FakeTime, mover, new_game, play_one, to_play_phase

from bot.present.digest import digest_move, turn_notice_text
from bot.present.events import public_text
from bot.present.words import card_name
from bot.service import ActionResult, Actor, GameInfo, GameService, NotAPlayer, SeatInfo
from bot.service.announce import public_events
from bot.service.clock import ClockSettings
from bot.service.digest import digest
from bot.store import GameStatus
from engine import Game
from engine.autopilot import choose_move
from maps import MAP_NAMES, load_board


@pytest.fixture
def service(timed_service: GameService) -> GameService:
    """These tests run the service on simulated time (`time`)."""
    return timed_service


async def test_a_players_turn_comes_with_what_the_others_did_since(service: GameService, time: FakeTime) -> None:
    game_id, _users = await new_game(service, ClockSettings(turn_seconds=3600), players=3)
    await to_play_phase(service, game_id)
    name, user = await mover(service, game_id)
    # the player's turn, then the others' turns, collecting what the channel was told
    results: list[ActionResult] = []
    while True:
        result = await play_one(service, game_id)
        game = await service.reading.engine_game(game_id)
        if game.moves[-1].player != name:
            results.append(result)
        if (await mover(service, game_id))[0] == name:
            break
    last = results[-1]
    (notice,) = [n for n in last.notices if n.user_id == user]
    assert notice.kind == "turn" and notice.deadline is not None
    said = [public_text(r.game, e) for r in results for e in r.public]
    info = last.game
    assert [digest_move(info, e) for e in notice.digest.moves] == said
    text = turn_notice_text(info, notice)
    for line in said:
        assert line in text
    assert "Time left: 1 d 1 h (reserve included)" in text  # an hour's turn and a day's reserve
    game = await service.reading.engine_game(game_id)
    view = await service.reading.public_view(game_id)
    assert view.table is not None
    rules = game.rules
    assert [card_name(rules, c) for c in notice.digest.face_up] == [
        card_name(rules, c) for c in view.table.face_up if c
    ]
    # the same on request, for the player alone
    asked = await service.reading.digest(game_id, user)
    assert asked == notice.digest
    with pytest.raises(NotAPlayer):
        await service.reading.digest(game_id, 999)
    # one note per turn that comes, never one per move
    assert all(len(r.notices) <= 1 for r in results)


async def test_a_notices_digest_read_later_is_the_one_of_the_moment_it_was_made(
    service: GameService, time: FakeTime
) -> None:
    # the digest is worked out when first read: the game moving on meanwhile must not change it
    game_id, _ = await new_game(service, ClockSettings(turn_seconds=3600), players=3)
    await to_play_phase(service, game_id)
    kept = []
    for _ in range(12):
        result = await play_one(service, game_id)
        for notice in result.notices:
            kept.append((notice, await service.reading.digest(game_id, notice.user_id)))
    assert len(kept) >= 6
    for notice, at_the_time in kept:  # read only now, a dozen moves on
        assert notice.digest == at_the_time
        assert notice.digest.user_id == notice.user_id
    assert kept[0][0].digest != kept[-1][0].digest


def _info(game: Game) -> GameInfo:
    seats = tuple(SeatInfo(100 + i, n, i, n) for i, n in enumerate(game.names))
    rules = game.rules
    return GameInfo(1, 1, 1, 100, game.board.name, GameStatus.PLAYING, 0, rules.max_players, None, seats, START)


@pytest.mark.parametrize("map_name", MAP_NAMES)
def test_routes_a_player_needed_are_named_when_another_takes_them(map_name: str) -> None:
    board = load_board(map_name)
    found = 0
    for seed in range(2):
        game = Game(board, [f"p{i}" for i in range(board.rules.max_players)], f"digest-{seed}")
        info = _info(game)
        previous = None
        while not game.finished:
            to_move = game.to_move()
            assert to_move is not None
            if game.state.phase.value == "play" and to_move.player != previous and game.state.pending is None:
                seat = game.names.index(to_move.player)
                report = digest(info, game, seat)
                since = report.since_move
                before = Game(
                    board, game.names, game.seed, game.trains_option, game.initial_cards, game.initial_tickets
                )
                for move in game.moves[:since]:
                    before.apply(move)
                open_tickets = {board.tickets[t].label() for t, done, _ in before.ticket_progress(seat) if not done}
                for lost in report.lost_routes:
                    found += 1
                    owner = game.state.owner[lost.route]
                    assert owner != seat and game.names[owner] == lost.claimed_by
                    assert lost.route not in before.state.owner  # free when the player last moved
                    assert set(lost.tickets) <= open_tickets  # only the player's own unfinished tickets
                # everything else in it is what the channel heard, move by move
                replay = before.copy()
                heard = []
                for move in game.moves[since:]:
                    public = public_events(info, replay, replay.apply(move), Actor.PLAYER)
                    heard += [public_text(info, e) for e in public]
                assert [digest_move(info, e) for e in report.moves] == heard
                assert all(game.moves[i].player != to_move.player for i in range(since, len(game.moves)))
            previous = to_move.player if game.state.pending is None else previous
            game.apply(choose_move(game, to_move.player))
    assert found > 0, "no game had a route taken from under a player"


async def test_an_autopilot_move_is_marked_in_the_digest(service: GameService) -> None:
    game_id, users = await new_game(service, ClockSettings(turn_seconds=3600), players=1, bots=2, max_players=3)
    await to_play_phase(service, game_id)
    result = await play_one(service, game_id)
    while not result.notices:
        result = await play_one(service, game_id)
    (notice,) = result.notices
    assert notice.user_id == users[0]
    moves = [digest_move(result.game, e) for e in notice.digest.moves]
    by_bots = [line for line in moves if line.startswith("Autopilot ")]
    assert by_bots and all(line.endswith("(autopilot)") for line in by_bots)
