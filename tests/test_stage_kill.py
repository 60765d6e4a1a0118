"""Old buttons after SIGKILL: a bot process playing whole games through SimCord is killed at random moments.

After every kill, every channel message that Discord shows with buttons (the
player's log of Discord's side, tests/helpers/stage_kill_player.py) must be
known to the database and marked as carrying them: that is what the next start
sweeps. The simulated Discord of a killed process is gone with it, so the
sweep itself is shown in one world by tests/test_discord_stale_buttons.py;
each round here is a process of its own on a database of its own.
"""

from __future__ import annotations

import os
import random
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest

HELPER = Path(__file__).parent / "helpers" / "stage_kill_player.py"
ROOT = Path(__file__).parent.parent
KILLS = 16
# a kill finds one or two stage messages with live buttons, or none if it came early: at least this many in all
MIN_SEEN = 12
LOBBY = ("ttr:join:", "ttr:leave:", "ttr:start:")


def run_and_kill(db: Path, log: Path, delay: float) -> None:
    """Start the player and SIGKILL it `delay` seconds after it is ready."""
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(ROOT), str(ROOT / "tests")]))
    proc = subprocess.Popen(
        [sys.executable, str(HELPER), str(db), str(log)],
        cwd=ROOT,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )
    try:
        deadline = time.monotonic() + 120
        while not (log.exists() and b"READY" in log.read_bytes()) and proc.poll() is None:
            assert time.monotonic() < deadline, "the player never got ready"
            time.sleep(0.01)
        proc.wait(timeout=delay)
    except subprocess.TimeoutExpired:
        proc.send_signal(signal.SIGKILL)
        proc.wait()
    else:
        pytest.fail(f"the player stopped by itself: {proc.stderr.read().decode() if proc.stderr else ''}")
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
        if proc.stderr:
            proc.stderr.close()


def with_buttons(log: Path) -> dict[int, str]:
    """The channel messages Discord shows with buttons by the kill (id -> its first custom id); a line cut by the
    kill has no newline and is ignored."""
    shown: dict[int, str] = {}
    for line in log.read_text().splitlines(keepends=True):
        if not line.endswith("\n"):
            continue
        words = line.split()
        if words[0] == "BUTTONS":
            shown[int(words[1])] = words[2]
        elif words[0] == "OFF":
            shown.pop(int(words[1]), None)
    return shown


def marks(db: Path) -> dict[int, tuple[int, str, bool]]:
    """Every message the database knows: id -> (game, kind, marked as carrying buttons)."""
    conn = sqlite3.connect(db)
    try:
        rows = conn.execute("SELECT message_id, game_id, kind, buttons FROM messages").fetchall()
    finally:
        conn.close()
    return {int(r[0]): (int(r[1]), str(r[2]), bool(r[3])) for r in rows}


@pytest.mark.timeout(900)
def test_after_a_kill_every_message_with_buttons_is_marked_for_the_next_start(tmp_path: Path) -> None:
    rng = random.Random(20261127)
    stale = unrecorded = seen = 0
    for round_ in range(KILLS):
        db, log = tmp_path / f"round{round_}.sqlite3", tmp_path / f"round{round_}.log"
        run_and_kill(db, log, rng.uniform(0.5, 5.0))
        known = marks(db)
        shown = {m: c for m, c in with_buttons(log).items() if not c.startswith(LOBBY)}
        seen += len(shown)
        newest: dict[int, int] = {}
        for message_id, (game_id, kind, _) in known.items():
            if kind != "lobby" and kind != "reminder" and kind != "breakdown":
                newest[game_id] = max(newest.get(game_id, 0), message_id)
        for message_id in shown:
            if message_id not in known:
                # posted, and killed before the database recorded it (one write later): no mark can cover it; the
                # next start posts the stage again and takes this copy's buttons off then (`strip_unrecorded`,
                # shown in tests/test_discord_stale_buttons.py)
                unrecorded += 1
                continue
            game_id, kind, marked = known[message_id]
            assert marked, f"round {round_}: message {message_id} ({kind}) shows buttons but is not marked"
            stale += message_id != newest[game_id]
    assert seen >= MIN_SEEN, f"too few stage messages were posted to mean anything ({seen})"
    print(f"{KILLS} kills: {stale} old messages left with buttons and marked, {unrecorded} killed before recording")
