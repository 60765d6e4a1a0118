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
    created = await service.lobby.create_game(GUILD, 7001, users[0], "p0", "amsterdam")
    await service.lobby.join(created.game.id, users[1], "p1")
    start = await service.lobby.start(created.game.id, users[0])
    game_id = created.game.id
    started = next(e.data for e in start.public if e.kind is EventKind.STARTED)
    assert isinstance(started, Started)
    rng = random.Random(5)
    last = None
    while (game := await service.reading.engine_game(game_id)) and (move := random_move(game, rng)) is not None:
        info = await service.core.game(game_id)
        user = info.user_of(move.player)
        assert user is not None
        last = await service.play.act(game_id, user, move, expected_version=info.version)
    assert last is not None
    scores = next(e.data for e in last.public if e.kind is EventKind.FINAL_SCORES)
    assert isinstance(scores, FinalScores)
    record = (await service.audit.export_record(game_id)).record
    assert started.commitment == record["conductor"]["verification"]["commitment"]
    assert scores.head == record["conductor"]["verification"]["head"] and scores.seed == str(record["seed"])
    assert verify(json.loads(json.dumps(record)), posted_commitment=started.commitment, posted_head=scores.head).ok


async def test_a_game_a_moderator_ends_with_scores_is_final_and_shows_its_seed(service: GameService) -> None:
    """Scored as it stood, every player's tickets are shown: the end is final (no reopening), so the seed is shown
    with the head. An abandoned game shows neither: it may still be reopened."""
    game_id, _users = await started_game(service, "usa", 2)
    ended = await service.moderation.end(game_id, 999, True, "stuck")
    scores = next(e.data for e in ended.public if e.kind is EventKind.FINAL_SCORES)
    record = (await service.audit.export_record(game_id)).record
    assert isinstance(scores, FinalScores) and scores.seed == str(record["seed"]) and scores.head is not None
    assert verify(json.loads(json.dumps(record)), posted_head=scores.head).ok
    abandoned, _ = await started_game(service, "usa", 2)
    assert all(
        e.kind is not EventKind.FINAL_SCORES for e in (await service.moderation.end(abandoned, 999, False, "x")).public
    )


async def _finished_game_record(service: GameService, trains: int | None) -> tuple[dict[str, Any], str, str]:
    """A game played to its end through the service: its exported record, and the commitment and head it posted."""
    users = [100, 101, 102]
    created = await service.lobby.create_game(GUILD, 7002, users[0], "ann", "usa", trains=trains)
    for i, user in enumerate(users[1:], start=1):
        await service.lobby.join(created.game.id, user, f"p{i}")
    start = await service.lobby.start(created.game.id, users[0])
    game_id = created.game.id
    started = next(e.data for e in start.public if e.kind is EventKind.STARTED)
    assert isinstance(started, Started)
    rng = random.Random(11)
    last = None
    while (game := await service.reading.engine_game(game_id)) and (move := random_move(game, rng)) is not None:
        info = await service.core.game(game_id)
        user = info.user_of(move.player)
        assert user is not None
        last = await service.play.act(game_id, user, move, expected_version=info.version)
    assert last is not None
    scores = next(e.data for e in last.public if e.kind is EventKind.FINAL_SCORES)
    assert isinstance(scores, FinalScores) and scores.head is not None
    record = json.loads(json.dumps((await service.audit.export_record(game_id)).record))
    return record, started.commitment, scores.head


