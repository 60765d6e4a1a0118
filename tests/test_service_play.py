"""Playing through the service: whole games, refused moves, views, events and records."""

from __future__ import annotations

import json
import random
from collections import Counter
from collections.abc import Mapping
from dataclasses import asdict
from typing import Any

import pytest
from helpers.service_support import database_fingerprint, refused, replay_rows, same_game, started_game, stored

from bot.present.events import public_text
from bot.service import (
    ActionResult,
    GameService,
    InvalidInput,
    NotAllowed,
    NotAPlayer,
    NotYourTurn,
    RuleViolation,
    StaleVersion,
    Why,
    WrongState,
)
from bot.service.events import CardDrawn, PublicEvent, TicketsKept
from bot.service.scores import FinalScores
from bot.service.views import public_view
from bot.store import Database, GameStatus
from engine import Claim, DrawCard, Game, GameError, Keep, Move, NotYourTurnError, Phase
from engine.moves import move_from_json, payment_of
from engine.random_play import random_move
from engine.record import outcome, parse_record, replay
from engine.verify import game_head, verify
from maps import MAP_NAMES, WILD, load_board


async def random_step(service: GameService, game_id: int, rng: random.Random) -> ActionResult | None:
    game = await service.reading.engine_game(game_id)
    move = random_move(game, rng)
    if move is None:
        return None
    info = await service.core.game(game_id)
    user = info.user_of(move.player)
    assert user is not None
    return await service.play.act(game_id, user, move, expected_version=info.version)


@pytest.mark.parametrize("map_name", MAP_NAMES)
async def test_a_whole_game_on_every_map(service: GameService, database: Database, map_name: str) -> None:
    players = load_board(map_name).rules.max_players
    game_id, users = await started_game(service, map_name, players)
    rng = random.Random(map_name)
    last: ActionResult | None = None
    while (result := await random_step(service, game_id, rng)) is not None:
        last = result
    assert last is not None and last.game.status is GameStatus.FINISHED and last.waiting is None
    scores = next(e for e in last.public if e.kind == "final_scores")
    game = await service.reading.engine_game(game_id)
    assert isinstance(scores.data, FinalScores)
    assert list(scores.data.winners) == game.winners()
    assert [s.total for s in scores.data.scores] == [s.total for s in game.score()]
    # the record anyone may now export replays to the very same game
    record = (await service.audit.export_record(game_id)).record
    replayed = replay(parse_record(json.loads(json.dumps(record))))
    assert same_game(replayed, game)
    assert outcome(replayed)["winners"] == list(scores.data.winners)
    assert verify(record).ok and record["conductor"]["verification"]["head"] == game_head(game)
    assert record["conductor"]["seats"] == [
        {"player": s.player, "user_id": s.user_id, "display_name": s.display_name} for s in last.game.seats
    ]
    assert same_game(replay_rows(await stored(database, game_id)), game)
    view = await service.reading.public_view(game_id)
    assert view.table is not None and view.table.scores is not None
    assert view.table.finished and list(view.table.scores.winners) == game.winners()
    with refused(WrongState, Why.NO_MORE_MOVES, status=GameStatus.FINISHED):
        await service.play.act(game_id, users[0], DrawCard(game.names[0], "deck"))


def facts(event: PublicEvent) -> dict[str, Any]:
    """An event's data as plain values (a move's: the engine's public part)."""
    data = event.data
    return dict(data) if isinstance(data, Mapping) else asdict(data)


def illegal_moves(game: Game, rng: random.Random) -> list[tuple[str, Move | dict[str, Any]]]:
    """Moves the engine refuses now, by whoever tries them, written as records or as engine moves."""
    waiting = game.waiting_for()
    player = rng.choice(waiting)
    others = [n for n in game.names if n not in waiting]
    board = game.board
    route = rng.choice(board.routes)
    out: list[tuple[str, Move | dict[str, Any]]] = [
        (player, {"draw": "purple-ish"}),
        (player, {"draw": 7}),
        (player, {"claim": ["Nowhere", route.b], "pay": {"red": 1}}),
        (player, {"claim": [route.a, route.b], "pay": {WILD: 0}}),
        (player, {"keep": "all of them"}),
        (player, {"tunnel": {"red": -1}}),
        (player, {"pass": False}),
        (player, {"draw": "deck", "and": "more"}),
        (player, {"pass": True}),
        (player, Claim(player, route.a, route.b, payment_of(Counter({"red": route.length + 1})))),
        (player, {"keep": [board.tickets[0].ref(), board.tickets[0].ref(), board.tickets[1].ref()]}),
    ]
    if game.state.phase is not Phase.SETUP_KEEP:
        out.append((player, {"draw": "tickets"} if game.state.pending is not None else {"keep": []}))
    for other in others:
        out.append((other, {"draw": "deck"}))
        out.append((other, DrawCard(other, "deck")))
    return out


