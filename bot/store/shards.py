"""Which servers a bot process serves: Discord's shards, `(guild_id >> 22) % count`.

A process that runs some shards of a sharded bot fires only the timers of
the games in those shards' servers, forgives outages of those games only and
keeps a heartbeat of its own per shard. `None` where a `Shards` is expected
means one process serving every server (the unsharded bot).
"""

from __future__ import annotations

from dataclasses import dataclass

# the heartbeat row of the unsharded bot (one process serving every server)
UNSHARDED_KEY = 1


@dataclass(frozen=True)
class Shards:
    """The shards `ids` of a bot with `count` shards (checked: ids within 0..count-1, no repeats)."""

    count: int
    ids: tuple[int, ...]

    def __post_init__(self) -> None:
        if isinstance(self.count, bool) or not isinstance(self.count, int) or self.count < 1:
            raise ValueError(f"the shard count must be a positive whole number, not {self.count!r}")
        if not self.ids:
            raise ValueError("a process must run at least one shard")
        for shard in self.ids:
            if isinstance(shard, bool) or not isinstance(shard, int) or not 0 <= shard < self.count:
                raise ValueError(f"shard id {shard!r} is not within 0..{self.count - 1}")
        if len(set(self.ids)) != len(self.ids):
            raise ValueError(f"shard ids repeat: {', '.join(map(str, self.ids))}")

    def shard_of(self, guild_id: int) -> int:
        """The shard that serves a server (Discord's formula)."""
        return (guild_id >> 22) % self.count

    def owns(self, guild_id: int) -> bool:
        return self.shard_of(guild_id) in self.ids

    @property
    def first(self) -> bool:
        """This process runs shard 0: it syncs the commands and fires the timers that belong to no game."""
        return 0 in self.ids

    def each(self) -> tuple[Shards, ...]:
        """One `Shards` per shard of this process (each has its own heartbeat)."""
        return tuple(Shards(self.count, (shard,)) for shard in self.ids)

    @property
    def heartbeat_key(self) -> int:
        """The heartbeat row of a single shard: 1000 * count + id (never 1, the unsharded bot's row)."""
        if len(self.ids) != 1:
            raise ValueError("a heartbeat belongs to one shard")
        return 1000 * self.count + self.ids[0]

    def guild_filter(self, column: str = "guild_id") -> str:
        """An SQL condition (SQLite and PostgreSQL alike) true for the rows of servers in these shards.

        Only whole numbers checked above go into the text.
        """
        ids = ", ".join(str(int(i)) for i in self.ids)
        return f"(({column} >> 22) % {int(self.count)}) IN ({ids})"


def heartbeat_key(shards: Shards | None) -> int:
    return UNSHARDED_KEY if shards is None else shards.heartbeat_key


def timer_filter(shards: Shards | None) -> str:
    """An SQL condition on `timers` (both stores) for the timers these shards fire: of their servers' games,
    and, on shard 0, those of no game. Empty for the unsharded bot (it fires every timer)."""
    if shards is None:
        return ""
    orphans = " OR game_id IS NULL" if shards.first else ""
    return f" AND (game_id IN (SELECT id FROM games WHERE {shards.guild_filter()}){orphans})"
