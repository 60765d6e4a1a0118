"""Old stage messages lose their buttons, also when the bot is killed between posting a new one and taking the
buttons off the one before.

The kill is simulated where it hurts: the bot stops (its task is cancelled)
right after the new stage message is recorded, before any old message is
edited; then a new bot starts on the same database in the same SimCord world,
as after a crash. After that start only the newest stage message of a game
being played carries buttons, and a finished game's carry none. The work is
done once (a second start edits nothing); a message that is gone or cannot
be edited is given up on, and a flaky edit is tried again at the next start.
A kill between Discord taking a stage message and the database recording it
leaves an unrecorded copy: the start that posts that stage again takes its
buttons off.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable

import pytest
from discord_harness import (
    Room,
    end_game,
    fail_requests,
    make_room,
    message_text,
    moderate,
    restart,
    turn_messages,
)
from discord_play import Player, open_game, stage_messages
from simcord import Env

from bot.service import GameInfo, GameStatus
from bot.service.front_records import FrontRecords, PostedMessage
from bot.table.old_buttons import OldButtons
from bot.table.stage_kinds import is_stage
from engine import Phase

pytestmark = pytest.mark.parametrize("game_seed", [11])

Kill = Callable[[GameInfo], bool]


def kill_before_stripping(monkeypatch: pytest.MonkeyPatch, when: Kill) -> list[int]:
    """The bot dies the first time it is about to take the buttons off an older stage message of a game for which
    `when(info)` holds (the new stage message is posted and recorded by then); the ids of the games it died in."""
    real = OldButtons.take_off_buttons
    killed: list[int] = []

    async def take_off_buttons(self: OldButtons, info: GameInfo, row: PostedMessage) -> None:
        if not killed and when(info):
            killed.append(info.id)
            raise asyncio.CancelledError  # nothing after this point runs, as if the process were killed here
        await real(self, info, row)

    monkeypatch.setattr(OldButtons, "take_off_buttons", take_off_buttons)
    return killed


async def playing(env: Env, names: list[str], trains: int) -> tuple[Room, Player]:
    """A game in a room of its own, past the ticket choice, in a server that posts a message per turn (the table's
    own kills and restarts: tests/test_discord_table.py)."""
    room = make_room(env, names)
    await turn_messages(room)
    game_id, _ = await open_game(room, "usa", len(names), trains=trains)
    player = Player(room, game_id)
    while (await player.game()).state.phase is not Phase.PLAY:
        await player.step(await player.game())
    return room, player


async def until_new_stage(player: Player) -> None:
    """Steps of the game until a new stage message is posted."""
    before = player.room.stage_message().id
    for _ in range(10):
        await player.step(await player.game())
        if (await player.game()).finished or player.room.stage_message().id != before:
            return
    raise AssertionError("no new stage message")


async def marked(player: Player) -> list[PostedMessage]:
    """The game's stage messages still marked as carrying buttons."""
    rows = await player.service.front.posted_messages(player.game_id)
    return [m for m in rows if is_stage(m.kind) and m.buttons]


def edits(env: Env) -> list[str]:
    return [r.path for r in env.http_requests if r.method == "PATCH" and "/messages/" in r.path]


async def test_a_kill_between_posting_and_stripping_leaves_no_old_buttons_after_the_restart(
    simcord_env: Env, monkeypatch: pytest.MonkeyPatch
) -> None:
    turns, running = await playing(simcord_env, ["alice", "bob"], trains=20)
    finals, ending = await playing(simcord_env, ["carol", "dave"], trains=6)

    # a game being played: killed after posting a turn message, before the buttons of the one before go
    killed = kill_before_stripping(monkeypatch, lambda info: info.id == running.game_id)
    old_turn = turns.stage_message()
    await until_new_stage(running)
    assert killed == [running.game_id]
    with_buttons = stage_messages(turns)
    assert [m.id for m in with_buttons][-2:] == [old_turn.id, turns.stage_message().id]  # both look live

    # a game that ends: killed after posting the final message, before the last turn message loses its buttons
    monkeypatch.undo()
    killed = kill_before_stripping(
        monkeypatch, lambda info: info.id == ending.game_id and info.status is GameStatus.FINISHED
    )
    while not (await ending.game()).finished:
        await until_new_stage(ending)
    assert killed == [ending.game_id]
    final = next(m for m in await ending.service.front.posted_messages(ending.game_id) if m.kind == "final")
    last_turn = stage_messages(finals)[-1]
    assert last_turn.id < final.message_id and "turn" in message_text(last_turn)  # still looks live after the end

    monkeypatch.undo()
    before = len(edits(simcord_env))
    await restart(simcord_env)

    # only the newest stage message of the game being played carries buttons; the finished game has none
    newest = turns.public_messages()
    assert [m.id for m in stage_messages(turns)] == [with_buttons[-1].id]
    assert [m.message_id for m in await marked(running)] == [with_buttons[-1].id]
    assert stage_messages(finals) == []
    assert await marked(ending) == []
    assert len(edits(simcord_env)) - before == 2  # one edit per stale message, nothing else
    assert [m.id for m in turns.public_messages()] == [m.id for m in newest]  # nothing posted again

    # done once: another start edits nothing, and the game goes on from its live message
    before = len(edits(simcord_env))
    await restart(simcord_env)
    assert len(edits(simcord_env)) == before
    await until_new_stage(running)
    assert len(stage_messages(turns)) == 1