async def test_every_refused_move_gives_the_engines_message_and_changes_nothing(
    service: GameService, database: Database
) -> None:
    rng = random.Random(7)
    checked = 0
    for map_name in MAP_NAMES:
        game_id, _ = await started_game(service, map_name, 3)
        for stage in range(4):
            for _ in range(rng.randrange(1, 25) if stage else 0):
                await random_step(service, game_id, rng)
            game = await service.reading.engine_game(game_id)
            if game.finished:
                break
            info = await service.core.game(game_id)
            before = await database_fingerprint(database)
            for player, move in illegal_moves(game, rng):
                try:
                    parsed = move_from_json({"player": player, **move}) if isinstance(move, dict) else move
                except GameError:
                    continue  # a malformed record: the engine's reader refuses it, and the service takes engine moves
                try:
                    game.copy().apply(parsed)
                except GameError as exc:
                    expected = exc
                else:
                    continue  # legal after all (it happens): not a refused move
                user = info.user_of(player)
                assert user is not None
                with pytest.raises(RuleViolation) as caught:
                    await service.play.act(game_id, user, parsed, expected_version=info.version)
                assert caught.value.reason.refusal == expected.refusal
                assert isinstance(caught.value, NotYourTurn) == isinstance(expected, NotYourTurnError)
                assert caught.value.reason.__class__ is expected.__class__
                checked += 1
            assert await database_fingerprint(database) == before
            assert same_game(await service.reading.engine_game(game_id), game)
            assert (await service.core.game(game_id)).version == info.version
            # and the game goes on from the same version
            assert await random_step(service, game_id, rng) is not None
    assert checked > 100


async def test_who_may_move_and_when(service: GameService, database: Database) -> None:
    lobby = (await service.lobby.create_game(1, 99, 100, "a", "usa")).game.id
    with refused(WrongState, Why.NOT_STARTED):
        await service.play.act(lobby, 100, DrawCard("a", "deck"))
    game_id, users = await started_game(service, "usa", 2)
    game = await service.reading.engine_game(game_id)
    info = await service.core.game(game_id)
    before = await database_fingerprint(database)
    with pytest.raises(NotAPlayer):
        await service.play.act(game_id, 555, DrawCard(game.names[0], "deck"))
    alice, bob = (info.seats[0], info.seats[1])
    assert alice.player is not None and bob.player is not None
    keep = game.legal_moves(bob.player)[0]
    with refused(NotAllowed, Why.NOT_YOUR_SEAT, player=alice.player):
        await service.play.act(game_id, alice.user_id, keep)
    with refused(NotAllowed, Why.NOT_YOUR_SEAT, claimed=bob.player):
        await service.play.act(game_id, alice.user_id, Keep(bob.player, ()))
    with refused(InvalidInput, Why.BAD_MOVE):
        await service.play.act(game_id, alice.user_id, "draw deck")  # type: ignore[arg-type]
    with refused(StaleVersion, Why.STALE) as stale:
        await service.play.act(game_id, bob.user_id, keep, expected_version=info.version - 1)
    assert (stale.value.expected, stale.value.actual) == (info.version - 1, info.version)
    with refused(InvalidInput, Why.BAD_VERSION):
        await service.play.act(game_id, bob.user_id, keep, expected_version="3")  # type: ignore[arg-type]
    assert await database_fingerprint(database) == before
    done = await service.play.act(game_id, bob.user_id, keep, expected_version=info.version)
    assert done.version == info.version + 1
    assert users == [100, 101]


async def test_tickets_are_kept_by_their_numbers(service: GameService) -> None:
    game_id, _ = await started_game(service, "usa", 2)
    info = await service.core.game(game_id)
    game = await service.reading.engine_game(game_id)
    seat = info.seats[0]
    assert seat.player is not None
    offered = game.player(seat.player).offered or []
    result = await service.play.keep(game_id, seat.user_id, offered[:2])
    assert result.public[0].kind == "keep" and result.public[0].player == seat.player
    kept = result.private_for(seat.user_id)[0].data
    assert isinstance(kept, TicketsKept) and list(kept.kept) == offered[:2]


def scrambled(game: Game, rng: random.Random) -> Game:
    """The same table with every secret changed: hands, tickets, offers, deck orders."""
    other = game.copy()
    s = other.state
    colours = [*game.rules.colors, WILD]
    pool = list(range(len(game.board.tickets)))
    for p in s.players:
        size = p.cards
        p.hand = Counter(rng.choice(colours) for _ in range(size))
        p.tickets = rng.sample(pool, len(p.tickets))
        if p.offered is not None:
            p.offered = rng.sample(pool, len(p.offered))
    rng.shuffle(s.piles.deck)
    rng.shuffle(s.ticket_deck)
    return other


