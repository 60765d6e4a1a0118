"""The service's queries for the front end: move choices and claim refusals, stages, images, its records."""

from __future__ import annotations

import pytest
from helpers.service_support import GUILD, started_game

from bot.present.image_words import IMAGE_WORDS
from bot.service import Actor, GameService, InvalidInput, NotAPlayer, WrongState
from bot.service.choices import ClaimBlock
from bot.service.claims import ClaimAsk, Claimed
from bot.service.stages import stage_key
from bot.store import GameStatus
from engine import Claim, DrawCard, Game, ToMove
from engine.autopilot import choose_move
from engine.moves import payment_of
from maps import MAP_NAMES, load_board
from render import static_layer


async def _move(service: GameService, game_id: int, game: Game) -> None:
    """The autopilot's move for whoever must act first."""
    player = game.waiting_for()[0]
    info = await service.core.game(game_id)
    user = info.user_of(player)
    assert user is not None
    await service.play.act(game_id, user, choose_move(game, player))


async def _to_play(service: GameService, game_id: int) -> Game:
    """Past the ticket choice at the start: the first turn."""
    game = await service.reading.engine_game(game_id)
    while stage_key(game) == "setup":
        await _move(service, game_id, game)
        game = await service.reading.engine_game(game_id)
    return game


async def _first_turn(service: GameService, game_id: int) -> tuple[Game, ToMove, int]:
    """Past the ticket choice at the start: the game, who is to move and their member."""
    game = await _to_play(service, game_id)
    mover = game.to_move()
    assert mover is not None
    user = (await service.core.game(game_id)).user_of(mover.player)
    assert user is not None
    return game, mover, user


async def test_claim_choices_are_the_engines_for_the_player_to_move(service: GameService) -> None:
    game_id, users = await started_game(service, "usa", 2)
    early = await service.choices.claim_choices(game_id, users[0])
    assert early.refusal is not None and early.refusal.block is ClaimBlock.NOT_UNDER_WAY and not early.routes
    game, mover, user = await _first_turn(service, game_id)
    other = next(u for u in users if u != user)
    choices = await service.choices.claim_choices(game_id, user)
    assert choices.refusal is None and choices.player == mover.player
    expected = {o.route.id: [dict(p) for p in o.payments] for o in game.claim_options(mover.player)}
    assert {c.route.id: [dict(p) for p in c.payments] for c in choices.routes} == expected
    assert await service.choices.card_draws(game_id, user) == tuple(game.card_draws(mover.player))
    waiting = await service.choices.claim_choices(game_id, other)
    assert waiting.refusal is not None and waiting.refusal.block is ClaimBlock.NOT_YOUR_TURN
    assert waiting.refusal.to_move == mover.player and not waiting.routes
    assert await service.choices.card_draws(game_id, other) == ()
    # after a first card the turn is not done: a claim must wait
    await service.play.act(game_id, user, DrawCard(mover.player, "deck"))
    half = await service.choices.claim_choices(game_id, user)
    assert half.refusal is not None and half.refusal.block is ClaimBlock.FINISH_FIRST and half.refusal.must == "draw"
    with pytest.raises(NotAPlayer):
        await service.choices.claim_choices(game_id, 999)


async def test_a_refused_route_says_why_in_the_engines_terms(service: GameService) -> None:
    game_id, _users = await started_game(service, "usa", 2, trains=3)
    game, mover, user = await _first_turn(service, game_id)
    info = await service.core.game(game_id)
    long = next(r for r in game.board.routes if r.length > 3)
    too_long = await service.choices.claim_refusal(game_id, user, long.id)
    assert too_long is not None and too_long.block is ClaimBlock.TOO_FEW_TRAINS
    assert (too_long.route, too_long.needs, too_long.has) == (long, long.length, 3)
    open_routes = {o.route.id for o in game.claim_options(mover.player)}
    unpaid = next(r for r in game.board.routes if r.length <= 3 and r.id not in open_routes)
    cannot = await service.choices.claim_refusal(game_id, user, unpaid.id)
    assert cannot is not None and cannot.block is ClaimBlock.CANNOT_PAY and cannot.route == unpaid
    for route_id in open_routes:
        assert await service.choices.claim_refusal(game_id, user, route_id) is None
    with pytest.raises(InvalidInput):
        await service.choices.claim_refusal(game_id, user, len(game.board.routes))
    # once a route is claimed, the next player to start a turn is told it is taken, in the engine's words
    while True:
        await _move(service, game_id, game)
        game = await service.reading.engine_game(game_id)
        to_move = game.to_move()
        assert to_move is not None, "the game ended before anyone claimed a route"
        seat = game.seat(to_move.player)
        taken = [r for r in game.board.routes if game.state.owner.get(r.id, seat) != seat]
        if taken and to_move.must == "turn":
            break
    user = info.user_of(to_move.player)
    assert user is not None
    refused = await service.choices.claim_refusal(game_id, user, taken[0].id)
    assert refused is not None and refused.block is ClaimBlock.ROUTE_TAKEN and refused.route == taken[0]
    assert refused.reason == game.route_status(seat, taken[0])


async def test_a_claim_by_route_id_names_the_track_of_a_double_route(service: GameService) -> None:
    game_id, _users = await started_game(service, "usa", 2)
    game, mover, user = await _first_turn(service, game_id)
    doubles = [o for o in game.claim_options(mover.player) if len(game.board.parallel(o.route)) > 0]
    for option in doubles[:1]:
        outcome = await service.claims.claim(game_id, user, ClaimAsk((option.route.id,), option.payments[0]))
        assert isinstance(outcome, Claimed)
        result = outcome.result
        assert any(e.kind == "claim" and e.data["route"] == option.route.id for e in result.public)
        after = await service.reading.engine_game(game_id)
        assert after.moves[-1] == Claim(
            mover.player, option.route.a, option.route.b, payment_of(option.payments[0]), option.route.color
        )


