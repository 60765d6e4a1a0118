"""Seat changes are in the hash chain, and `verify` says what each posted value covers (engine/verify.py, issue 58).

The attacks are made on a record the bot exported from a real game: a seat given to another member, handed to
the autopilot and given back, an undo that takes back moves made before a change, a restart of the bot between
them; then the record is forged as a hostile member would and checked against the commitment and head the game
posted, at the command line.
"""

from __future__ import annotations

import copy
import json
import random
import subprocess
import sys
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from helpers.service_support import GUILD, open_service, play, started_game
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.service import EventKind, GameService
from bot.service.events import Started
from bot.service.record import seat_changes
from bot.service.scores import FinalScores
from bot.store import AuditRow, Database, GameStatus, MoveRow
from engine.random_play import random_move
from engine.seat_changes import read_changes
from engine.verify import commitment, committed_setup, record_members, setup_commitment, verification_of, verify
from tests.test_verify import GAMES

ROOT = Path(__file__).resolve().parent.parent
MOD = 999
USERS = [100, 101, 102]
SUBSTITUTE = 555


async def _act(service: GameService, game_id: int, rng: random.Random, count: int) -> list[Any]:
    """Up to `count` random moves by the members whose turn it is; the results."""
    results = []
    for _ in range(count):
        info = await service.core.game(game_id)
        if info.status is not GameStatus.SETUP and info.status is not GameStatus.PLAYING:
            break
        game = await service.reading.engine_game(game_id)
        move = random_move(game, rng)
        if move is None:
            break
        user = info.user_of(move.player)
        assert user is not None
        results.append(await service.play.act(game_id, user, move, expected_version=info.version))
    return results


async def _moves(service: GameService, game_id: int) -> int:
    return len((await service.reading.engine_game(game_id)).moves)


async def exported_game(database: Database) -> tuple[dict[str, Any], str, str, list[int]]:
    """A USA game of three (10 trains each) played through the service with its seats changing hands, the bot
    restarted twice on the way: its exported record, the commitment and head it posted, and the number of moves
    made before each seat change (after the undo)."""
    rng = random.Random(58)
    service = await open_service(database)
    created = await service.lobby.create_game(GUILD, 7058, USERS[0], "ann", "usa", trains=10)
    game_id = created.game.id
    for i, user in enumerate(USERS[1:], start=1):
        await service.lobby.join(game_id, user, f"p{i}")
    start = await service.lobby.start(game_id, USERS[0])
    started = next(e.data for e in start.public if e.kind is EventKind.STARTED)
    assert isinstance(started, Started)
    await _act(service, game_id, rng, 8)
    made = [await _moves(service, game_id)]
    await service.moderation.replace(game_id, MOD, 0, SUBSTITUTE, "newcomer", "ann left")
    await _act(service, game_id, rng, 4)
    await service.moderation.undo(game_id, MOD, 6, "a mistake")  # takes back moves made before the change too
    made[0] = min(made[0], await _moves(service, game_id))  # the change now comes where the moves stop
    await _act(service, game_id, rng, 3)
    await service.close()  # a restart in the middle of the game
    service = await open_service(database)
    made.append(await _moves(service, game_id))
    await service.moderation.set_autopilot(game_id, 1, True, moderator_user_id=MOD, reason="away")
    await _act(service, game_id, rng, 3)
    made.append(await _moves(service, game_id))
    await service.moderation.set_autopilot(game_id, 1, False, moderator_user_id=MOD, reason="back")
    await service.close()
    service = await open_service(database)
    results = await _act(service, game_id, rng, 400)
    assert (await service.core.game(game_id)).status is GameStatus.FINISHED
    scores = next(e.data for e in results[-1].public if e.kind is EventKind.FINAL_SCORES)
    assert isinstance(scores, FinalScores) and scores.head is not None
    shown = (await service.reading.public_view(game_id)).table
    assert shown is not None and shown.scores is not None and shown.scores.head == scores.head  # shown again
    record = json.loads(json.dumps((await service.audit.export_record(game_id)).record))
    await service.close()
    return record, started.commitment, scores.head, made


