"""A planned turn worked out (bot/service/plan_eval.py): hypothesis over random games and random plans, and the
cases by hand (claim, face-up then deck, deck twice, a fallback, a tunnel, tickets)."""

from __future__ import annotations

import random
from collections import Counter

from hypothesis import given, settings
from hypothesis import strategies as st

from bot.present.i18n import speaking
from bot.present.plans import stop_text
from bot.service.kinds import Language
from bot.service.plan_eval import (
    DECK,
    Ending,
    ItemKind,
    PlanItem,
    StopReason,
    evaluate,
    plan_of,
    plan_text,
    suggestion,
    turn_begins,
)
from bot.service.results import PlannedTurn
from engine import Claim, DrawCard, DrawTickets, Game, Keep
from engine.errors import AlreadyClaimed, BothTokens, NotFaceUp
from engine.random_play import random_move
from engine.snapshot import snapshot_text
from maps import MAP_NAMES, WILD, load_board


def _to_turn(game: Game, rng: random.Random, steps: int) -> str | None:
    """Play random moves, then on until some player's turn begins; that player (None if the game ended)."""
    for _ in range(steps):
        move = random_move(game, rng)
        if move is None:
            return None
        game.apply(move)
    for _ in range(200):
        to_move = game.to_move()
        if to_move is None:
            return None
        if turn_begins(game, to_move.player):
            return to_move.player
        move = random_move(game, rng)
        assert move is not None
        game.apply(move)
    return None


@st.composite
def cases(draw: st.DrawFn) -> tuple[Game, str, tuple[PlanItem, ...]]:
    board = load_board(draw(st.sampled_from(MAP_NAMES)))
    n = draw(st.integers(board.rules.min_players, board.rules.max_players))
    game = Game(board, [f"p{i}" for i in range(n)], draw(st.integers(0, 10**6)), pass_round_ends=True)
    player = _to_turn(game, random.Random(draw(st.integers(0, 2**32))), draw(st.integers(0, 120)))
    colours = [*board.rules.colors, WILD, DECK]
    item = st.one_of(
        st.builds(
            lambda r, pay: PlanItem(ItemKind.CLAIM, route=r, pay=pay),
            st.integers(-1, len(board.routes)),
            st.one_of(
                st.none(),
                st.lists(st.tuples(st.sampled_from(colours[:-1]), st.integers(1, 6)), max_size=2).map(
                    lambda pairs: tuple(sorted(dict(pairs).items()))
                ),
            ),
        ),
        st.builds(
            lambda f, s: PlanItem(ItemKind.CARDS, first=f, second=s),
            st.sampled_from(colours[:-1]),
            st.one_of(st.none(), st.sampled_from(colours)),
        ),
        st.just(PlanItem(ItemKind.DECK)),
        st.just(PlanItem(ItemKind.TICKETS)),
    )
    items = tuple(draw(st.lists(item, min_size=1, max_size=5)))
    return game, player or "p0", items


def _named(item: PlanItem, move: object, index: int, game: Game) -> bool:
    """Whether `move` (the `index`th of the played item) is one the item names."""
    if item.kind is ItemKind.CLAIM:
        route = game.board.routes[item.route or 0]
        named = isinstance(move, Claim) and {move.a, move.b} == {route.a, route.b} and move.souvenir is None
        return named and (item.pay is None or move.pay == item.pay)
    if item.kind is ItemKind.TICKETS:
        return isinstance(move, DrawTickets)
    if not isinstance(move, DrawCard):
        return False
    if item.kind is ItemKind.DECK:
        return move.source == DECK
    wanted = item.first if index == 0 else item.second
    return move.source in (wanted, DECK) if index else move.source == wanted


@settings(max_examples=60, deadline=None)
@given(cases())
def test_a_plan_makes_only_moves_it_names_and_a_refused_item_changes_nothing(
    case: tuple[Game, str, tuple[PlanItem, ...]],
) -> None:
    game, player, items = case
    before = snapshot_text(game)
    outcome = evaluate(game, player, items)
    assert snapshot_text(game) == before  # worked out on a copy: the game itself never changes
    if not turn_begins(game, player):
        assert outcome.ending is Ending.NOT_NOW and not outcome.moves
        return
    # the skipped items are the ones before the played one, each with the engine's reason, in order
    played = len(items) if outcome.played is None else outcome.played
    assert [s.index for s in outcome.skipped] == list(range(played))
    if outcome.ending is Ending.NONE_APPLIED:
        assert not outcome.moves
        return
    item = items[played]
    assert outcome.moves and len(outcome.moves) <= 2
    for index, move in enumerate(outcome.moves):
        assert move.player == player
        assert _named(item, move, index, game), (item, move)
        game.apply(move)  # every move it makes is legal, in order
    if outcome.ending is Ending.WAITS:
        # the turn is left to the player, part-way (a tunnel, tickets to keep, a second card)
        to_move = game.to_move()
        assert to_move is not None and to_move.player == player and to_move.must != "turn"
    else:
        assert not turn_begins(game, player) or len(game.names) == 1


def test_plan_text_round_trips() -> None:
    items = (
        PlanItem(ItemKind.CLAIM, route=3, pay=((WILD, 1), ("red", 2))),
        PlanItem(ItemKind.CLAIM, route=4),
        PlanItem(ItemKind.CARDS, first="red", second=DECK),
        PlanItem(ItemKind.DECK),
        PlanItem(ItemKind.TICKETS),
    )
    assert plan_of(plan_text(items)) == items


