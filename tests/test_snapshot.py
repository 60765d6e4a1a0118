"""Snapshots: restore gives back the very game, and refuses anything it cannot trust."""

from __future__ import annotations

import copy
import dataclasses
import hashlib
import json
import random
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from engine import Game
from engine.cards import CardPiles
from engine.random_play import play_random, random_move
from engine.snapshot import (
    EMPTY_DIGEST,
    PILES_KEYS,
    PLAYER_KEYS,
    STATE_KEYS,
    TUNNEL_KEYS,
    SnapshotError,
    canonical_json,
    extend_digest,
    moves_digest,
    restore,
    snapshot,
    snapshot_text,
)
from engine.state import GameState, PlayerState, Stack, TunnelState
from maps import MAP_NAMES, load_board


def random_game(name: str, players: int, seed: int, moves: int, trains: int | None = None) -> Game:
    board = load_board(name)
    game = Game(board, [f"p{i}" for i in range(players)], seed, trains=trains)
    return play_random(game, random.Random(seed), moves)


def through_json(data: dict[str, Any]) -> Any:
    return json.loads(json.dumps(data))


def assert_same(a: Game, b: Game) -> None:
    assert b.state == a.state
    assert b.moves == a.moves
    assert (b.names, b.seed, b.trains_option) == (a.names, a.seed, a.trains_option)
    assert b.pass_round_ends is a.pass_round_ends
    assert (b.initial_cards, b.initial_tickets) == (a.initial_cards, a.initial_tickets)


@st.composite
def mid_games(draw: st.DrawFn) -> Game:
    name = draw(st.sampled_from(MAP_NAMES))
    rules = load_board(name).rules
    players = draw(st.integers(rules.min_players, rules.max_players))
    trains = draw(st.one_of(st.none(), st.integers(6, 20)))
    return random_game(name, players, draw(st.integers(0, 10**6)), draw(st.integers(0, 400)), trains)


@given(mid_games(), st.integers(0, 2**32))
def test_a_restored_game_is_the_same_game_and_plays_on_the_same(game: Game, seed: int) -> None:
    restored = restore(through_json(snapshot(game)), list(game.moves))
    assert_same(game, restored)
    # the same choices offered in the same order, so the same random continuation
    rng_a, rng_b = random.Random(seed), random.Random(seed)
    for _ in range(30):
        move = random_move(game, rng_a)
        assert move == random_move(restored, rng_b)
        if move is None:
            break
        assert game.apply(move) == restored.apply(move)
    assert_same(game, restored)


@pytest.mark.parametrize("name", MAP_NAMES)
def test_every_map_round_trips_at_every_stage(name: str) -> None:
    rules = load_board(name).rules
    for seed, players in enumerate((rules.min_players, rules.max_players)):
        game = Game(load_board(name), [f"p{i}" for i in range(players)], seed)
        rng = random.Random(seed)
        digest = EMPTY_DIGEST
        while True:
            assert_same(game, restore(through_json(snapshot(game, digest)), list(game.moves), digest))
            move = random_move(game, rng)
            if move is None:
                break
            game.apply(move)
            digest = extend_digest(digest, move)
        assert game.finished


@pytest.mark.parametrize("name", MAP_NAMES)
def test_the_text_form_is_the_same_snapshot(name: str) -> None:
    game = random_game(name, 3, 12, 70)
    text = snapshot_text(game)
    assert json.loads(text) == snapshot(game)
    assert_same(game, restore(json.loads(text), game.moves))


def reference_text(game: Game) -> str:
    """The snapshot's text as first defined: its body as canonical JSON, the check appended last."""
    data = snapshot(game)
    body = canonical_json({k: v for k, v in data.items() if k != "check"})
    return f'{body[:-1]},"check":"{data["check"]}"}}'


@given(mid_games(), st.sampled_from([None, "given"]))
def test_the_text_form_is_exactly_the_canonical_text_of_the_snapshot(game: Game, digest: str | None) -> None:
    # the text is built from parts, the fixed ones cached per game: byte for byte what canonical_json gives
    text = snapshot_text(game, None if digest is None else moves_digest(game.moves))
    assert text == reference_text(game)
    assert snapshot_text(game.copy()) == text  # from the cache this time
    if game.moves:
        earlier = game.replay_until(len(game.moves) - 1)
        assert snapshot_text(earlier) == reference_text(earlier) != text


def test_every_field_of_the_state_is_in_the_snapshot() -> None:
    # a field added to the engine's state later must be added to snapshots too
    for cls, keys in (
        (GameState, STATE_KEYS),
        (PlayerState, PLAYER_KEYS),
        (CardPiles, PILES_KEYS),
        (TunnelState, TUNNEL_KEYS),
    ):
        assert {f.name for f in dataclasses.fields(cls)} == keys, cls.__name__
    assert {f.name for f in dataclasses.fields(Stack)} == {"symbol", "tokens"}


def test_the_digest_is_a_chain_over_the_moves() -> None:
    game = random_game("usa", 3, 1, 40)
    digest = EMPTY_DIGEST
    for move in game.moves:
        digest = extend_digest(digest, move)
    assert digest == moves_digest(game.moves)
    assert moves_digest(game.moves[:-1]) != digest
    assert snapshot(game)["moves_digest"] == digest