def _cli(record: dict[str, Any], tmp_path: Path, *args: str) -> subprocess.CompletedProcess[str]:
    path = tmp_path / "game.json"
    path.write_text(json.dumps(record), encoding="utf-8")
    return subprocess.run(
        [sys.executable, "-m", "bot", "verify", str(path), *args],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
    )


def _rechained(record: dict[str, Any]) -> dict[str, Any]:
    """The forger's last step: the record's own `verification` rewritten to fit what was forged."""
    forged = copy.deepcopy(record)
    players = forged["players"]
    setup = copy.deepcopy(forged["conductor"]["verification"]["committed"])
    setup["seats"] = [
        {"player": p, "user_id": u} for p, u in zip(players, record_members(forged, players), strict=True)
    ]
    changes = read_changes(forged["conductor"].get("seat_changes", []), len(players), len(forged["moves"]))
    decks = forged["decks"]
    forged["conductor"]["verification"] = verification_of(
        forged["seed"], decks["cards"], decks["tickets"], forged["moves"], setup, changes
    )
    return forged


async def test_a_game_with_seat_changes_verifies_and_every_forgery_of_them_fails(
    database: Database, tmp_path: Path
) -> None:
    record, posted, head, made = await exported_game(database)
    changes = record["conductor"]["seat_changes"]
    # the replacement came after move 8, an undo then took back moves made before it: it comes where they stop
    assert made[0] < 8
    assert [(c["action"], c["after_moves"]) for c in changes] == [
        ("replace", made[0]),
        ("autopilot", made[1]),
        ("autopilot", made[2]),
    ]
    assert record["conductor"]["verification"]["version"] == 3
    assert record["conductor"]["verification"]["head"] == head
    assert len(record["conductor"]["verification"]["chain"]) == len(record["moves"]) + 3
    honest = _cli(record, tmp_path, "--commitment", posted, "--head", head)
    assert honest.returncode == 0, honest.stdout
    assert honest.stdout.rstrip().endswith("VERIFIED: this record is the game that was committed to")
    names, at_start = (
        record["players"],
        [s["user_id"] for s in record["conductor"]["verification"]["committed"]["seats"]],
    )
    replaced = f"seat 1 ({names[0]}) from member {at_start[0]} to member {SUBSTITUTE}, by moderator {MOD}"
    assert f"seat change after move {made[0]}: {replaced}" in honest.stdout
    away = f"seat 2 ({names[1]}) handed to the autopilot by member {at_start[1]}, by moderator {MOD}"
    assert f"seat change after move {made[1]}: {away}" in honest.stdout
    back = f"seat 2 ({names[1]}) given back to member {at_start[1]} by the autopilot, by moderator {MOD}"
    assert f"seat change after move {made[2]}: {back}" in honest.stdout
    assert "the posted head covers the seed and decks, every move and every seat change" in honest.stdout
    assert "ok  the seat changes lead from the members at the start to the members the record names now" in (
        honest.stdout
    )

    # the attack of the issue: seat 1's member becomes another id, and a seat change hands the seat to them
    forged = copy.deepcopy(record)
    forged["conductor"]["seats"][0]["user_id"] = 777
    forged["conductor"]["seat_changes"].append(
        {"at": "2026-01-01T00:00:00+00:00", "moderator_user_id": MOD, "action": "replace", "seat": 0}
        | {"player": names[0], "from_user_id": SUBSTITUTE, "to_user_id": 777, "after_moves": len(record["moves"])}
    )
    for attempt in (forged, _rechained(forged)):
        out = _cli(attempt, tmp_path, "--commitment", posted, "--head", head)
        assert out.returncode == 1 and out.stdout.rstrip().endswith("NOT VERIFIED"), out.stdout
        assert "NO  the posted head is the last link of the record's chain" in out.stdout
        assert "seat change after move" in out.stdout  # it says which changes it checked
    # the same forgery that calls itself a record of an older version, whose chain leaves seat changes out
    older = copy.deepcopy(forged)
    setup = older["conductor"]["verification"]["committed"] | {"version": 2}
    decks = older["decks"]
    older["conductor"]["verification"] = verification_of(
        older["seed"], decks["cards"], decks["tickets"], older["moves"], setup
    )
    assert not verify(older, posted_commitment=posted, posted_head=head).ok  # the commitment is of version 3
    assert not verify(older, posted_head=head).ok  # the moves alone do not end at this game's head

    dropped = copy.deepcopy(record)
    del dropped["conductor"]["seat_changes"][1]  # the hand-over to the autopilot
    moved = copy.deepcopy(record)
    moved["conductor"]["seat_changes"][0]["after_moves"] += 1  # the replacement, one move later
    early = copy.deepcopy(record)
    early["conductor"]["seat_changes"][2]["after_moves"] = early["conductor"]["seat_changes"][1]["after_moves"]
    for attempt in (dropped, moved, early):
        for tampered in (attempt, _rechained(attempt)):
            verdict = verify(tampered, posted_commitment=posted, posted_head=head)
            assert not verdict.ok
            failed = {c.what for c in verdict.checks if not c.ok}
            assert "the posted head is the last link of the record's chain" in failed, failed
    out = _cli(_rechained(moved), tmp_path, "--head", head)
    assert out.returncode == 1 and "NO  the posted head is the last link of the record's chain" in out.stdout


