"""The engine's refusals met in play, in English, Swedish and Finnish (bot/present/rule_errors.py).

Real games on every map are played at random; at each step a batch of moves
a member could try (wrong player, wrong route, wrong cards, wrong tickets,
wrong stacks...) is checked, and every refusal the engine gives is collected.
Each must be of a kind worded in every language; every such kind must turn
up; each is worded in Swedish and Finnish with its facts (the refusal's
fields) filled. English is the catalogue's too (tests/test_rule_error_words.py words every kind, setup and
record form included, in every language).
"""

from __future__ import annotations

import ast
import random
import re
from collections import Counter
from dataclasses import fields
from functools import cache
from pathlib import Path

import pytest

from bot.present.claims import claim_refusal_text
from bot.present.i18n import speaking
from bot.present.names import ticket_label
from bot.present.refusals import refusal_text
from bot.present.rule_errors import IN_PLAY, rule_error_text, rules_of, worded
from bot.present.words import colour_name
from bot.service.choices import ClaimBlock, ClaimRefusal
from bot.service.errors import RuleViolation
from bot.service.kinds import Language
from engine import Claim, DrawCard, DrawTickets, Game, GameError, Keep, MapNames, Pass, PlaceStack, Refusal, TunnelPay
from engine.errors import AlreadyClaimed, HoldOnly, NotYourTurn, PassNotTrue, WildSecond, refusal_kinds
from engine.moves import TicketRef, payment_of
from maps import MAP_NAMES, WILD, load_board

ENGINE = Path(__file__).resolve().parent.parent / "engine"
# the record form of a move (JSON keys and types) and a game's setup: members never type a record or a deck
RECORD_AND_SETUP = {"moves.py", "options.py", "deal.py"}
# an engine error made of a text (a string or an f-string) rather than of a refusal
TEXT_ERROR = re.compile(r"\b(Game|IllegalMove|InvalidMove|NotYourTurn|AmbiguousMove)Error\((f?\"|f?')")
SETUP_IN_GAME = {"BadNames"}  # engine/game.py also checks the names a game is made with
# facts that are names as they are (players, places, a ticket as the move names it)
NAMES = {"player", "current", "placer", "a", "b", "place", "players", "ticket", "left", "symbol"}


def _tries(game: Game, rng: random.Random) -> list[object]:
    """Moves a member might try now, most of them refused."""
    board = game.board
    rules = board.rules
    names = [p.name for p in game.state.players]
    places = sorted(board.places)
    cards = [*rules.colors, WILD]
    moves: list[object] = []
    for name in [*names, "zed"]:
        for _ in range(6):
            r = rng.choice(board.routes)
            a, b = (r.a, r.b) if rng.random() < 0.8 else tuple(rng.sample(places, 2))
            if rng.random() < 0.1:
                a = "Atlantis"
            n = r.length if rng.random() < 0.7 else rng.randint(1, 8)
            if rng.random() < 0.5:
                pay = {rng.choice(cards): n}
            else:
                k = rng.randint(0, n)
                pay = {rng.choice(cards): k, rng.choice(cards): n - k}
            if rng.random() < 0.05:
                pay = {"mauve": n}
            colour = rng.choice([None, None, None, r.color, rng.choice(rules.colors), "mauve"])
            souvenir = rng.choice([None, None, r.a, r.b, rng.choice(places)])
            moves.append(Claim(name, a, b, payment_of({k: v for k, v in pay.items() if v}), colour, souvenir))
        for source in ["deck", *rules.colors, WILD, "mauve"]:
            moves.append(DrawCard(name, source))
        moves.append(DrawTickets(name))
        moves.append(Pass(name))
        p = next((q for q in game.state.players if q.name == name), None)
        offered = list(p.offered or []) if p is not None else []
        refs = [game.ticket_ref(t) for t in offered]
        moves.append(Keep(name, ()))
        moves.append(Keep(name, tuple(refs[:1])))
        moves.append(Keep(name, (TicketRef(places[0], (places[1],)),)))
        moves.append(Keep(name, (TicketRef("Atlantis", (places[1],)),)))
        moves.append(TunnelPay(name, None))
        moves.append(TunnelPay(name, payment_of({rng.choice(cards): rng.randint(1, 3)})))
        moves.append(TunnelPay(name, payment_of({rng.choice(cards): 1, rng.choice(cards): 1})))
        symbols = game.unplaced_symbols()
        moves.append(PlaceStack(name, rng.choice([*symbols, "Unicorn"]), rng.choice([*places, "Atlantis"])))
    return moves


