"""How many commands, clicks and menu choices one member may send in a few seconds.

`RateLimiter` keeps, per user id and in memory, the moments of the member's
last admitted requests (a sliding window): at most `limit` of them in any
`window` seconds. A refused request is not counted, so waiting is enough to be
let through again. `admitted` is the one check where a request enters the bot
(the command tree's interaction check, the shared handler of the game's
buttons and menus, and the checks of the other buttons: the tournament
message's, a moderator's Confirm / Cancel, the pages of a paged answer);
autocomplete never goes through it. The clock is injectable.
"""

from __future__ import annotations

import math
import time
from collections import deque
from collections.abc import Callable

import discord

from bot.present.answers import too_fast_text
from bot.present.i18n import speaking
from bot.views.replies import private, reader_language

# how many requests between sweeps of members whose window has emptied
_SWEEP_EVERY = 1000


class RateLimiter:
    """At most `limit` requests per member in any `window` seconds; a `limit` of 0 lets everything through."""

    def __init__(self, limit: int, window: float, *, clock: Callable[[], float] = time.monotonic) -> None:
        if limit < 0 or window <= 0:
            raise ValueError("the limit must be 0 or more and the window a positive number of seconds")
        self.limit = limit
        self.window = window
        self._clock = clock
        self._seen: dict[int, deque[float]] = {}
        self._since_sweep = 0

    def wait(self, user_id: int) -> float | None:
        """None if the member may go ahead now (and it counts); else how many seconds until they may."""
        if self.limit == 0:
            return None
        now = self._clock()
        self._sweep(now)
        times = self._seen.setdefault(user_id, deque())
        while times and times[0] <= now - self.window:
            times.popleft()
        if len(times) >= self.limit:
            return times[0] + self.window - now
        times.append(now)
        return None

    def _sweep(self, now: float) -> None:
        """Forget members with nothing left in their window, now and then, so memory stays small."""
        self._since_sweep += 1
        if self._since_sweep < _SWEEP_EVERY:
            return
        self._since_sweep = 0
        for user_id in [u for u, times in self._seen.items() if not times or times[-1] <= now - self.window]:
            del self._seen[user_id]

    def tracked(self) -> int:
        """How many members the limiter holds moments of (for tests)."""
        return len(self._seen)


async def admitted(interaction: discord.Interaction) -> bool:
    """May this request go ahead? If not, the member is told privately how long to wait, and nothing is done."""
    limiter = getattr(interaction.client, "limiter", None)
    if not isinstance(limiter, RateLimiter):
        return True
    wait = limiter.wait(interaction.user.id)
    if wait is None:
        return True
    try:
        with speaking(await reader_language(interaction)):
            await private(interaction, too_fast_text(max(1, math.ceil(wait))))
    except discord.HTTPException:
        pass  # nothing more to do: the request is dropped either way
    return False