async def test_each_posted_value_says_what_it_covers_and_an_unfinished_record_says_so(
    database: Database, tmp_path: Path
) -> None:
    record, posted, head, _ = await exported_game(database)
    # the last moves dropped: the commitment alone covers the setup, not the moves, and the record ends early
    cut = _rechained({**record, "moves": record["moves"][:-3]})
    out = _cli(cut, tmp_path, "--commitment", posted)
    assert out.returncode == 0, out.stdout
    assert "the posted commitment covers the map, the options, the seats and their members at the start" in out.stdout
    assert f"the record ends before the game did: after move {len(record['moves']) - 3}, " in out.stdout
    assert "without the head posted at the end nothing shows whether moves are missing" in out.stdout
    assert out.stdout.rstrip().endswith("nothing posted covers every move and every seat change")
    assert not verify(cut, posted_commitment=posted, posted_head=head).ok

    # other options: the head alone does not cover them, and says so; with the commitment they are refused
    options = copy.deepcopy(record)
    options["options"] = {"trains": 45}
    options["conductor"]["verification"]["committed"]["options"] = {"trains": 45}
    options = _rechained(options)
    verdict = verify(options, posted_head=head)
    assert "the options" in verdict.uncovered and "every move" not in verdict.uncovered
    out = _cli(options, tmp_path, "--head", head)
    assert "the posted head covers the seed and decks, every move and every seat change" in out.stdout
    assert "nothing posted covers the map, the options and the seats and their members at the start" in out.stdout
    assert "the record ends before the game did" in out.stdout  # 45 trains: the same moves end nowhere
    refused = _cli(options, tmp_path, "--commitment", posted, "--head", head)
    assert refused.returncode == 1 and "NO  the posted commitment is the record's map" in refused.stdout

    # nothing posted: the record agrees with itself, which anyone can make it do
    alone = verify(record)
    assert alone.ok and alone.uncovered == [
        "the map",
        "the options",
        "the seats and their members at the start",
        "the seed and decks",
        "every move",
        "every seat change",
    ]


async def test_a_record_of_the_version_before_still_verifies_and_says_its_seat_changes_are_not_covered(
    database: Database, tmp_path: Path
) -> None:
    """As exported before seat changes were chained: setup of version 2, chain over the moves alone, seat changes
    without `after_moves`."""
    record, _, _, _ = await exported_game(database)
    old = copy.deepcopy(record)
    for change in old["conductor"]["seat_changes"]:
        del change["after_moves"]
    setup = old["conductor"]["verification"]["committed"] | {"version": 2}
    old["conductor"]["verification"] = verification_of(
        old["seed"], old["decks"]["cards"], old["decks"]["tickets"], old["moves"], setup
    )
    old_commitment, old_head = setup_commitment(setup), old["conductor"]["verification"]["head"]
    out = _cli(old, tmp_path, "--commitment", old_commitment, "--head", old_head)
    assert out.returncode == 0, out.stdout
    assert "the record notes 3 seat change(s) its chain does not cover (an older record)" in out.stdout
    assert "the posted head covers the seed and decks and every move" in out.stdout
    assert out.stdout.rstrip().endswith("nothing posted covers every seat change")
    assert "a commitment of version 2" in out.stdout
    assert setup_commitment(committed_setup("usa", {}, ["a"], [1], "d", 2)) != setup_commitment(
        committed_setup("usa", {}, ["a"], [1], "d")
    )