def _refused(game: Game, move: object) -> Refusal:
    with pytest.raises(GameError) as caught:
        game.check(move)  # type: ignore[arg-type]
    return caught.value.refusal


def _scenarios(map_name: str) -> set[Refusal]:
    """The refusals random tries seldom meet, set up by hand: empty piles, wilds off tunnels, ferries, souvenirs."""
    board = load_board(map_name)
    rules = board.rules
    game = Game(board, ["ann", "bob"], "s")
    if map_name == "san_francisco":
        # both stacks at the two ends of one route
        route = next(
            r
            for r in board.routes
            if r.color != "gray" and r.a not in game.state.stacks and r.b not in game.state.stacks
        )
        for at in (route.a, route.b):
            to_move = game.to_move()
            while to_move is not None and to_move.must == "keep":
                p = game.player(to_move.player)
                game.apply(Keep(p.name, tuple(game.ticket_ref(t) for t in p.offered or [])))
                to_move = game.to_move()
            assert to_move is not None and to_move.must == "place"
            game.apply(PlaceStack(to_move.player, game.unplaced_symbols()[0], at))
    else:
        for p in game.state.players:
            game.apply(Keep(p.name, tuple(game.ticket_ref(t) for t in p.offered or [])))
    to_move = game.to_move()
    while to_move is not None and to_move.must == "place":
        places = [p for p in sorted(board.places) if p not in game.state.stacks]
        game.apply(PlaceStack(to_move.player, game.unplaced_symbols()[0], places[0]))
        to_move = game.to_move()
    assert to_move is not None and to_move.must == "turn"
    name = to_move.player
    seat = game.seat(name)
    player = game.state.players[seat]
    player.hand = Counter(dict.fromkeys((*rules.colors, WILD), 12))
    found: set[Refusal] = set()
    piles = game.state.piles
    deck, discard = piles.deck, piles.discard
    piles.deck, piles.discard = [], []
    found.add(_refused(game, DrawCard(name, "deck")))
    piles.deck, piles.discard = deck, discard
    for route in board.routes:
        colour = rules.colors[0] if route.color == "gray" else route.color
        if route.ferries:
            found.add(_refused(game, Claim(name, route.a, route.b, payment_of({colour: route.length}), route.color)))
        if rules.wilds_only_on_tunnels and not route.tunnel and route.length > 1:
            pay = payment_of({colour: route.length - 1, WILD: 1})
            found.add(_refused(game, Claim(name, route.a, route.b, pay, route.color)))
        if map_name == "san_francisco" and route.a in game.state.stacks and route.b in game.state.stacks:
            pay = payment_of({colour: route.length})
            found.add(_refused(game, Claim(name, route.a, route.b, pay, route.color)))
        if map_name == "san_francisco" and route.a in game.state.stacks and route.b not in game.state.stacks:
            pay = payment_of({colour: route.length})
            found.add(_refused(game, Claim(name, route.a, route.b, pay, route.color, souvenir=route.b)))
    return found


@cache
def refusals() -> dict[str, set[Refusal]]:
    """Every refusal met, by the map it was met on."""
    found: dict[str, set[Refusal]] = {}
    for map_name in MAP_NAMES:
        board = load_board(map_name)
        seen = found.setdefault(map_name, set())
        for seed, count in (("a", 2), ("b", 3), ("c", 5)):
            count = min(count, board.rules.max_players)
            rng = random.Random(f"{map_name}{seed}")
            game = Game(board, ["ann", "bob", "cid", "dee", "eve"][:count], seed, trains=rng.choice([None, 6, 12]))
            for _ in range(400):
                for move in _tries(game, rng):
                    try:
                        game.check(move)  # type: ignore[arg-type]
                    except GameError as exc:
                        seen.add(exc.refusal)
                to_move = game.to_move()
                if to_move is None:
                    break
                legal = game.legal_moves(to_move.player)
                game.apply(rng.choice(legal))
            # the game over
            for move in _tries(game, rng):
                try:
                    game.check(move)  # type: ignore[arg-type]
                except GameError as exc:
                    seen.add(exc.refusal)
        seen |= _scenarios(map_name)
        # and what the claim refusals say of routes (route_status)
        for seat in range(2):
            for r in board.routes:
                why = game.route_status(seat, r)
                if why:
                    seen.add(why)
    return found


