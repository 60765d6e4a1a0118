"""A game nobody can finish (docs/rules.md, "The end of the game"): a whole round of passes ends the game.

On every map a real game (every move a legal move, tickets drawn until none is left, routes claimed, cards
drawn until none is left to take: tests/helpers/stalemate.py) is driven to the state where every player has
three pieces, no route anyone may claim, no card to draw and no ticket to draw. There each player's only
legal move is a pass, and once each of them has passed in turn the game is over and scored; the record of it
(tests/records/*/s01_*_stalemate.json) replays to that end through `python -m bot replay`.
"""

from __future__ import annotations

import hashlib
import json
import random
import subprocess
import sys
from functools import cache
from pathlib import Path
from typing import Any

import pytest
from helpers.stalemate import LEFT, drive
from hypothesis import given, settings
from hypothesis import strategies as st

from engine import Game, Pass
from engine.random_play import random_move
from engine.record import outcome, parse_record, replay, replay_text, to_record
from engine.snapshot import canonical_json, restore, snapshot
from maps import MAP_NAMES, load_board

RECORDS = Path(__file__).parent / "records"


@cache
def driven(map_name: str) -> Game:
    return drive(map_name)


def stuck(game: Game) -> bool:
    """Nobody can do anything but pass, and nothing is left to draw."""
    s = game.state
    return (
        not s.piles.deck
        and not s.piles.discard
        and all(c is None for c in s.piles.face_up)
        and not s.ticket_deck
        and not any(game.has_action(name) for name in game.names)
    )


@pytest.mark.parametrize("map_name", MAP_NAMES)
def test_a_real_game_driven_to_the_stalemate_ends_after_a_round_of_passes(map_name: str) -> None:
    game = driven(map_name)
    players = len(game.names)
    assert game.finished and game.stalemate
    assert game.state.final_turns is None  # the final round never began
    assert all(p.trains == LEFT for p in game.state.players)  # three pieces each: more than the final round's two
    assert stuck(game)
    # every card is in a hand: nothing to draw, and no hand pays for any route still free
    assert sum(p.cards for p in game.state.players) == len(game.rules.deck())
    assert [type(m) for m in game.moves[-players:]] == [Pass] * players
    assert not isinstance(game.moves[-players - 1], Pass)
    # one move before the end: everyone but the last has passed, the game waits for the last pass
    before = game.replay_until(len(game.moves) - 1)
    last = game.moves[-1].player
    assert not before.finished and not before.stalemate
    assert stuck(before)
    assert before.legal_moves(last) == [Pass(last)]
    events = before.apply(Pass(last))
    assert [e.kind for e in events] == ["pass", "game_over"]
    assert events[-1].public == {"stalemate": True}
    assert before.finished and before.stalemate
    # scored as any finished game: route points and tickets, a winner
    assert game.winners()
    assert [sc.total for sc in game.score()] == [sc.total for sc in before.score()]


@pytest.mark.parametrize("map_name", MAP_NAMES)
def test_the_round_before_the_stalemate_is_made_of_forced_passes(map_name: str) -> None:
    game = driven(map_name)
    players = len(game.names)
    first = len(game.moves) - players
    for k in range(players):
        at = game.replay_until(first + k)
        name = game.moves[first + k].player
        assert stuck(at)
        assert at.moves_by_kind(name) == {"Pass": [Pass(name)]}
        assert not at.finished


@pytest.mark.parametrize("map_name", MAP_NAMES)
def test_no_move_after_the_stalemate_and_the_snapshot_keeps_it(map_name: str) -> None:
    game = driven(map_name)
    nobody = game.names[game.state.current]
    assert game.legal_moves(nobody) == []
    assert not game.can(Pass(nobody))
    doc = to_record(game)
    doc["moves"].append({"player": nobody, "pass": True})
    status, got = replay_text(json.dumps(doc))
    assert status == 1
    assert got["error"]["move"] == len(game.moves)
    again = restore(snapshot(game), game.moves)
    assert again.finished and again.stalemate and again.state == game.state


