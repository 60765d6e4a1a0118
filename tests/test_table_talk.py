"""The messages after each table, counted from the gateway's events (bot/table/talk.py)."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from bot.table.talk import ChannelTalk

CHANNEL = 7


def test_a_channel_is_known_from_the_message_it_is_watched_from() -> None:
    talk = ChannelTalk()
    talk.seen(CHANNEL, 5)  # not watched: not noted
    assert talk.count(CHANNEL, 10) is None
    talk.watch(CHANNEL, 10)
    for message_id in (11, 12, 13, 14):
        talk.seen(CHANNEL, message_id)
    talk.seen(CHANNEL + 1, 15)  # another channel
    assert talk.count(CHANNEL, 10) == 4
    assert talk.count(CHANNEL, 12) == 2
    assert talk.count(CHANNEL, 10, ignore={12, 99}) == 3  # the game's own notices aside
    assert talk.count(CHANNEL, 9) is None  # before the watch began: unknown
    talk.watch(CHANNEL, 20)  # a newer table in the same channel: the older one is still counted
    assert talk.count(CHANNEL, 10) == 4


def test_deleted_messages_no_longer_count_and_a_new_session_forgets() -> None:
    talk = ChannelTalk()
    talk.watch(CHANNEL, 10)
    for message_id in range(11, 21):
        talk.seen(CHANNEL, message_id)
    talk.gone(CHANNEL, [12, 13, 99])
    assert talk.count(CHANNEL, 10) == 8
    talk.forget()
    assert talk.count(CHANNEL, 10) is None


def test_what_the_history_read_is_kept_and_counted_on() -> None:
    talk = ChannelTalk()
    talk.watch(CHANNEL, 50)  # events from 50 on (a table of another game posted since the start)
    talk.seen(CHANNEL, 51)
    talk.learned(CHANNEL, 40, [41, 45, 50, 51])  # an older table's channel read: everything after 40
    assert talk.count(CHANNEL, 40) == 4
    talk.seen(CHANNEL, 52)
    assert talk.count(CHANNEL, 40) == 5 and talk.count(CHANNEL, 50) == 2
    talk.learned(CHANNEL, 45, [50, 51, 52])  # known from 40 already: nothing changes
    assert talk.count(CHANNEL, 40) == 5


def test_only_a_few_are_kept_and_many_stays_many() -> None:
    talk = ChannelTalk(keep=5, channels=2)
    talk.watch(CHANNEL, 100)
    for message_id in range(101, 120):
        talk.seen(CHANNEL, message_id)
    assert talk.count(CHANNEL, 100) == 6  # more than kept: keep + 1
    assert talk.count(CHANNEL, 116) == 3
    talk.watch(1, 1)
    talk.watch(2, 1)  # a third channel: the one used longest ago is let go
    assert talk.count(CHANNEL, 100) is None and talk.count(1, 1) == 0


@given(
    st.lists(st.tuples(st.booleans(), st.integers(1, 200)), max_size=120),
    st.integers(0, 200),
)
def test_the_count_is_that_of_the_messages_there_after_the_table(events: list[tuple[bool, int]], table: int) -> None:
    """Against a plain model of the channel: created and deleted messages, in any order of ids. Exact while at
    most `keep` were noted after the table; past that "many" (more than `keep`: the table moves down)."""
    talk = ChannelTalk(keep=16)
    talk.watch(CHANNEL, 0)
    there: set[int] = set()
    ever: set[int] = set()
    for created, message_id in events:
        if created:
            talk.seen(CHANNEL, message_id)
            there.add(message_id)
            ever.add(message_id)
        else:
            talk.gone(CHANNEL, [message_id])
            there.discard(message_id)
    after = len([i for i in there if i > table])
    count = talk.count(CHANNEL, table)
    assert count is not None
    if len([i for i in ever if i > table]) <= 16:
        assert count == after
    else:
        assert count == after or count > 16
