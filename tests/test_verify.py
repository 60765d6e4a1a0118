"""Games anyone can verify: the commitment, the hash chain and `python -m bot verify` (engine/verify.py)."""

from __future__ import annotations

import copy
import hashlib
import json
import random
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from helpers.service_support import GUILD, started_game
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.service import EventKind, GameService
from bot.service.events import Started
from bot.service.scores import FinalScores
from engine import Game
from engine.moves import move_to_json
from engine.random_play import play_random, random_move
from engine.record import to_record
from engine.verify import canonical, commitment, game_commitment, game_head, verification_of, verify
from maps import MAP_NAMES, load_board

ROOT = Path(__file__).resolve().parent.parent


def exported(map_name: str, seed: str, moves: int | None = None) -> tuple[dict[str, Any], Game]:
    """A record as the bot exports it (decks, moves and `conductor.verification`) of a random game."""
    board = load_board(map_name)
    names = [f"p{i}" for i in range(board.rules.min_players + 1)][: board.rules.max_players]
    game = play_random(Game(board, names, seed), random.Random(seed), max_moves=moves or 5000)
    doc = to_record(game)
    doc["conductor"] = {
        "verification": verification_of(doc["seed"], doc["decks"]["cards"], doc["decks"]["tickets"], doc["moves"])
    }
    return json.loads(json.dumps(doc)), game


GAMES = {name: exported(name, f"verify-{name}", 120) for name in MAP_NAMES}


def test_the_commitment_is_the_sha256_of_the_canonical_seed_and_decks() -> None:
    doc, game = GAMES["usa"]
    text = json.dumps(
        {"cards": doc["decks"]["cards"], "seed": str(doc["seed"]), "tickets": doc["decks"]["tickets"]},
        sort_keys=True,
        separators=(",", ":"),
        ensure_ascii=False,
    )
    assert (
        game_commitment(game)
        == hashlib.sha256(text.encode()).hexdigest()
        == doc["conductor"]["verification"]["commitment"]
    )
    link = game_commitment(game)
    for move in doc["moves"]:
        link = hashlib.sha256(f"{link}\n".encode() + canonical(move)).hexdigest()
    assert link == game_head(game) == doc["conductor"]["verification"]["head"]
    assert canonical({"b": "ä", "a": [1, 2]}) == '{"a":[1,2],"b":"ä"}'.encode()


@pytest.mark.parametrize("map_name", MAP_NAMES)
def test_every_exported_record_verifies(map_name: str) -> None:
    doc, game = GAMES[map_name]
    verdict = verify(doc, posted_commitment=game_commitment(game), posted_head=game_head(game))
    assert verdict.ok, verdict.checks
    assert {c.what for c in verdict.checks} >= {
        "the commitment in the record is the seed's and decks'",
        "every link of the record's chain is its move's",
        "the decks are what the seed shuffles",
        "every move is legal",
    }