async def test_the_stage_view_tells_the_stage_and_what_happened_so_far(service: GameService) -> None:
    game_id, _users = await started_game(service, "usa", 2)
    start = await service.stages.stage(game_id)
    assert start.key == "setup" and start.history == () and start.image is None
    names = [p.player for p in start.table.players]
    assert {w.player for w in start.table.waiting_for} == set(names) and len(names) == 2
    game = await _to_play(service, game_id)
    first = await service.stages.stage(game_id, history=True, image=({0: "a", 1: "b"}, IMAGE_WORDS))
    assert first.key == "turn:0" and first.table.turn == 0
    assert first.table.to_move is not None and first.table.to_move.player == game.names[0]
    assert [s.key for s in first.history] == ["setup"] and not first.stuck
    assert first.image is not None and first.image.png.startswith(b"\x89PNG")
    while stage_key(game) == "turn:0":
        await _move(service, game_id, game)
        game = await service.reading.engine_game(game_id)
    now = await service.stages.stage(game_id, history=True)
    assert now.key == "turn:1" and [s.key for s in now.history] == ["setup", "turn:0"]
    assert now.image is None  # not asked for
    told = [m.actor for s in now.history for m in s.moves]
    assert told and set(told) == {Actor.PLAYER}
    assert now.history == await service.reading.history(game_id)


async def test_the_stage_at_the_end_carries_the_scores(service: GameService) -> None:
    game_id, users = await started_game(service, "usa", 2)
    await _to_play(service, game_id)
    info = await service.core.game(game_id)
    await service.moderation.end(game_id, users[0], True, "testing")
    final = await service.stages.stage(game_id, image=({}, IMAGE_WORDS))
    assert final.key == "final" and final.early and final.image is not None
    scores = final.table.scores
    assert scores is not None and {s.player for s in scores.scores} == {s.player for s in info.seats}


async def test_images_of_the_board_and_of_a_hand(service: GameService) -> None:
    game_id, users = await started_game(service, "india", 3)
    board = await service.images.board_image(game_id, {0: "x"}, words=IMAGE_WORDS)
    hand = await service.images.hand_image(game_id, users[1], {}, words=IMAGE_WORDS)
    assert board.png.startswith(b"\x89PNG") and hand.png.startswith(b"\x89PNG") and board.png != hand.png
    assert board.alt_text and hand.alt_text
    with pytest.raises(NotAPlayer):
        await service.images.hand_image(game_id, 999, {}, words=IMAGE_WORDS)
    lobby = await service.lobby.create_game(GUILD, 77, 500, "host", "usa")
    with pytest.raises(WrongState):
        await service.images.board_image(lobby.game.id, {}, words=IMAGE_WORDS)


async def test_the_front_ends_records(service: GameService) -> None:
    game_id, _users = await started_game(service, "usa", 2)
    assert await service.front.posted_messages(game_id) == []
    await service.front.remember_message(game_id, "turn:0", 5, 50)
    await service.front.remember_message(game_id, "reminder", 5, 51)
    assert [(m.kind, m.message_id) for m in await service.front.posted_messages(game_id)] == [
        ("turn:0", 50),
        ("reminder", 51),
    ]
    assert [m.message_id for m in await service.front.posted_messages(game_id, "reminder")] == [51]
    await service.front.forget_message(51)
    assert [m.message_id for m in await service.front.posted_messages(game_id)] == [50]
    assert not await service.front.refuses_dms(7)
    await service.front.set_refuses_dms(7, True)
    assert await service.front.refuses_dms(7)
    assert await service.front.synced_commands("1:global") is None
    await service.front.set_synced_commands("1:global", "abc")
    assert await service.front.synced_commands("1:global") == "abc"
    info = await service.core.game(game_id)
    assert await service.front.latest_game_id(info.channel_id) == game_id
    assert await service.front.latest_game_id(123456) is None
    assert game_id in await service.front.running_games()
    lobby = await service.lobby.create_game(GUILD, 78, 500, "host", "usa")
    assert lobby.game.status is GameStatus.LOBBY and lobby.game.id not in await service.front.running_games()


async def test_warm_up_builds_every_static_layer_maps_of_running_games_first(
    service: GameService, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(static_layer, "_cache", {})  # as in a new process: no layer built yet
    await started_game(service, "switzerland", 2)
    await service.lobby.create_game(GUILD, 78, 600, "host", "san_francisco")  # a lobby counts too: it will need images
    built: list[str] = []
    real = static_layer.build_static_board
    monkeypatch.setattr(static_layer, "build_static_board", lambda b, *a: built.append(b.name) or real(b, *a))
    order = await service.images.warm_up(words=IMAGE_WORDS)
    assert order[:2] == ["switzerland", "san_francisco"] and sorted(order) == sorted(MAP_NAMES)
    assert built == order  # each layer built once, in that order
    for name in MAP_NAMES:  # a render now finds its layer ready
        assert static_layer._cache[(name, static_layer.caption(load_board(name), IMAGE_WORDS))].board.name == name
    await service.images.warm_up(words=IMAGE_WORDS)
    assert built == order  # nothing built twice
