"""Through Discord: a member's command rate holds across two bot processes on one database (a deploy's overlap).

The first bot answers one of the member's commands; the next bot, started on the same SQLite file (as a deploy
starts the new process), answers the second and refuses the third when the limit is 2 in the window: the first
bot's request was counted in the database. With the shared count off, each process counts on its own and the
new bot lets the third through (what this change fixes).
"""

from __future__ import annotations

from pathlib import Path

import pytest
from discord_harness import all_private, make_room, reply_text, restart, slash
from simcord import Env

from bot import Settings

TOO_FAST = "You are sending commands too fast"


@pytest.fixture(params=["on", "off"])
def bot_settings(tmp_path: Path, request: pytest.FixtureRequest) -> Settings:
    return Settings(
        database=tmp_path / "conductor.sqlite3",
        commands_per_window=2,
        command_window_seconds=10,
        shared_rate_limit=str(request.param),
    )


async def test_the_next_process_counts_the_requests_the_first_one_admitted(simcord_env: Env) -> None:
    room = make_room(simcord_env, ["alice", "bob"])
    alice, bob = room.members
    shared = room.bot.settings.rate_limit_shared
    first = await slash(alice, room, "ttr rules")
    assert TOO_FAST not in reply_text(first), reply_text(first)

    await restart(simcord_env)  # a new process on the same database; the first one's memory is gone with it
    second = await slash(alice, room, "ttr rules")
    assert TOO_FAST not in reply_text(second), reply_text(second)
    third = await slash(alice, room, "ttr rules")
    if shared:
        assert TOO_FAST in reply_text(third) and all_private(third), reply_text(third)
    else:
        assert TOO_FAST not in reply_text(third), "each process counts on its own"
    assert TOO_FAST not in reply_text(await slash(bob, room, "ttr rules")), "another member is not slowed"
    await simcord_env.advance_time(10)
    assert TOO_FAST not in reply_text(await slash(alice, room, "ttr rules")), "after the window, let in again"