def _changed_move(move: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    """The same move with one value changed (still a move-shaped object)."""
    changed = copy.deepcopy(move)
    key = rng.choice(sorted(k for k in changed if k != "player") or sorted(changed))
    value = changed[key]
    if isinstance(value, str):
        changed[key] = value + "x" if value != "deck" else "0"
    elif isinstance(value, int):
        changed[key] = value + 1
    elif isinstance(value, list):
        changed[key] = value[:-1] if value else [0]
    elif isinstance(value, dict):
        changed[key] = {**value, "extra": 1}
    else:
        changed[key] = 1
    assert changed != move
    return changed


@settings(max_examples=60, deadline=None)
@given(map_name=st.sampled_from(MAP_NAMES), data=st.data())
def test_any_single_changed_move_card_or_ticket_is_caught(map_name: str, data: st.DataObject) -> None:
    doc, game = GAMES[map_name]
    posted = (game_commitment(game), game_head(game))
    tampered = copy.deepcopy(doc)
    what = data.draw(st.sampled_from(["move", "card", "ticket", "drop", "seed"]))
    if what == "move":
        i = data.draw(st.integers(0, len(doc["moves"]) - 1))
        tampered["moves"][i] = _changed_move(doc["moves"][i], random.Random(i))
    elif what == "card":
        cards = tampered["decks"]["cards"]
        i = data.draw(st.integers(0, len(cards) - 1))
        j = data.draw(st.sampled_from([k for k, c in enumerate(cards) if c != cards[i]]))
        cards[i], cards[j] = cards[j], cards[i]
    elif what == "ticket":
        tickets = tampered["decks"]["tickets"]
        i = data.draw(st.integers(0, len(tickets) - 1))
        j = data.draw(st.sampled_from([k for k, t in enumerate(tickets) if t != tickets[i]]))
        tickets[i], tickets[j] = tickets[j], tickets[i]
    elif what == "drop":
        tampered["moves"].pop(data.draw(st.integers(0, len(doc["moves"]) - 1)))
    else:
        tampered["seed"] = str(tampered["seed"]) + "0"
    assert not verify(tampered, posted_commitment=posted[0], posted_head=posted[1]).ok
    # even when the forger also rewrites the record's own verification, the posted hashes catch it
    forged = copy.deepcopy(tampered)
    forged["conductor"]["verification"] = verification_of(
        forged["seed"], forged["decks"]["cards"], forged["decks"]["tickets"], forged["moves"]
    )
    assert not verify(forged, posted_commitment=posted[0], posted_head=posted[1]).ok


def test_a_record_without_anything_to_compare_with_is_not_verified() -> None:
    doc, _ = GAMES["india"]
    bare = {k: v for k, v in doc.items() if k != "conductor"}
    verdict = verify(bare)
    assert not verdict.ok and any(c.what == "there is a commitment to compare with" for c in verdict.checks)
    assert verify(bare, posted_commitment=commitment(bare["seed"], bare["decks"]["cards"], bare["decks"]["tickets"])).ok
    assert not verify({"map": "usa", "players": ["a", "b"], "seed": 1}).ok  # no decks to check


def _cli(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "bot", "verify", *args], cwd=ROOT, capture_output=True, text=True, timeout=120
    )


def test_the_command_line_says_whether_the_record_is_the_committed_game(tmp_path: Path) -> None:
    doc, game = GAMES["switzerland"]
    path = tmp_path / "game.json"
    path.write_text(json.dumps(doc), encoding="utf-8")
    good = _cli(str(path), "--commitment", game_commitment(game), "--head", game_head(game))
    assert good.returncode == 0 and "VERIFIED: this record is the game that was committed to" in good.stdout
    assert good.stderr == ""
    doc["moves"][3] = move_to_json(game.moves[4])
    path.write_text(json.dumps(doc), encoding="utf-8")
    bad = _cli(str(path))
    assert bad.returncode == 1 and bad.stdout.rstrip().endswith("NOT VERIFIED")
    assert "NO  every link of the record's chain is its move's" in bad.stdout
    path.write_text("{not json", encoding="utf-8")
    broken = _cli(str(path))
    assert broken.returncode == 1 and "NOT VERIFIED: cannot read" in broken.stdout and "Traceback" not in broken.stderr


async def test_the_service_publishes_the_commitment_at_the_start_and_the_head_and_seed_at_the_end(
    service: GameService,
) -> None:
    users = [100, 101]
    created = await service.create_game(GUILD, 7001, users[0], "p0", "amsterdam")
    await service.join(created.game.id, users[1], "p1")
    start = await service.start(created.game.id, users[0])
    game_id = created.game.id
    started = next(e.data for e in start.public if e.kind is EventKind.STARTED)
    assert isinstance(started, Started)
    rng = random.Random(5)
    last = None
    while (game := await service.engine_game(game_id)) and (move := random_move(game, rng)) is not None:
        info = await service.game(game_id)
        user = info.user_of(move.player)
        assert user is not None
        last = await service.act(game_id, user, move, expected_version=info.version)
    assert last is not None
    scores = next(e.data for e in last.public if e.kind is EventKind.FINAL_SCORES)
    assert isinstance(scores, FinalScores)
    record = (await service.export_record(game_id)).record
    assert started.commitment == record["conductor"]["verification"]["commitment"]
    assert scores.head == record["conductor"]["verification"]["head"] and scores.seed == str(record["seed"])
    assert verify(json.loads(json.dumps(record)), posted_commitment=started.commitment, posted_head=scores.head).ok


async def test_a_game_a_moderator_ends_keeps_its_seed_since_it_may_be_reopened(service: GameService) -> None:
    game_id, users = await started_game(service, "usa", 2)
    ended = await service.end(game_id, 999, True, "stuck")
    scores = next(e.data for e in ended.public if e.kind is EventKind.FINAL_SCORES)
    assert isinstance(scores, FinalScores) and scores.seed is None and scores.head is not None