def test_a_snapshot_of_fewer_or_more_moves_is_refused() -> None:
    game = random_game("india", 3, 2, 30)
    data = through_json(snapshot(game))
    with pytest.raises(SnapshotError, match="move 30, but the log has 29"):
        restore(data, game.moves[:-1])
    longer = game.copy()
    move = random_move(longer, random.Random(0))
    assert move is not None
    longer.apply(move)
    with pytest.raises(SnapshotError, match="the log has 31"):
        restore(data, longer.moves)


def test_a_snapshot_made_from_other_moves_is_refused() -> None:
    game = random_game("switzerland", 2, 3, 25)
    other = random_game("switzerland", 2, 4, 25)
    assert len(other.moves) == len(game.moves)
    with pytest.raises(SnapshotError, match="other moves"):
        restore(through_json(snapshot(game)), other.moves)


def test_a_damaged_snapshot_is_refused_by_its_checksum() -> None:
    game = random_game("amsterdam", 3, 5, 30)
    data = through_json(snapshot(game))
    data["state"]["players"][0]["trains"] += 1
    with pytest.raises(SnapshotError, match="checksum"):
        restore(data, game.moves)


def with_check(data: dict[str, Any]) -> dict[str, Any]:
    """A snapshot as if written so: its checksum recomputed after a change."""
    body = {k: v for k, v in data.items() if k != "check"}
    return {**body, "check": hashlib.sha256(canonical_json(body).encode()).hexdigest()}


def test_a_snapshot_of_an_impossible_state_is_refused_even_with_a_good_checksum() -> None:
    game = random_game("usa", 4, 6, 50)
    base = through_json(snapshot(game))

    extra_card = copy.deepcopy(base)
    extra_card["state"]["players"][1]["hand"].append(["red", 1])
    with pytest.raises(SnapshotError, match="not the map's deck"):
        restore(with_check(extra_card), game.moves)

    lost_ticket = copy.deepcopy(base)
    lost_ticket["state"]["ticket_deck"].pop()
    with pytest.raises(SnapshotError, match="not the map's tickets"):
        restore(with_check(lost_ticket), game.moves)

    bad_seat = copy.deepcopy(base)
    bad_seat["state"]["current"] = 7
    with pytest.raises(SnapshotError, match="seats"):
        restore(with_check(bad_seat), game.moves)

    renamed = copy.deepcopy(base)
    renamed["state"]["players"][0]["name"] = "mallory"
    with pytest.raises(SnapshotError, match="seats"):
        restore(with_check(renamed), game.moves)


@pytest.mark.parametrize("rule", [False, True])
def test_the_rule_of_a_round_of_passes_survives_a_snapshot(rule: bool) -> None:
    game = play_random(Game(load_board("india"), ["a", "b", "c"], 7, pass_round_ends=rule), random.Random(7), 30)
    data = snapshot(game)
    assert data["pass_round_ends"] is rule
    for again in (restore(through_json(data), game.moves), restore(json.loads(snapshot_text(game)), game.moves)):
        assert again.pass_round_ends is rule
        assert again.replay_until(3).pass_round_ends is rule
        assert_same(game, again)


def test_a_snapshot_written_before_the_rule_restores_a_game_with_it() -> None:
    """Every stored snapshot without `pass_round_ends` is of a bot game: the rule is on."""
    game = random_game("usa", 2, 11, 25)
    old = with_check({k: v for k, v in snapshot(game).items() if k != "pass_round_ends"})
    assert restore(old, game.moves).pass_round_ends is True
    for bad in (None, 1, "true", [True]):
        with pytest.raises(SnapshotError, match="pass_round_ends"):
            restore(with_check({**snapshot(game), "pass_round_ends": bad}), game.moves)
    with pytest.raises(SnapshotError, match="keys"):
        restore(with_check({**snapshot(game), "rule": True}), game.moves)


@pytest.mark.parametrize("data", [None, [], "x", {"format": 1}, {"format": 2}])
def test_things_that_are_not_snapshots_are_refused(data: Any) -> None:
    with pytest.raises(SnapshotError):
        restore(data, [])


def _paths(value: Any, prefix: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    out = [prefix]
    if isinstance(value, dict):
        for k, v in value.items():
            out += _paths(v, (*prefix, k))
    elif isinstance(value, list):
        for i, v in enumerate(value):
            out += _paths(v, (*prefix, i))
    return out


json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-5, 200) | st.text(max_size=5),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=3), inner, max_size=3),
    max_leaves=5,
)


@given(st.integers(0, 10**6), st.data())
def test_any_change_ends_in_a_snapshot_error_or_a_consistent_game(seed: int, data: st.DataObject) -> None:
    game = random_game(MAP_NAMES[seed % len(MAP_NAMES)], 3, seed, seed % 120)
    snap = through_json(snapshot(game))
    paths = [p for p in _paths(snap) if p and p[0] != "check"]
    path = data.draw(st.sampled_from(paths))
    value = data.draw(json_values)
    damaged = copy.deepcopy(snap)
    target = damaged
    for key in path[:-1]:
        target = target[key]
    target[path[-1]] = value
    changed = damaged != snap
    # as written to disk: refused by the checksum whenever anything changed
    if changed:
        with pytest.raises(SnapshotError):
            restore(damaged, game.moves)
    # as if a bug had written it: never anything but SnapshotError or a game that passes the checks
    try:
        restored = restore(with_check(damaged), game.moves)
    except SnapshotError:
        return
    assert len(restored.state.players) == len(game.names)
    if not changed:
        assert_same(game, restored)
