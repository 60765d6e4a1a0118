"""Each member's rate of requests, counted in the database so that every bot process on it holds one limit.

`admit_request` is one write transaction: INSERT ... ON CONFLICT DO NOTHING of
the member's row (so that two processes meeting a member for the first time
do not both find no row and both admit), then SELECT ... FOR UPDATE of it. On
PostgreSQL that row lock makes any other process asking for the same member
wait until this transaction commits, then read what it wrote; SQLite ignores
FOR UPDATE, and needs it not: its writes take turns under BEGIN IMMEDIATE.
The moments still in the window then decide: refused (the seconds to wait;
nothing is written, a refusal does not count) or admitted (now is added).
Moments are wall-clock epoch seconds, which the processes share.
`forget_rates` deletes the rows whose newest moment has left the window.
"""

from __future__ import annotations

import json
from typing import Any

from sqlalchemy import delete, select, update

from bot.store.parts.base import Backend
from bot.store.query import Q, Work, changed, insert_or_ignore, one, param
from bot.store.schema import member_rates

ENSURE_RATE = insert_or_ignore(member_rates, ("user_id", "moments", "last_at"))
RATE_FOR_UPDATE = Q(select(member_rates.c.moments).where(member_rates.c.user_id == param("user_id")).with_for_update())
PUT_RATE = Q(
    update(member_rates)
    .where(member_rates.c.user_id == param("user_id"))
    .values(moments=param("moments"), last_at=param("last_at"))
)
FORGET_RATES = Q(delete(member_rates).where(member_rates.c.last_at <= param("before")))
# how many times the row is made again if a sweep deleted it between the INSERT and the SELECT
_ATTEMPTS = 3


def _moments(text: Any) -> list[float]:
    """The moments a row holds, oldest first; none if the text is not a list of numbers."""
    try:
        found = json.loads(text)
    except (TypeError, ValueError):
        return []
    if not isinstance(found, list):
        return []
    return sorted(float(m) for m in found if isinstance(m, int | float) and not isinstance(m, bool))


class Rates:
    """`RateStore`."""

    def __init__(self, backend: Backend) -> None:
        self.backend = backend

    async def admit_request(self, user_id: int, now: float, limit: int, window: float) -> float | None:
        if limit <= 0:
            return None

        def work() -> Work[float | None]:
            row = None
            for _ in range(_ATTEMPTS):
                yield changed(ENSURE_RATE, user_id=user_id, moments="[]", last_at=0.0)
                row = yield one(RATE_FOR_UPDATE, user_id=user_id)
                if row is not None:
                    break
            moments = [m for m in _moments(None if row is None else row[0]) if m > now - window]
            if len(moments) >= limit:
                # the moment the oldest of the newest `limit` leaves the window; no more than a window (a
                # process whose clock runs ahead may have written moments "after" now)
                return min(moments[-limit] + window - now, window)
            moments = sorted([*moments, now])[-limit:]
            yield changed(PUT_RATE, user_id=user_id, moments=json.dumps(moments), last_at=max(moments))
            return None

        return await self.backend.do_write(work, key=("member", user_id))

    async def forget_rates(self, before: float) -> int:
        return await self.backend.execute(FORGET_RATES, before=before)
