"""`python -m bot render`: writes the PNG, and says what is wrong without a traceback."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from test_render_support import decode

from bot.commands.cli import main

RECORDS = Path(__file__).parent / "records"
FULL = RECORDS / "san_francisco" / "v02_4p_full.json"


def _players(record: Path) -> list[str]:
    with open(record, encoding="utf-8") as handle:
        players: list[str] = json.load(handle)["players"]
    return players


@pytest.mark.parametrize("extra", [[], ["--final"], ["--player", "PLAYER"]])
def test_render_writes_a_png_and_prints_its_alt_text(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], extra: list[str]
) -> None:
    out = tmp_path / "board.png"
    extra = [_players(FULL)[1] if a == "PLAYER" else a for a in extra]
    assert main(["render", str(FULL), "-o", str(out), *extra]) == 0
    image = decode(out.read_bytes())
    assert image.width == 1744
    printed = capsys.readouterr().out
    assert f"wrote {out}" in printed
    assert "alt text: " in printed
    if "--player" in extra:
        assert f"Private view for {_players(FULL)[1]}" in printed


def test_a_player_name_matches_ignoring_case(tmp_path: Path) -> None:
    name = _players(FULL)[0]
    assert main(["render", str(FULL), "-o", str(tmp_path / "p.png"), "--player", name.upper()]) == 0


@pytest.mark.parametrize(
    ("record", "args", "message"),
    [
        (FULL, ["--player", "nobody"], "no player 'nobody' in this game"),
        (RECORDS / "usa" / "x12_second_faceup_wild.json", [], "stops replaying at move 31"),
        (Path("/nonexistent/record.json"), [], "cannot read"),
    ],
)
def test_bad_input_exits_1_with_a_message(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], record: Path, args: list[str], message: str
) -> None:
    out = tmp_path / "board.png"
    assert main(["render", str(record), "-o", str(out), *args]) == 1
    captured = capsys.readouterr()
    assert message in captured.err
    assert "Traceback" not in captured.err
    assert not out.exists()


def test_a_file_that_is_not_a_record_exits_1(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    bad_json = tmp_path / "bad.json"
    bad_json.write_text("{not json", encoding="utf-8")
    not_record = tmp_path / "frame.json"
    not_record.write_text(json.dumps({"map": "mars", "players": ["a", "b"], "seed": 1}), encoding="utf-8")
    assert main(["render", str(bad_json), "-o", str(tmp_path / "a.png")]) == 1
    assert "is not valid JSON" in capsys.readouterr().err
    assert main(["render", str(not_record), "-o", str(tmp_path / "b.png")]) == 1
    assert "unknown map 'mars'" in capsys.readouterr().err


@pytest.mark.parametrize(("language", "expected"), [("sv", "Slutpoäng"), ("fi", "Loppupisteet")])
def test_render_draws_in_the_language_asked(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], language: str, expected: str
) -> None:
    out = tmp_path / "final.png"
    assert main(["render", str(FULL), "-o", str(out), "--final", "--language", language]) == 0
    printed = capsys.readouterr().out
    assert expected in printed and "Final scores" not in printed