async def test_a_kill_before_a_posted_stage_message_is_recorded(
    simcord_env: Env, monkeypatch: pytest.MonkeyPatch
) -> None:
    room, player = await playing(simcord_env, ["alice", "bob"], trains=20)
    real = FrontRecords.remember_message
    unrecorded: list[int] = []

    async def remember_message(
        self: FrontRecords, game_id: int, kind: str, channel_id: int, message_id: int, *, buttons: bool = False
    ) -> None:
        if not unrecorded and is_stage(kind):
            unrecorded.append(message_id)
            raise asyncio.CancelledError  # Discord has the message; the database never hears of it
        await real(self, game_id, kind, channel_id, message_id, buttons=buttons)

    monkeypatch.setattr(FrontRecords, "remember_message", remember_message)
    old = room.stage_message()
    await until_new_stage(player)
    assert [m.id for m in stage_messages(room)][-2:] == [old.id, *unrecorded]  # both look live
    monkeypatch.undo()

    await restart(simcord_env)
    live = room.stage_message()
    assert live.id not in (old.id, *unrecorded)  # the stage is posted again, and recorded this time
    assert [m.id for m in stage_messages(room)] == [live.id]  # the unrecorded copy and the older one lost theirs
    assert [m.message_id for m in await marked(player)] == [live.id]
    await until_new_stage(player)
    assert len(stage_messages(room)) == 1


@pytest.mark.parametrize(
    ("status", "code", "given_up"),
    [(404, 10008, True), (403, 50001, True), (500, 0, False)],
    ids=["deleted", "forbidden", "flaky"],
)
async def test_a_message_that_cannot_be_edited_is_given_up_a_flaky_one_tried_again(
    simcord_env: Env,
    monkeypatch: pytest.MonkeyPatch,
    caplog: pytest.LogCaptureFixture,
    status: int,
    code: int,
    given_up: bool,
) -> None:
    room, player = await playing(simcord_env, ["alice", "bob"], trains=20)
    kill_before_stripping(monkeypatch, lambda info: True)
    old = room.stage_message()
    await until_new_stage(player)
    monkeypatch.undo()
    path = f"/channels/{old.channel.id}/messages/{old.id}"
    recover = fail_requests(simcord_env, "PATCH", path, status=status, code=code)

    caplog.set_level(logging.WARNING, logger="bot.table.old_buttons")
    await restart(simcord_env)
    assert edits(simcord_env).count(path) == 1  # tried once
    gave_up = [r for r in caplog.records if "gave up taking the buttons off" in r.getMessage()]
    assert len(gave_up) == (1 if given_up else 0)
    assert all(r.exc_info is None for r in gave_up)  # someone deleted it, or took the bot's rights: no traceback
    assert [m.message_id for m in await marked(player)] == (
        [room.stage_message().id] if given_up else [old.id, room.stage_message().id]
    )

    await restart(simcord_env)
    assert edits(simcord_env).count(path) == (1 if given_up else 2)  # given up on, or tried again
    recover()
    await restart(simcord_env)
    if not given_up:
        assert [m.id for m in stage_messages(room)] == [room.stage_message().id]
    assert [m.message_id for m in await marked(player)] == [room.stage_message().id]


async def test_an_abandoned_game_keeps_no_buttons(simcord_env: Env) -> None:
    room, player = await playing(simcord_env, ["alice", "bob"], trains=20)
    mods = await moderate(room)
    assert len(stage_messages(room)) == 1
    await end_game(mods, room, score="no", reason="duplicate table")
    assert stage_messages(room) == []
    assert await marked(player) == []
    before = len(edits(simcord_env))
    await restart(simcord_env)
    assert len(edits(simcord_env)) == before
