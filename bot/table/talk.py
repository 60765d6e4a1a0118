"""How far the conversation has pushed each table up: the messages of its channel after it, counted from the
gateway's events instead of read from the channel's history at every edit.

The live table (bot/table/live_table.py) moves down when more than
`MOVE_AFTER` messages follow it. Reading the channel's recent history before
every edit cost a request to Discord per move; instead each channel that has
a table is watched from the table's message on: every message created in it
(`on_message`) is noted, every message deleted (a game's notice taken away,
a member's message removed) is forgotten. The game's own notices are left
out when counting, as before.

A channel is known from the message it is watched from: a table posted now
is watched from its own message. After a start (or a new gateway session,
whose gap may have lost events) nothing is known: the first edit of each
table reads the channel's history once (`learned` then keeps what it read)
and counts from the events afterwards. Only the newest `KEEP` messages of a
channel are kept, enough to tell "more than `MOVE_AFTER`"; at most
`CHANNELS` channels are watched (the least recently used are let go, and
read from the history again if they come back).
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Collection, Iterable
from dataclasses import dataclass, field

import discord
from discord.ext import commands

KEEP = 64  # the newest message ids kept per channel
CHANNELS = 10_000  # channels watched at most


@dataclass
class _Channel:
    since: int  # every message after this one is noted (a message id)
    ids: list[int] = field(default_factory=list)  # the newest messages after `since`, ascending
    dropped: int = 0  # the newest id let go to keep `ids` short (0: none)


class ChannelTalk:
    """The messages posted after a table in its channel, from the gateway's events."""

    def __init__(self, keep: int = KEEP, channels: int = CHANNELS) -> None:
        self.keep = keep
        self.channels = channels
        self._watched: OrderedDict[int, _Channel] = OrderedDict()

    def listen(self, bot: commands.Bot) -> None:
        """Hear the bot's gateway events: messages created and deleted."""
        bot.add_listener(self.on_message, "on_message")
        bot.add_listener(self.on_raw_message_delete, "on_raw_message_delete")
        bot.add_listener(self.on_raw_bulk_message_delete, "on_raw_bulk_message_delete")

    def forget(self) -> None:
        """A new gateway session: the events of the gap may be lost, so nothing is known any more."""
        self._watched.clear()

    def watch(self, channel_id: int, since: int) -> None:
        """Note the channel's messages from the message `since` on (a table just posted there: the newest), unless
        they are noted from an older one already."""
        if channel_id not in self._watched:
            self._watched[channel_id] = _Channel(since)
            self._trim()
        self._watched.move_to_end(channel_id)

    def learned(self, channel_id: int, after: int, ids: Iterable[int]) -> None:
        """The channel's history was read: `ids` are every message after `after` (all of them, not a part)."""
        known = self._watched.get(channel_id)
        if known is not None and known.since <= after:
            return
        merged = sorted({*ids, *(known.ids if known else ())})
        self._watched[channel_id] = _Channel(after, [i for i in merged if i > after])
        self._keep_few(self._watched[channel_id])
        self._trim()

    def count(self, channel_id: int, after: int, ignore: Collection[int] = ()) -> int | None:
        """How many messages follow the message `after` in the channel, those in `ignore` aside; None if unknown
        (not watched since then). More than the `keep` newest: their number is `keep` + 1."""
        known = self._watched.get(channel_id)
        if known is None or known.since > after:
            return None
        self._watched.move_to_end(channel_id)
        if known.dropped > after:
            return self.keep + 1
        return sum(1 for i in known.ids if i > after and i not in ignore)

    # ----- the gateway's events --------------------------------------------------------------------------

    def seen(self, channel_id: int, message_id: int) -> None:
        known = self._watched.get(channel_id)
        if known is None or message_id <= known.since:
            return
        if not known.ids or message_id > known.ids[-1]:
            known.ids.append(message_id)
        elif message_id not in known.ids:
            known.ids.append(message_id)
            known.ids.sort()
        self._keep_few(known)

    def gone(self, channel_id: int, message_ids: Iterable[int]) -> None:
        known = self._watched.get(channel_id)
        if known is not None:
            deleted = set(message_ids)
            known.ids = [i for i in known.ids if i not in deleted]

    async def on_message(self, message: discord.Message) -> None:
        self.seen(message.channel.id, message.id)

    async def on_raw_message_delete(self, payload: discord.RawMessageDeleteEvent) -> None:
        self.gone(payload.channel_id, (payload.message_id,))

    async def on_raw_bulk_message_delete(self, payload: discord.RawBulkMessageDeleteEvent) -> None:
        self.gone(payload.channel_id, payload.message_ids)

    def _keep_few(self, known: _Channel) -> None:
        if len(known.ids) > self.keep:
            cut = len(known.ids) - self.keep
            known.dropped = max(known.dropped, known.ids[cut - 1])
            del known.ids[:cut]

    def _trim(self) -> None:
        while len(self._watched) > self.channels:
            self._watched.popitem(last=False)