def test_a_seat_change_noted_before_changes_were_chained_comes_after_the_moves_made_before_it() -> None:
    """Audit entries of a game that was running when the bot was upgraded have no `after_moves`: their place is
    read from the times of the moves; a later undo moves every change back to where the moves stop."""
    t0 = datetime(2026, 1, 1, tzinfo=UTC)
    moves = [MoveRow(1, i, {"player": "a", "draw": "deck"}, 100, t0 + timedelta(minutes=i)) for i in range(6)]
    details = {"seat": 0, "player": "a", "from_user_id": 100, "from_name": "A", "to_user_id": 5, "to_name": "B"}
    audit = [AuditRow(1, 1, MOD, "replace", details, "", t0 + timedelta(minutes=2, seconds=30))]
    assert [c["after_moves"] for c in seat_changes(audit, moves)] == [3]
    later = AuditRow(2, 1, MOD, "autopilot", {"seat": 1, "user_id": 7, "on": True, "after_moves": 5}, "", t0)
    undo = AuditRow(3, 1, MOD, "undo", {"moves": 3, "from": 6, "to": 2}, "", t0)
    assert [c["after_moves"] for c in seat_changes([*audit, later, undo], moves)] == [2, 2]


async def test_a_game_a_moderator_ends_after_a_seat_change_posts_the_head_of_both(service: GameService) -> None:
    """Scored by a moderator mid-game: the head shown then covers the seat change and the moves up to there, and
    verify says that the record ends before the game would have."""
    game_id, _ = await started_game(service, "india", 2)
    await play(service, game_id, 6, random.Random(3))
    await service.moderation.replace(game_id, MOD, 1, SUBSTITUTE, "newcomer", "left")
    await play(service, game_id, 3, random.Random(4))
    ended = await service.moderation.end(game_id, MOD, True, "late")
    scores = next(e.data for e in ended.public if e.kind is EventKind.FINAL_SCORES)
    assert isinstance(scores, FinalScores) and scores.head is not None
    record = json.loads(json.dumps((await service.audit.export_record(game_id)).record))
    verdict = verify(record, posted_head=scores.head)
    assert verdict.ok and "every seat change" not in verdict.uncovered
    assert len(verdict.seat_changes) == 1 and f"to member {SUBSTITUTE}" in verdict.seat_changes[0]
    assert any("the posted head ends there too (a moderator ended the game then)" in n for n in verdict.notes)
    record["conductor"]["seat_changes"] = []
    record["conductor"]["seats"][1]["user_id"] = record["conductor"]["verification"]["committed"]["seats"][1]["user_id"]
    assert not verify(record, posted_head=scores.head).ok  # the change dropped: the head is not this chain's


