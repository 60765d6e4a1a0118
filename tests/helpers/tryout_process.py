"""`python -m bot try` in a process of its own, as a person starts it: its output read line by line, Ctrl-C to stop."""

from __future__ import annotations

import os
import queue
import re
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent.parent
URL = re.compile(r"http://127\.0\.0\.1:(\d+)/#\S+")


class TryOutProcess:
    """`python -m bot try` running in its own process, its output read line by line."""

    def __init__(self, data: Path, *args: str, port: int = 0) -> None:
        env = {k: v for k, v in os.environ.items() if k != "DISCORD_TOKEN"}
        env["PYTHONPATH"] = str(ROOT)
        self.process = subprocess.Popen(
            [sys.executable, "-m", "bot", "try", "--port", str(port), "--data", str(data), *args],
            cwd=ROOT,
            env=env,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
        )
        self.lines: queue.Queue[str] = queue.Queue()
        self.seen: list[str] = []
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        assert self.process.stdout is not None
        for line in self.process.stdout:
            self.lines.put(line)

    def wait_for(self, pattern: re.Pattern[str], seconds: float) -> str:
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            try:
                line = self.lines.get(timeout=0.5)
            except queue.Empty:
                if self.process.poll() is not None and self.lines.empty():
                    break
                continue
            self.seen.append(line)
            found = pattern.search(line)
            if found:
                return found.group(0)
        raise AssertionError(
            f"`python -m bot try` printed no line matching {pattern.pattern!r} within {seconds:.0f} s; "
            f"it printed:\n{''.join(self.seen)}"
        )

    def stop(self) -> int:
        """Ctrl-C, as a person stops it; the exit status."""
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGINT)
            try:
                self.process.wait(timeout=60)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
                raise AssertionError("`python -m bot try` did not stop within 60 s of Ctrl-C") from None
        return self.process.returncode