def _facts(refusal: Refusal) -> dict[str, str]:
    """The refusal's facts as the sentence may show them: texts, numbers and lists of names."""
    out: dict[str, str] = {}
    for f in fields(refusal):
        value = getattr(refusal, f.name)
        if isinstance(value, tuple):
            out[f.name] = ", ".join(value)
        elif isinstance(value, str | int) and not isinstance(value, bool):
            out[f.name] = str(value)
    return out


def _raised(path: Path) -> set[str]:
    """The refusal kinds a module of the engine raises or returns (the refusal classes its code names)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    kinds = {k.__name__ for k in refusal_kinds()}
    return {n.id for n in ast.walk(tree) if isinstance(n, ast.Name)} & kinds


def test_every_refusal_met_is_known() -> None:
    unknown = sorted({str(r) for rs in refusals().values() for r in rs if not isinstance(r, IN_PLAY)})
    assert unknown == []


def test_every_form_is_met() -> None:
    met = Counter(type(r).__name__ for rs in refusals().values() for r in rs)
    assert sorted(k.__name__ for k in IN_PLAY if k.__name__ not in met) == []


def test_the_forms_cover_every_raise_site_of_the_engine() -> None:
    """Each kind raised where a member's move can meet it is a kind of play; the others are a record's or a
    setup's."""
    raised_by_members: set[str] = set()
    raised_elsewhere: set[str] = set()
    for path in sorted([*ENGINE.glob("*.py"), *(ENGINE / "extras").glob("*.py")]):
        name = path.relative_to(ENGINE).as_posix()
        if name == "errors.py":
            continue
        # no error of the engine is made of a text: each is made of a refusal
        source = path.read_text(encoding="utf-8")
        assert (
            re.search(r"\b(Game|IllegalMove|InvalidMove|NotYourTurn|AmbiguousMove)Error\((f?\"|f?')", source) is None
        ), name
        (raised_elsewhere if name in RECORD_AND_SETUP else raised_by_members).update(_raised(path))
    names = {k.__name__ for k in IN_PLAY}
    assert sorted(raised_by_members - names - SETUP_IN_GAME) == []
    assert sorted(names - raised_by_members) == []
    everything = {k.__name__ for k in refusal_kinds()}
    assert sorted(everything - raised_by_members - raised_elsewhere) == []
    assert {p.name for p in ENGINE.glob("*.py")} >= RECORD_AND_SETUP


def test_english_is_the_catalogue_s_words() -> None:
    for rs in refusals().values():
        for refusal in rs:
            with speaking(Language.EN):
                text = worded(refusal)
                assert rule_error_text(refusal) == text
                assert refusal_text(RuleViolation(GameError(refusal))) == text
            assert "{" not in text and "}" not in text, text


def test_a_record_s_refusal_is_worded_too() -> None:
    with speaking(Language.SV):
        assert rule_error_text(PassNotTrue()) == "'pass' måste vara true."
        assert worded(PassNotTrue()) == "'pass' måste vara true."
    with speaking(Language.EN):
        assert rule_error_text(PassNotTrue()) == "'pass' must be true."