@pytest.mark.parametrize("map_name", MAP_NAMES)
def test_the_example_record_is_the_driven_game_and_replays_to_its_scored_end(map_name: str) -> None:
    game = driven(map_name)
    (path,) = sorted((RECORDS / map_name).glob("s01_*_stalemate.json"))
    doc = json.loads(path.read_text(encoding="utf-8"))
    assert doc == to_record(game)  # reached from a real game: the drive's own record
    expected = json.loads(path.with_name(path.stem + ".expected.json").read_text(encoding="utf-8"))
    assert expected == outcome(game)
    assert expected["finished"] is True and expected["to_move"] is None and expected["winners"]
    assert all(p["tickets"] is not None and p["bonus"] is not None for p in expected["players"])
    # a record cut before the last pass is an unfinished game whose last player must take a turn
    status, cut = replay_text(json.dumps({**doc, "moves": doc["moves"][:-1]}))
    assert status == 0
    assert cut["finished"] is False and cut["to_move"] == {"player": doc["moves"][-1]["player"], "must": "turn"}
    assert cut["winners"] is None


def test_the_replay_command_prints_the_stalemate_as_a_finished_game() -> None:
    path = RECORDS / "amsterdam" / "s01_2p_stalemate.json"
    done = subprocess.run(
        [sys.executable, "-m", "bot", "replay", str(path)], capture_output=True, text=True, check=False
    )
    assert done.returncode == 0
    printed = json.loads(done.stdout)
    assert printed == json.loads(path.with_name(path.stem + ".expected.json").read_text(encoding="utf-8"))
    assert set(printed) == {"map", "finished", "to_move", "players", "winners"}  # the spec's fields, no other


def test_a_pass_then_another_players_move_is_no_round_of_passes() -> None:
    """Passes end the game only as a whole round in a row: a stuck player passes, the next player still has a
    claim (given more pieces here) and makes it, and play goes on."""
    game = driven("usa")
    at = game.replay_until(len(game.moves) - 2)
    first = game.moves[-2].player
    second = next(n for n in game.names if n != first)
    at.state.players[at.seat(second)].trains = 12
    at.apply(Pass(first))
    assert not at.finished and at.passes_in_a_row() == 1
    claim = at.moves_by_kind(second)["Claim"][0]
    at.apply(claim)
    assert not at.finished and at.passes_in_a_row() == 0
    assert at.has_action(first)  # the paid cards are in the discard pile: a card can be drawn again
    rng = random.Random(1)
    while (move := random_move(at, rng)) is not None:
        at.apply(move)
    assert at.finished


@pytest.mark.parametrize("seed", range(8))
def test_random_games_end_by_their_final_round_or_after_a_whole_round_of_passes(seed: int) -> None:
    """In random games on every map a run of passes never reaches the number of players without ending the
    game, and a game that ended so was stuck."""
    rng = random.Random(seed)
    map_name = MAP_NAMES[seed % len(MAP_NAMES)]
    board = load_board(map_name)
    players = min(board.rules.max_players, 2 + seed % 3)
    trains = rng.choice([None, 6, 12])
    game = Game(board, [f"r{i}" for i in range(players)], f"st{seed}", trains=trains, pass_round_ends=True)
    for _ in range(5000):
        move = random_move(game, rng)
        if move is None:
            break
        before = game.copy()
        game.apply(move)
        assert game.passes_in_a_row() < players or game.finished
        if game.stalemate:
            assert stuck(before)
    assert game.finished
    assert game.stalemate == (game.state.final_turns != 0)


@settings(max_examples=15, deadline=None)
@given(st.sampled_from(MAP_NAMES), st.integers(0, 10**6))
def test_a_drive_from_any_deal_ends_by_the_round_of_passes_or_by_the_final_round(map_name: str, seed: int) -> None:
    """From any deal the drive ends: when it reaches the state where nobody can act, the round of passes ends
    the game (never an endless run of passes); when a forced claim begins the final round, that ends it."""
    game = drive(map_name, seed)
    assert game.finished
    players = len(game.names)
    if game.stalemate:
        assert [type(m) for m in game.moves[-players:]] == [Pass] * players
        assert stuck(game) and game.state.final_turns is None
    else:
        assert game.state.final_turns == 0
        assert game.passes_in_a_row() < players


def test_a_record_replayed_twice_keeps_the_stalemate() -> None:
    game = driven("san_francisco")
    again = replay(parse_record(to_record(game)))
    assert again.state == game.state and again.stalemate