async def test_the_public_view_depends_on_nothing_secret(service: GameService) -> None:
    rng = random.Random(3)
    compared = 0
    for map_name in MAP_NAMES:
        game_id, _ = await started_game(service, map_name, 3)
        while True:
            game = await service.reading.engine_game(game_id)
            if game.finished:
                break
            info = await service.core.game(game_id)
            view = public_view(info, game)
            assert view == await service.reading.public_view(game_id)
            for _ in range(2):
                assert public_view(info, scrambled(game, rng)) == view
            compared += 1
            for _ in range(rng.randrange(1, 30)):
                if await random_step(service, game_id, rng) is None:
                    break
    assert compared > 20


async def test_public_events_never_carry_a_players_secret(service: GameService) -> None:
    rng = random.Random(11)
    seen: Counter[str] = Counter()
    for map_name in MAP_NAMES:
        game_id, _ = await started_game(service, map_name, 3)
        board = load_board(map_name)
        while (result := await random_step(service, game_id, rng)) is not None:
            for note in result.private:
                seen[note.kind] += 1
                for event in result.public:
                    said = public_text(result.game, event)
                    if note.kind == "draw_deck" and event.kind == "draw_deck":
                        assert set(facts(event)) == {"second"}
                        assert not any(c in said for c in (*board.rules.colors, board.rules.wild_name))
                    for ticket in getattr(note.data, "tickets", ()):
                        assert ticket.label not in said
                        assert board.tickets[ticket.id].origin not in said
                    assert "kept" not in facts(event) or isinstance(facts(event)["kept"], int)
                    assert "offered" not in facts(event)
            for event in result.public:
                if event.kind == "final_scores":
                    continue  # tickets are shown to all at the end
                assert "tickets" not in json.dumps(facts(event)) or event.kind == "started"
    assert seen["draw_deck"] > 10 and seen["keep"] > 10 and seen["draw_tickets"] > 0


async def test_private_events_go_to_the_player_who_acted_and_tell_the_truth(service: GameService) -> None:
    rng = random.Random(5)
    game_id, _ = await started_game(service, "usa", 3)
    drawn = 0
    for _ in range(200):
        before = await service.reading.engine_game(game_id)
        result = await random_step(service, game_id, rng)
        if result is None:
            break
        after = await service.reading.engine_game(game_id)
        for note in result.private:
            seat = result.game.seat_of(note.user_id)
            assert seat is not None and seat.player == result.public[0].player
            if note.kind == "draw_deck":
                gained = after.player(seat.player).hand - before.player(seat.player).hand
                assert isinstance(note.data, CardDrawn)
                assert gained == Counter({note.data.card: 1})
                drawn += 1
    assert drawn > 5


async def test_the_private_view_shows_own_cards_and_moves_that_work(service: GameService) -> None:
    rng = random.Random(8)
    for map_name in MAP_NAMES:
        game_id, _ = await started_game(service, map_name, 3)
        for _ in range(rng.randrange(5, 60)):
            await random_step(service, game_id, rng)
        game = await service.reading.engine_game(game_id)
        info = await service.core.game(game_id)
        for seat in info.seats:
            assert seat.player is not None and seat.seat is not None
            view = await service.reading.private_view(game_id, seat.user_id)
            mine = game.state.players[seat.seat]
            assert view.hand == {c: n for c, n in mine.hand.items() if n}
            assert [t.id for t in view.tickets] == mine.tickets
            assert view.your_move == (seat.player in game.waiting_for())
            if not view.your_move:
                assert view.options is None
                continue
            options = view.options
            assert options is not None
            if options.place is not None:
                continue
            assert list(options.card_draws) == game.card_draws(seat.player)
            for claim in options.claims:
                route = game.board.routes[claim.route]
                for pay in claim.payments:
                    colour = route.color if len(game.board.routes_between(route.a, route.b)) > 1 else None
                    move = Claim(seat.player, route.a, route.b, payment_of(Counter(pay)), colour)
                    try:
                        game.copy().apply(move)
                    except GameError as exc:
                        assert len(claim.souvenirs) == 2, exc  # must name a souvenir
            json.dumps(asdict(view))  # a view is made of plain JSON values


async def test_records_are_for_everyone_after_the_end_and_for_moderators_any_time(service: GameService) -> None:
    lobby = (await service.lobby.create_game(1, 98, 100, "a", "usa")).game.id
    with refused(WrongState, Why.NO_RECORD):
        await service.audit.export_record(lobby, 99, moderator=True)
    game_id, _ = await started_game(service, "amsterdam", 2)
    rng = random.Random(2)
    for _ in range(20):
        await random_step(service, game_id, rng)
    with refused(NotAllowed, Why.RECORD_NOT_YET):
        await service.audit.export_record(game_id)
    record = (await service.audit.export_record(game_id, 99, moderator=True)).record
    assert same_game(replay(parse_record(record)), await service.reading.engine_game(game_id))
    assert record["conductor"]["status"] == "playing"
    await service.lobby.cancel(game_id, 1, moderator=True)
    cancelled = (await service.audit.export_record(game_id)).record
    assert cancelled["conductor"]["status"] == "cancelled"