async def test_an_operator_cannot_pass_off_a_record_with_other_options_or_members(
    service: GameService, tmp_path: Path
) -> None:
    """The attack: take a finished game's record, change `options.trains` or swap the seats' members, and check it
    at the command line against the commitment and head the channel showed. Each forgery must be refused, saying
    which part differs, even though its moves still replay (as another game)."""
    record, posted, head_ = await _finished_game_record(service, trains=10)
    path = tmp_path / "game.json"
    path.write_text(json.dumps(record), encoding="utf-8")
    honest = _cli(str(path), "--commitment", posted, "--head", head_)
    assert honest.returncode == 0 and "VERIFIED: this record is the game that was committed to" in honest.stdout
    assert "ok  the options are as committed" in honest.stdout
    assert "ok  the seats and their members are as committed" in honest.stdout
    # a game started before the commitment covered the setup showed the deal alone: still verified, and said so
    deal = record["conductor"]["verification"]["committed"]["deal"]
    older = _cli(str(path), "--commitment", deal, "--head", head_)
    assert older.returncode == 0 and "covers the seed and decks only" in older.stdout, older.stdout

    for trains in (46, 60):
        forged = copy.deepcopy(record)
        forged["options"] = {"trains": trains}
        path.write_text(json.dumps(forged), encoding="utf-8")
        replayed = subprocess.run(
            [sys.executable, "-m", "bot", "replay", str(path)], cwd=ROOT, capture_output=True, text=True, timeout=120
        )
        assert replayed.returncode == 0 and json.loads(replayed.stdout)["players"][0]["trains"] > 10  # another game
        out = _cli(str(path), "--commitment", posted, "--head", head_)
        assert out.returncode == 1 and out.stdout.rstrip().endswith("NOT VERIFIED"), out.stdout
        differs = f'committed {{"trains":10}}, the record has {{"trains":{trains}}}'
        assert f"NO  the options differ from the commitment ({differs})" in out.stdout
        # the forger strips what the record says was committed: the posted commitment still refuses it
        del forged["conductor"]["verification"]["committed"]
        path.write_text(json.dumps(forged), encoding="utf-8")
        bare = _cli(str(path), "--commitment", posted, "--head", head_)
        assert bare.returncode == 1 and "NO  the posted commitment is the record's map" in bare.stdout, bare.stdout

    swapped = copy.deepcopy(record)
    seats = swapped["conductor"]["seats"]
    seats[0]["user_id"], seats[1]["user_id"] = seats[1]["user_id"], seats[0]["user_id"]
    path.write_text(json.dumps(swapped), encoding="utf-8")
    out = _cli(str(path), "--commitment", posted, "--head", head_)
    assert out.returncode == 1 and out.stdout.rstrip().endswith("NOT VERIFIED"), out.stdout
    assert "NO  the seats and their members differ from the commitment (seat 1: committed" in out.stdout
    assert "seat 2: committed" in out.stdout
    # the same with the record's own verification rewritten to the forgery
    setup = copy.deepcopy(swapped["conductor"]["verification"]["committed"])
    setup["seats"][0]["user_id"], setup["seats"][1]["user_id"] = seats[0]["user_id"], seats[1]["user_id"]
    swapped["conductor"]["verification"] = verification_of(
        swapped["seed"], swapped["decks"]["cards"], swapped["decks"]["tickets"], swapped["moves"], setup
    )
    path.write_text(json.dumps(swapped), encoding="utf-8")
    out = _cli(str(path), "--commitment", posted, "--head", head_)
    assert out.returncode == 1 and "NO  the posted commitment is the record's map" in out.stdout, out.stdout


def test_a_game_committed_before_the_setup_was_covered_still_verifies_and_says_so() -> None:
    """Games started before the commitment covered map, options and seats posted the deal alone as commitment."""
    doc, game = GAMES["usa"]
    verdict = verify(doc, posted_commitment=game_commitment(game), posted_head=game_head(game))
    assert verdict.ok
    assert any("covers the seed and decks only" in c.detail for c in verdict.checks)


async def test_the_commitment_names_the_members_who_held_the_seats_at_the_start(service: GameService) -> None:
    """A seat given to another member later changes neither the commitment the setup shows nor the record's."""
    users = [100, 101]
    created = await service.lobby.create_game(GUILD, 7003, users[0], "p0", "india")
    await service.lobby.join(created.game.id, users[1], "p1")
    game_id = created.game.id
    start = await service.lobby.start(game_id, users[0])
    started = next(e.data for e in start.public if e.kind is EventKind.STARTED)
    assert isinstance(started, Started)
    assert (await service.stages.stage(game_id)).commitment == started.commitment
    await service.moderation.replace(game_id, 999, 0, 555, "newcomer", "left")
    await service.moderation.replace(game_id, 999, 0, 556, "another", "left too")
    assert (await service.stages.stage(game_id)).commitment == started.commitment  # still the setup: shown again
    record = json.loads(json.dumps((await service.audit.export_record(game_id, 999, moderator=True)).record))
    assert record["conductor"]["seats"][0]["user_id"] == 556
    assert record["conductor"]["verification"]["commitment"] == started.commitment
    assert verify(record, posted_commitment=started.commitment).ok
    # the member now in the seat passed off as the one who held it from the start
    record["conductor"]["seat_changes"] = []
    verdict = verify(record, posted_commitment=started.commitment)
    assert not verdict.ok and any(
        c.what == "the seats and their members differ from the commitment" for c in verdict.checks
    )
