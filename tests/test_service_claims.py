"""A claim is one service call (issue #62): `service.claims.claim` decides and moves under one lock, on one copy of
the game (the move's), and answers the move made, a question first, or a typed refusal."""

from __future__ import annotations

from collections import Counter

import pytest
from helpers.claim_counting import Tally, count_claims, tallied
from helpers.service_support import started_game

from bot.service import GameService, InvalidInput, NotAPlayer, RuleViolation, StaleVersion
from bot.service.choices import ClaimBlock
from bot.service.claims import Ask, ClaimAsk, Claimed, ClaimQuestion, ClaimRefused
from engine import Claim, ClaimOption, DrawCard, Game
from engine.autopilot import choose_move


async def _mover(service: GameService, game_id: int) -> tuple[Game, str, int]:
    game = await service.reading.engine_game(game_id)
    to_move = game.to_move()
    assert to_move is not None
    user = (await service.core.game(game_id)).user_of(to_move.player)
    assert user is not None
    return game, to_move.player, user


async def _until_claimable(service: GameService, game_id: int) -> tuple[Game, str, int, ClaimOption]:
    """Past the starting tickets, cards drawn turn after turn until the player to move can claim a route."""
    for _ in range(80):
        game, name, user = await _mover(service, game_id)
        to_move = game.to_move()
        assert to_move is not None
        if to_move.must == "turn" and (options := game.claim_options(name)):
            return game, name, user, options[0]
        move = DrawCard(name, "deck") if to_move.must in ("turn", "draw") else choose_move(game, name)
        await service.play.act(game_id, user, move)
    raise AssertionError("no route came up to claim")


async def test_a_claim_made_takes_one_lock_and_one_copy(service: GameService, monkeypatch: pytest.MonkeyPatch) -> None:
    game_id, _ = await started_game(service, "usa", 2)
    game, name, user, option = await _until_claimable(service, game_id)
    version = (await service.core.game(game_id)).version
    calls = count_claims(service, monkeypatch)
    outcome = await service.claims.claim(
        game_id, user, ClaimAsk((option.route.id,), option.payments[0]), expected_version=version
    )
    assert isinstance(outcome, Claimed)
    assert isinstance(outcome.result.game, object) and outcome.result.game.version > version
    [call] = calls.take()
    assert call.tally.cost() == (1, 1, 0)  # one lock, one copy (the move's), nothing loaded
    after = await service.reading.engine_game(game_id)
    assert isinstance(after.moves[-1], Claim) and after.moves[-1].player == name
    assert Counter(after.player(name).hand) == Counter(game.player(name).hand) - option.payments[0]


async def test_the_counters_see_what_a_read_takes(service: GameService, monkeypatch: pytest.MonkeyPatch) -> None:
    """The counters count: the reads the old claim made before its move (each a lock and a copy) are seen."""
    game_id, _ = await started_game(service, "usa", 2)
    user = (await _mover(service, game_id))[2]
    count_claims(service, monkeypatch)
    tally = Tally()
    token = tallied().set(tally)
    try:
        await service.reading.engine_game(game_id)
        await service.choices.claim_choices(game_id, user)
        service.core.forget(game_id)
        await service.reading.game(game_id)
    finally:
        tallied().reset(token)
    assert tally.cost() == (3, 2, 1)  # two copying reads, then a read of the game loaded again


