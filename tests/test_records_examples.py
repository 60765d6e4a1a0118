"""The example records replay to exactly the expected output."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from engine.record import parse_record, replay, replay_text, to_record

RECORDS = Path(__file__).parent / "records"
CASES = sorted(p for p in RECORDS.glob("*/*.json") if not p.name.endswith(".expected.json"))


def expected_for(path: Path) -> dict[str, Any]:
    result: dict[str, Any] = json.loads(path.with_name(path.stem + ".expected.json").read_text(encoding="utf-8"))
    return result


def test_there_are_examples_for_every_map() -> None:
    assert {p.parent.name for p in CASES} == {"usa", "india", "switzerland", "amsterdam", "san_francisco"}
    assert len(CASES) >= 20


@pytest.mark.parametrize("path", CASES, ids=lambda p: f"{p.parent.name}/{p.stem}")
def test_example_replays_exactly(path: Path) -> None:
    status, got = replay_text(path.read_text(encoding="utf-8"))
    expected = expected_for(path)
    if "error" in expected:
        assert status == 1
        assert got["error"]["move"] == expected["error"]["move"]
        assert got["error"]["message"]
    else:
        assert status == 0
        assert got == expected


@pytest.mark.parametrize("path", [p for p in CASES if "error" not in expected_for(p)], ids=lambda p: p.stem)
def test_written_record_replays_to_the_same_state(path: Path) -> None:
    game = replay(parse_record(json.loads(path.read_text(encoding="utf-8"))))
    again = replay(parse_record(to_record(game)))
    assert again.state == game.state
    assert again.moves == game.moves
    assert again.pass_round_ends is game.pass_round_ends


def test_only_the_stalemate_examples_carry_the_bots_rule_of_a_round_of_passes() -> None:
    """`pass_round_ends` (docs/game-record.md, section 9): the bot's records of games it ended by a whole round
    of passes carry it; every other example is a record of the specification alone, including a stuck game that
    goes on passing after a whole round."""
    carried = set()
    for path in CASES:
        doc = json.loads(path.read_text(encoding="utf-8"))
        if "pass_round_ends" in doc:
            assert doc["pass_round_ends"] is True
            carried.add(f"{path.parent.name}/{path.stem}")
        assert parse_record(doc).pass_round_ends is ("pass_round_ends" in doc)
    assert carried == {f"{p.parent.name}/{p.stem}" for p in CASES if p.stem.endswith("_stalemate")}
    assert len(carried) == 5
    stuck = RECORDS / "usa" / "s02_2p_stuck_passes_on.json"
    assert stuck in CASES
    status, got = replay_text(stuck.read_text(encoding="utf-8"))
    assert status == 0 and got["finished"] is False and got["to_move"] == {"player": "p1", "must": "turn"}


def test_replay_command_prints_one_json_object(tmp_path: Path) -> None:
    path = CASES[0]
    done = subprocess.run(
        [sys.executable, "-m", "bot", "replay", str(path)], capture_output=True, text=True, check=False
    )
    assert done.returncode == 0
    assert json.loads(done.stdout) == expected_for(path)
    assert done.stdout.count("\n") == 1