@pytest.mark.parametrize("language", [Language.SV, Language.FI])
def test_each_form_in_swedish_and_finnish(language: Language) -> None:
    words: dict[str, str] = {}
    for map_name, rs in refusals().items():
        rules = load_board(map_name).rules
        for refusal in sorted(rs, key=str):
            message = str(refusal)
            with speaking(language):
                text = rule_error_text(refusal)
                via_refusal = refusal_text(RuleViolation(GameError(refusal)))
            assert text != message, message
            assert "{" not in text and "}" not in text, text
            assert via_refusal == rule_error_text_in(language, refusal)
            words.setdefault(refusal.kind, text)
            facts = _facts(refusal)
            # the facts are in the sentence: the players' and places' names as they are, numbers as they are
            for key, value in facts.items():
                if key in {"player", "current", "placer", "a", "b", "place", "players"}:
                    assert value in text, (key, message, text)
                if value.isdigit():
                    assert value in text, (key, message, text)
            # the card, colour and ticket words are the language's (place and player names taken out first)
            bare = text
            for key, value in sorted(facts.items(), key=lambda kv: -len(kv[1])):
                if key in NAMES:
                    bare = bare.replace(value, " ")
            for word in (*rules.colors, "locomotive", "ticket", "contract", "train", "cart", "cable car"):
                with speaking(language):
                    same = colour_name(word) == word
                if not same:
                    assert re.search(rf"\b{word}s?\b", bare) is None, (word, message, text)
            # no English word of the engine's sentences is left
            for english in (" must ", " the ", " is not ", " cards", " deck ", " turn"):
                assert english not in f" {text} ".replace(f" {message} ", " "), (message, text)
    assert set(words) == {k.kind for k in IN_PLAY}


def rule_error_text_in(language: Language, refusal: Refusal) -> str:
    with speaking(language):
        return rule_error_text(refusal)


def test_the_map_of_a_refusal_is_the_game_s() -> None:
    """A refusal that speaks of a map's words names the map it was met on; the bot words it with that map's."""
    for map_name, rs in refusals().items():
        rules = load_board(map_name).rules
        named = [r.map for r in rs if isinstance(getattr(r, "map", None), MapNames)]
        assert named, map_name
        assert {m.title for m in named} == {rules.title}
        assert {m.name for m in named} == {map_name}
        assert rules_of(named[0]) is rules_of(MapNames.of(rules))
    amsterdam = load_board("amsterdam").rules
    assert rules_of(WildSecond(MapNames.of(amsterdam)).map).title == "Amsterdam"
    assert str(WildSecond(MapNames.of(amsterdam))) == "a face-up joker may not be the second card"


def test_sample_sentences() -> None:
    amsterdam = MapNames.of(load_board("amsterdam").rules)
    usa = MapNames.of(load_board("usa").rules)
    with speaking(Language.SV):
        assert rule_error_text(NotYourTurn("ann", "bob")) == "Det är anns tur, inte bobs."
        assert "sorten joker." in rule_error_text(WildSecond(amsterdam))
        assert "röd" in rule_error_text(HoldOnly(3, "red", 1, usa))
    with speaking(Language.FI):
        assert "veturi" in rule_error_text(WildSecond(usa))
        assert "punainen" in rule_error_text(HoldOnly(3, "red", 2, usa))


@pytest.mark.parametrize("language", [Language.SV, Language.FI])
def test_a_claim_refusal_names_the_reason_in_the_language(language: Language) -> None:
    board = load_board("usa")
    game = Game(board, ["ann", "bob"], "t")
    route = board.routes[0]
    reason = AlreadyClaimed(route.a, route.b, route.color)
    assert str(reason) == f"{route.a} - {route.b} ({route.color}) is already claimed"
    refusal = ClaimRefusal(ClaimBlock.ROUTE_TAKEN, route=route, reason=reason)
    with speaking(Language.EN):
        assert rule_error_text(reason) in claim_refusal_text(board.rules, refusal)
    with speaking(language):
        text = claim_refusal_text(board.rules, refusal)
    assert str(reason) not in text
    assert route.a in text and "{" not in text
    assert game.route_status(0, route) is None


def test_country_ticket_labels() -> None:
    board = load_board("switzerland")
    country = next(t for t in board.tickets if t.is_country_ticket)
    plain = next(t for t in board.tickets if not t.is_country_ticket)
    with speaking(Language.EN):
        assert ticket_label(board, country.id) == country.label()
        assert ticket_label(board, plain.id) == plain.label()
    with speaking(Language.SV):
        assert " till " in ticket_label(board, country.id)
        assert ticket_label(board, plain.id) == plain.label()
    with speaking(Language.FI):
        text = ticket_label(board, country.id)
        assert " to " not in text and country.origin in text