async def test_a_confirmation_then_the_claim_are_two_calls_of_one_lock_each(
    service: GameService, monkeypatch: pytest.MonkeyPatch
) -> None:
    game_id, _ = await started_game(service, "usa", 2)
    game, _name, user, option = await _until_claimable(service, game_id)
    info = await service.core.game(game_id)
    calls = count_claims(service, monkeypatch)
    ask = ClaimAsk((option.route.id,))
    asked = await service.claims.claim(game_id, user, ask, confirm=True, expected_version=info.version)
    assert isinstance(asked, ClaimQuestion) and asked.ask is Ask.CONFIRM
    assert asked.route == option.route and asked.version == info.version
    assert [dict(p) for p in asked.payments] == [dict(p) for p in option.payments]
    assert asked.pay in option.payments
    [first] = calls.take()
    assert first.tally.cost() == (1, 0, 0)  # asked: nothing copied, nothing done
    assert len((await service.reading.engine_game(game_id)).moves) == len(game.moves)
    # a payment the route does not take is refused, typed, as not offered
    odd = await service.claims.claim(
        game_id, user, ClaimAsk((option.route.id,), {"nonsense": 1}), confirm=True, expected_version=info.version
    )
    assert isinstance(odd, ClaimRefused) and odd.refusal.block is ClaimBlock.NOT_OFFERED
    calls.take()
    # confirmed: the second call, of its own, makes the claim as asked
    done = await service.claims.claim(
        game_id, user, ClaimAsk((option.route.id,), asked.pay), expected_version=info.version
    )
    assert isinstance(done, Claimed)
    [second] = calls.take()
    assert second.tally.cost() == (1, 1, 0)
    # an outdated confirmation is refused as stale, under its one lock
    with pytest.raises(StaleVersion):
        await service.claims.claim(game_id, user, ask, confirm=True, expected_version=info.version)
    [stale] = calls.take()
    assert stale.tally.cost() == (1, 0, 0)


async def test_a_refused_claim_takes_one_lock_and_copies_nothing(
    service: GameService, monkeypatch: pytest.MonkeyPatch
) -> None:
    game_id, users = await started_game(service, "usa", 2, trains=3)
    game, name, user, option = await _until_claimable(service, game_id)
    other = next(u for u in users if u != user)
    calls = count_claims(service, monkeypatch)
    waiting = await service.claims.claim(game_id, other, ClaimAsk((option.route.id,)))
    assert isinstance(waiting, ClaimRefused) and waiting.refusal.block is ClaimBlock.NOT_YOUR_TURN
    assert waiting.refusal.to_move == name
    long = next(r for r in game.board.routes if r.length > 3)
    too_long = await service.claims.claim(game_id, user, ClaimAsk((long.id,)))
    assert isinstance(too_long, ClaimRefused) and too_long.refusal.block is ClaimBlock.TOO_FEW_TRAINS
    assert [c.tally.cost() for c in calls.take()] == [(1, 0, 0), (1, 0, 0)]
    # with a payment named, the route is the move's to refuse, in the engine's words: one lock, the move's copy
    with pytest.raises(RuleViolation):
        await service.claims.claim(game_id, user, ClaimAsk((long.id,), {"red": 1}))
    [engine] = calls.take()
    assert engine.tally.cost() == (1, 1, 0)
    with pytest.raises(InvalidInput):
        await service.claims.claim(game_id, user, ClaimAsk((len(game.board.routes),)))
    with pytest.raises(NotAPlayer):
        await service.claims.claim(game_id, 999, ClaimAsk((option.route.id,)))
    assert len((await service.reading.engine_game(game_id)).moves) == len(game.moves)


async def test_two_tracks_named_take_the_first_free_and_a_colour_choice_is_asked(service: GameService) -> None:
    """A typed text may name both tracks between two places: the first the player can claim is taken. A gray route
    payable in two colours asks which (no payment named), then the answer with the payment makes it."""
    game_id, _ = await started_game(service, "usa", 2)
    for _ in range(60):
        game, name, user = await _mover(service, game_id)
        to_move = game.to_move()
        assert to_move is not None
        options = game.claim_options(name) if to_move.must == "turn" else []
        chosen = [o for o in options if _colour_choice(o)]
        if chosen:
            break
        move = DrawCard(name, "deck") if to_move.must in ("turn", "draw") else choose_move(game, name)
        await service.play.act(game_id, user, move)
    else:
        raise AssertionError("no gray route payable in two colours came up (the deal is seeded)")
    route = chosen[0].route
    unclaimable = next(r for r in game.board.routes if r.id not in {o.route.id for o in options})
    asked = await service.claims.claim(game_id, user, ClaimAsk((unclaimable.id, route.id)))
    assert isinstance(asked, ClaimQuestion) and asked.ask is Ask.PAYMENT and asked.route == route
    done = await service.claims.claim(game_id, user, ClaimAsk((route.id,), asked.payments[-1]))
    assert isinstance(done, Claimed)


def _colour_choice(option: ClaimOption) -> bool:
    fewest = min(p["locomotive"] for p in option.payments)
    colours = {
        next((c for c in p if c != "locomotive" and p[c]), "") for p in option.payments if p["locomotive"] == fewest
    }
    return len(colours) > 1
