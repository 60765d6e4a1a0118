"""`replay` and `render` read at most --max-bytes (16 MB by default) and never echo a huge input back."""

from __future__ import annotations

import io
import json
import sys
from pathlib import Path

import pytest

from bot.commands.cli import main
from bot.commands.limits import MAX_BYTES, MESSAGE_CHARS, clip
from engine.record import replay_text

RECORDS = Path(__file__).parent / "records"
CASES = sorted(p for p in RECORDS.glob("*/*.json") if not p.name.endswith(".expected.json"))
RECORD = RECORDS / "india" / "v02_3p_t3.json"


@pytest.mark.parametrize("path", CASES, ids=lambda p: f"{p.parent.name}/{p.stem}")
def test_replay_prints_exactly_what_the_record_replays_to(path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    status, result = replay_text(path.read_text(encoding="utf-8"))
    assert main(["replay", str(path)]) == status
    assert capsys.readouterr().out == json.dumps(result) + "\n"


def test_a_record_with_windows_line_ends_replays_the_same(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    crlf = tmp_path / "crlf.json"
    crlf.write_bytes(RECORD.read_bytes().replace(b"\n", b"\r\n"))
    assert main(["replay", str(RECORD)]) == 0
    plain = capsys.readouterr().out
    assert main(["replay", str(crlf)]) == 0
    assert capsys.readouterr().out == plain


def test_replay_refuses_a_file_above_the_limit_unless_raised(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    size = RECORD.stat().st_size
    assert main(["replay", str(RECORD), "--max-bytes", str(size - 1)]) == 1
    out = capsys.readouterr().out
    assert out.count("\n") == 1
    error = json.loads(out)["error"]
    assert error["move"] is None
    assert f"larger than {size - 1} bytes" in error["message"] and "--max-bytes" in error["message"]
    assert main(["replay", str(RECORD), "--max-bytes", str(size)]) == 0
    assert "players" in json.loads(capsys.readouterr().out)


def test_the_default_limit_is_16_mb(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert MAX_BYTES == 16 * 1024 * 1024
    big = tmp_path / "big.json"
    big.write_bytes(b" " * MAX_BYTES + b"{}")
    assert main(["replay", str(big)]) == 1
    assert f"larger than {MAX_BYTES} bytes" in json.loads(capsys.readouterr().out)["error"]["message"]


def test_replay_limits_standard_input_too(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    data = RECORD.read_bytes()
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(data)))
    assert main(["replay", "-", "--max-bytes", "100"]) == 1
    assert "standard input is larger than 100 bytes" in capsys.readouterr().out


@pytest.mark.parametrize("limit", [str(2**63 - 1), str(2**62), "1" + "0" * 40])
@pytest.mark.parametrize("command", ["replay", "verify", "render"])
def test_a_limit_of_any_size_reads_as_the_default_does(
    limit: str, command: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """An operator's --max-bytes as large as they like: no overflow, no memory set aside for it, the same answer."""
    out = ["-o", str(tmp_path / "board.png")] if command == "render" else []
    expected = main([command, str(RECORD), *out])
    printed = capsys.readouterr()
    assert main([command, str(RECORD), *out, "--max-bytes", limit]) == expected
    assert capsys.readouterr() == printed
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(RECORD.read_bytes())))
    if command != "render":  # render reads a file
        assert main([command, "-", "--max-bytes", limit]) == expected
        assert capsys.readouterr() == printed


@pytest.mark.parametrize("value", ["0", "-5", "lots"])
def test_a_bad_limit_is_a_usage_error(value: str, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as stop:
        main(["replay", str(RECORD), "--max-bytes", value])
    assert stop.value.code == 2
    assert "--max-bytes" in capsys.readouterr().err


def test_replay_cuts_echoed_input(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    doc = json.loads(RECORD.read_text(encoding="utf-8"))
    doc["map"] = "x" * 1_000_000
    path = tmp_path / "huge_map.json"
    path.write_text(json.dumps(doc), encoding="utf-8")
    assert main(["replay", str(path)]) == 1
    out = capsys.readouterr().out
    message = json.loads(out)["error"]["message"]
    assert len(out) < 1000
    assert message.startswith("unknown map 'xxxx") and "x…'" in message and "the maps are" in message


def test_replay_cuts_an_echoed_move(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    doc = json.loads(RECORD.read_text(encoding="utf-8"))
    doc["moves"].append({"type": "y" * 1_000_000})
    path = tmp_path / "huge_move.json"
    path.write_text(json.dumps(doc), encoding="utf-8")
    assert main(["replay", str(path)]) == 1
    out = capsys.readouterr().out
    assert len(out) < 1000 and json.loads(out)["error"]["move"] == len(doc["moves"]) - 1


def test_clip_keeps_short_messages_and_cuts_long_ones() -> None:
    assert clip("unknown map 'mars'; the maps are usa") == "unknown map 'mars'; the maps are usa"
    cut = clip("unknown map '" + "m" * 500 + "'; the maps are usa")
    assert cut == "unknown map '" + "m" * 78 + "…'; the maps are usa"
    assert len(clip("z" * 10_000)) == MESSAGE_CHARS and clip("z" * 10_000).endswith("…")


def test_render_refuses_a_file_above_the_limit(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "board.png"
    assert main(["render", str(RECORD), "-o", str(out), "--max-bytes", "1000"]) == 1
    err = capsys.readouterr().err
    assert "larger than 1000 bytes" in err and "--max-bytes" in err and "Traceback" not in err
    assert not out.exists()
    assert main(["render", str(RECORD), "-o", str(out), "--max-bytes", str(RECORD.stat().st_size)]) == 0


def test_render_cuts_an_echoed_player_name(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "board.png"
    assert main(["render", str(RECORD), "-o", str(out), "--player", "q" * 100_000]) == 1
    err = capsys.readouterr().err
    assert err.startswith("error: no player 'qqq") and "q…'" in err
    assert len(err) < 1000