def _with_changes(rng: random.Random) -> tuple[dict[str, Any], str, str]:
    """A random game's record with seat changes made at random moves, its own verification, and the posted
    commitment and head."""
    doc, _ = GAMES["usa"]
    record = copy.deepcopy(doc)
    players, moves = record["players"], record["moves"]
    start = [100 + i for i in range(len(players))]
    holders, changes, after = list(start), [], 0
    for i in range(rng.randint(1, 5)):
        after = rng.randint(after, len(moves))
        seat = rng.randrange(len(players))
        if rng.random() < 0.5:
            change = {"action": "replace", "seat": seat, "from_user_id": holders[seat], "to_user_id": 500 + i}
            holders[seat] = 500 + i
        else:
            change = {"action": "autopilot", "seat": seat, "user_id": holders[seat], "on": rng.random() < 0.5}
        changes.append(change | {"moderator_user_id": MOD, "player": players[seat], "after_moves": after})
    record["conductor"] = {
        "seats": [{"player": p, "user_id": u} for p, u in zip(players, holders, strict=True)],
        "seat_changes": changes,
    }
    decks = record["decks"]
    setup = committed_setup("usa", {}, players, start, commitment(record["seed"], decks["cards"], decks["tickets"]))
    chained = read_changes(changes, len(players), len(moves))
    record["conductor"]["verification"] = verification_of(
        record["seed"], decks["cards"], decks["tickets"], moves, setup, chained
    )
    return record, setup_commitment(setup), record["conductor"]["verification"]["head"]


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 10**6), data=st.data())
def test_any_forged_dropped_or_moved_seat_change_is_caught(seed: int, data: st.DataObject) -> None:
    record, posted, head_ = _with_changes(random.Random(seed))
    assert verify(record, posted_commitment=posted, posted_head=head_).ok
    tampered = copy.deepcopy(record)
    changes = tampered["conductor"]["seat_changes"]
    i = data.draw(st.integers(0, len(changes) - 1))
    what = data.draw(st.sampled_from(["drop", "move", "member", "seat", "moderator", "added"]))
    if what == "drop":
        del changes[i]
    elif what == "move":
        low = changes[i - 1]["after_moves"] if i else 0
        high = changes[i + 1]["after_moves"] if i + 1 < len(changes) else len(tampered["moves"])
        assume_other = [n for n in range(low, high + 1) if n != changes[i]["after_moves"]]
        if not assume_other:
            return
        changes[i]["after_moves"] = data.draw(st.sampled_from(assume_other))
    elif what == "member":
        key = "to_user_id" if changes[i]["action"] == "replace" else "user_id"
        changes[i][key] += 1
    elif what == "seat":
        changes[i]["seat"] = (changes[i]["seat"] + 1) % len(tampered["players"])
    elif what == "moderator":
        changes[i]["moderator_user_id"] = 1
    else:
        changes.insert(i, {**changes[i], "action": "autopilot", "user_id": 7, "on": True})
    assert not verify(tampered, posted_commitment=posted, posted_head=head_).ok
    assert not verify(_rechained(tampered), posted_commitment=posted, posted_head=head_).ok


def test_a_seat_change_forged_into_a_record_that_calls_itself_older_is_said_uncovered_or_refused() -> None:
    """A game without seat changes: its head is the moves' alone, as in version 2. A forger who adds a seat change
    and calls the record older is told, with the head alone, that nothing covers it; with the commitment of the
    version-3 game too, refused."""
    doc, _ = GAMES["india"]
    record = copy.deepcopy(doc)
    players, decks = record["players"], record["decks"]
    members = [100 + i for i in range(len(players))]
    setup = committed_setup("india", {}, players, members, commitment(record["seed"], decks["cards"], decks["tickets"]))
    honest = verification_of(record["seed"], decks["cards"], decks["tickets"], record["moves"], setup, [])
    posted, head_ = setup_commitment(setup), honest["head"]
    forged = copy.deepcopy(record)
    forged["conductor"] = {
        "seats": [
            {"player": p, "user_id": 777 if i == 0 else u}
            for i, (p, u) in enumerate(zip(players, members, strict=True))
        ],
        "seat_changes": [{"action": "replace", "seat": 0, "from_user_id": 100, "to_user_id": 777, "after_moves": 5}],
        "verification": verification_of(
            record["seed"], decks["cards"], decks["tickets"], record["moves"], setup | {"version": 2}
        ),
    }
    alone = verify(forged, posted_head=head_)
    assert alone.ok and "every seat change" in alone.uncovered and not alone.seat_changes
    assert any("1 seat change(s) its chain does not cover" in n for n in alone.notes)
    assert alone.summary.endswith(
        "nothing posted covers the map, the options, the seats and their members at the start and every seat change"
    )
    both = verify(forged, posted_commitment=posted, posted_head=head_)
    assert not both.ok and len(both.seat_changes) == 1