def _usa_at_turn() -> tuple[Game, str]:
    game = Game(load_board("usa"), ["ann", "bob"], 7, pass_round_ends=True)
    for name in game.names:
        game.apply(next(m for m in game.legal_moves(name) if isinstance(m, Keep)))
    to_move = game.to_move()
    assert to_move is not None and turn_begins(game, to_move.player)
    return game, to_move.player


def test_face_up_then_deck_and_deck_twice() -> None:
    game, player = _usa_at_turn()
    row = [c for c in game.state.piles.face_up if c and c != WILD]
    absent = next(c for c in game.rules.colors if c not in game.state.piles.face_up)
    outcome = evaluate(game, player, [PlanItem(ItemKind.CARDS, first=row[0], second=absent)])
    assert outcome.ending is Ending.PLAYED
    assert outcome.moves == (DrawCard(player, row[0]), DrawCard(player, DECK))  # the second not showing: the deck
    outcome = evaluate(game, player, [PlanItem(ItemKind.CARDS, first=absent), PlanItem(ItemKind.DECK)])
    assert outcome.played == 1 and outcome.moves == (DrawCard(player, DECK), DrawCard(player, DECK))
    assert isinstance(outcome.skipped[0].refusal, NotFaceUp)


def test_a_claimed_route_falls_back_and_tickets_wait() -> None:
    game, player = _usa_at_turn()
    other = next(n for n in game.names if n != player)
    # the route is someone's already: the plan's claim is skipped with the engine's refusal
    route = next(r for r in game.board.routes if not game.board.parallel(r) and r.length == 1)
    game.state.owner[route.id] = game.seat(other)
    outcome = evaluate(game, player, [PlanItem(ItemKind.CLAIM, route=route.id), PlanItem(ItemKind.TICKETS)])
    assert isinstance(outcome.skipped[0].refusal, AlreadyClaimed)
    assert outcome.ending is Ending.WAITS and outcome.stop is StopReason.TICKETS
    assert outcome.moves == (DrawTickets(player),)


def test_a_tunnel_stops_the_plan() -> None:
    for seed in range(40):
        game = Game(load_board("switzerland"), ["ann", "bob"], seed, pass_round_ends=True)
        rng = random.Random(seed)
        player = _to_turn(game, rng, 30)
        if player is None:
            continue
        for option in game.claim_options(player):
            if not option.route.tunnel:
                continue
            outcome = evaluate(game, player, [PlanItem(ItemKind.CLAIM, route=option.route.id)])
            assert outcome.ending in (Ending.PLAYED, Ending.WAITS)
            if outcome.ending is Ending.WAITS:
                assert outcome.stop is StopReason.TUNNEL and len(outcome.moves) == 1
                return
    raise AssertionError("no tunnel asked for extra cards in these games")


def test_an_unpayable_route_is_skipped_without_a_guess() -> None:
    game, player = _usa_at_turn()
    hand: Counter[str] = game.state.players[game.seat(player)].hand
    route = next(r for r in game.board.routes if r.length == 6)
    hand.clear()
    outcome = evaluate(game, player, [PlanItem(ItemKind.CLAIM, route=route.id)])
    assert outcome.ending is Ending.NONE_APPLIED and outcome.skipped[0].refusal is None


def test_the_suggestion_is_a_plan_that_applies_now_with_the_deck_as_fallback() -> None:
    for seed in range(6):
        game = Game(load_board("usa"), ["ann", "bob", "cy"], seed, pass_round_ends=True)
        rng = random.Random(seed)
        player = _to_turn(game, rng, 20 + seed * 7)
        assert player is not None
        other = next(n for n in game.names if n != player)
        before = snapshot_text(game)
        items = suggestion(game, other)  # asked while it is not their turn: as if it were
        assert snapshot_text(game) == before
        assert items[-1] == PlanItem(ItemKind.DECK)
        for item in items:
            if item.kind is ItemKind.CARDS:
                assert item.second is None  # the face-up card's replacement is not known: the deck


def test_a_claim_that_needs_a_souvenir_choice_stops_the_plan_and_plays_nothing() -> None:
    """San Francisco: the route ends at two tokens the player may take; the plan names none, so it plays nothing
    (the fallback after it neither) and the turn waits for the player's choice."""
    board = load_board("san_francisco")
    game = Game(board, ["p0", "p1"], 6, pass_round_ends=True)
    player = _to_turn(game, random.Random(6), 46)
    assert player == "p1"
    before = snapshot_text(game)
    outcome = evaluate(game, player, (PlanItem(ItemKind.CLAIM, route=38), PlanItem(ItemKind.DECK)))
    assert outcome.ending is Ending.WAITS and outcome.stop is StopReason.SOUVENIR
    assert outcome.moves == () and outcome.played is None and outcome.skipped == ()
    assert isinstance(outcome.refusal, BothTokens)
    assert snapshot_text(game) == before


def test_the_souvenir_stop_is_told_in_every_language() -> None:
    board = load_board("san_francisco")
    game = Game(board, ["p0", "p1"], 6, pass_round_ends=True)
    player = _to_turn(game, random.Random(6), 46)
    assert player is not None
    items = (PlanItem(ItemKind.CLAIM, route=38),)
    planned = PlannedTurn(1, player, items, evaluate(game, player, items))
    said = {}
    for language in Language:
        with speaking(language):
            said[language] = stop_text(board, planned)
    assert said[Language.EN].startswith("Your next step needs a choice your plan did not make (")
    assert said[Language.SV].startswith("Ditt nästa steg kräver ett val som din plan inte gjorde (")
    assert said[Language.FI].startswith("Seuraava vaiheesi vaatii valinnan, jota suunnitelmasi ei tehnyt (")
    assert all("{" not in text for text in said.values())