# ----- the rule is the bot's: a record has it only when it says so (docs/game-record.md, section 9) -----------


def _example(map_name: str) -> dict[str, Any]:
    (path,) = sorted((RECORDS / map_name).glob("s01_*_stalemate.json"))
    doc: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    return doc


@pytest.mark.parametrize("map_name", MAP_NAMES)
@pytest.mark.parametrize("key", ["absent", False])
def test_without_the_rule_a_record_replays_by_the_specification_and_passes_go_on(map_name: str, key: Any) -> None:
    """The stalemate record without `pass_round_ends` (or with false): every pass legal, the game unfinished
    after the whole round, the next player to pass, and more passes legal, round after round."""
    doc = _example(map_name)
    assert doc["pass_round_ends"] is True  # the bot's record says it has the rule
    if key == "absent":
        del doc["pass_round_ends"]
    else:
        doc["pass_round_ends"] = key
    players = len(doc["players"])
    plain = replay(parse_record(doc))
    assert not plain.pass_round_ends and not plain.finished and not plain.stalemate
    assert plain.passes_in_a_row() == players and plain.state.final_turns is None
    for _ in range(2 * players):
        name = plain.names[plain.state.current]
        status, got = replay_text(json.dumps(doc))
        assert status == 0
        assert got["finished"] is False and got["to_move"] == {"player": name, "must": "turn"}
        assert got["winners"] is None and all(p["tickets"] is None for p in got["players"])
        assert plain.legal_moves(name) == [Pass(name)]
        assert [e.kind for e in plain.apply(Pass(name))] == ["pass"]
        doc["moves"].append({"player": name, "pass": True})
    assert not plain.finished and plain.passes_in_a_row() == 3 * players
    again = restore(snapshot(plain), plain.moves)  # a snapshot keeps the rule off
    assert not again.pass_round_ends
    again.apply(Pass(again.names[again.state.current]))
    assert not again.finished


def test_the_example_of_a_stuck_game_without_the_rule_is_unfinished_after_a_round_and_one_more_pass() -> None:
    path = RECORDS / "usa" / "s02_2p_stuck_passes_on.json"
    doc = json.loads(path.read_text(encoding="utf-8"))
    assert "pass_round_ends" not in doc
    game = driven("usa")
    made = to_record(game)
    del made["pass_round_ends"]
    one_more = {"player": game.names[game.state.current], "pass": True}
    assert doc == {**made, "moves": made["moves"] + [one_more]}  # the driven game, a whole round and one pass
    assert [m.get("pass") for m in doc["moves"][-3:]] == [True] * 3
    expected = json.loads(path.with_name(path.stem + ".expected.json").read_text(encoding="utf-8"))
    assert expected["finished"] is False and expected["winners"] is None
    assert expected["to_move"] == {"player": doc["moves"][-2]["player"], "must": "turn"}
    done = subprocess.run(
        [sys.executable, "-m", "bot", "replay", str(path)], capture_output=True, text=True, check=False
    )
    assert done.returncode == 0 and json.loads(done.stdout) == expected
    # the same moves with the bot's rule: the game ended with the round, so the one more pass is an error
    status, got = replay_text(json.dumps({**doc, "pass_round_ends": True}))
    assert status == 1 and got["error"]["move"] == len(doc["moves"]) - 1


@pytest.mark.parametrize("map_name", MAP_NAMES)
def test_the_rule_survives_a_snapshot_in_the_middle_of_the_round(map_name: str) -> None:
    game = driven(map_name)
    before = game.replay_until(len(game.moves) - 1)
    assert before.pass_round_ends
    again = restore(snapshot(before), before.moves)
    assert again.pass_round_ends
    again.apply(Pass(game.moves[-1].player))
    assert again.finished and again.stalemate and again.state == game.state
    # a snapshot stored before games said whether they have the rule is of a bot game: it has it
    data = snapshot(before)
    del data["pass_round_ends"], data["check"]
    old = {**data, "check": hashlib.sha256(canonical_json(data).encode()).hexdigest()}
    again = restore(old, before.moves)
    again.apply(Pass(game.moves[-1].player))
    assert again.finished and again.stalemate
