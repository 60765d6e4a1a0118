"""The boards' warm-up at start: every map's static layer (render/static_layer.py) built in a thread of its own,
in the background, so that the first image of each map after a restart is as quick as any other.

Nothing waits for it: the bot answers from the moment it is connected. Building a layer holds the interpreter
most of the time (Python drawing the names), so the thread builds the next layer only while no interaction is
being answered (`Answering.quiet`). A request that needs a layer not built yet builds it itself (that first
image takes longer); one that needs the layer this thread is building waits for that one; none is built twice.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Sequence

from render import static_board
from render.words import ImageWords

log = logging.getLogger(__name__)

POLL_SECONDS = 0.5  # how often a waiting warm-up looks whether it was stopped


class BoardWarmUp:
    """A daemon thread that builds the static layers of `maps` in order, each once `quiet` is set."""

    def __init__(self, maps: Sequence[str], words: ImageWords, quiet: threading.Event) -> None:
        self.maps = tuple(maps)
        self.words = words
        self.quiet = quiet
        self.built: list[str] = []  # the maps whose layer it built (or found built), in order
        self._stopping = threading.Event()
        self._thread = threading.Thread(target=self._run, name="conductor-warm-up", daemon=True)

    def start(self) -> None:
        self._thread.start()

    def stop(self) -> None:
        """No more layers after the one being built (the bot is closing)."""
        self._stopping.set()

    @property
    def running(self) -> bool:
        return self._thread.is_alive()

    def join(self, timeout: float | None = None) -> bool:
        """Wait for the thread (tests); True if it ended."""
        self._thread.join(timeout)
        return not self._thread.is_alive()

    def before_layer(self) -> bool:
        """Wait until no interaction is being answered; False if the warm-up was stopped meanwhile."""
        while not self._stopping.is_set():
            if self.quiet.wait(POLL_SECONDS):
                return not self._stopping.is_set()
        return False

    def _run(self) -> None:
        started = time.perf_counter()
        try:
            for map_name in self.maps:
                if not self.before_layer():
                    return
                static_board(map_name, words=self.words)
                self.built.append(map_name)
        except Exception:
            log.exception("could not build the boards' static layers at start (they are built on first use)")
            return
        log.info("static board layers of %d maps built in %.2f s", len(self.built), time.perf_counter() - started)
