"""A game a moderator ended shows no secret while it can still run again, and once it showed them it never runs
again (issue 22, item 1), tried through SimCord as a hostile member and a moderator would:

- a member who never played asks for the record (`/ttr export`), the tickets (`/ttr hand`) and the channel's
  messages of a game a moderator abandoned: nothing of the hands, the tickets, the seed or the decks;
- a game scored as it stood shows every player's tickets and its seed: `/ttrmod reopen` refuses it;
- a tournament's table that the tournament counted (`/ttrmod end` in its thread, `/ttrtour adjudicate`) is
  never reopened, and the tournament's export carries only records of games that can never run again.
"""

from __future__ import annotations

import io
import json
import zipfile

import pytest
from discord_harness import (
    Room,
    all_private,
    attachment,
    end_game,
    make_room,
    message_text,
    moderate,
    replies,
    reply_text,
    slash,
)
from simcord import Env, InteractionResult, MemberActor
from test_discord_moderation import moderated_game
from test_discord_tournament import files_of, ok, running_table, thread_room

from bot.store.tournament_rows import TableStatus
from engine.verify import verify

pytestmark = pytest.mark.parametrize("game_seed", [5])


def no_file(result: InteractionResult) -> bool:
    return not any(m.attachments for m in replies(result))


def seen_by(room: Room, member: MemberActor) -> str:
    """Everything the channel shows everyone, and the member's DMs."""
    return "\n".join([m.content for m in room.public_messages()] + [m.content for m in room.dms(member)])


async def test_a_member_who_never_played_learns_nothing_of_an_abandoned_game_until_it_is_final(
    simcord_env: Env,
) -> None:
    room, mods, player = await moderated_game(simcord_env)
    mallory = room.add_member("mallory")
    for _ in range(3):
        await player.step(await player.game())
    stored = await player.service.store.games.stored_game(player.game_id)
    assert stored is not None and stored.game.seed is not None
    seed = stored.game.seed
    game = await player.game()
    tickets = [game.board.tickets[t].label() for p in game.state.players for t in p.tickets]
    assert tickets

    await end_game(mods, room, score="no", reason="evening over")
    asked = await slash(mallory, room, "ttr export")
    assert all_private(asked) and no_file(asked), reply_text(asked)
    assert "can still be reopened" in reply_text(asked), reply_text(asked)
    hand = await slash(mallory, room, "ttr hand", game=player.game_id)
    assert all_private(hand) and not any(t in reply_text(hand) for t in tickets), reply_text(hand)
    status = await slash(mallory, room, "ttr status", game=player.game_id)
    assert not any(t in reply_text(status) for t in tickets), reply_text(status)
    assert seed not in seen_by(room, mallory) and not any(t in seen_by(room, mallory) for t in tickets)

    # nothing was shown, so the game may run again: the moderator reopens it and it plays on
    reopened = await slash(mods.moderator, room, "ttrmod reopen", reason="ended by mistake")
    assert "runs again" in reply_text(reopened), reply_text(reopened)
    before = len((await player.game()).moves)
    await player.step(await player.game())
    assert len((await player.game()).moves) > before

    # scored as it stands: every player's tickets and the seed are shown, so the end is final
    ended = await end_game(mods, room, score="yes", reason="time is up")
    assert "final" in reply_text(ended) and "/ttrmod reopen" not in reply_text(ended), reply_text(ended)
    final = next(message_text(m) for m in room.public_messages() if "is over" in message_text(m))
    assert f"seed `{seed}`" in "\n".join(message_text(m) for m in room.public_messages()), final
    refused = await slash(mods.moderator, room, "ttrmod reopen", reason="one more turn")
    assert all_private(refused) and "was scored when it ended" in reply_text(refused), reply_text(refused)
    assert (await player.service.core.game(player.game_id)).status.value == "finished"
    record = json.loads((await attachment(await slash(mallory, room, "ttr export")))[1])
    assert record["seed"] == seed and record["conductor"]["status"] == "finished"


async def test_a_tournament_table_the_tournament_counted_is_never_reopened(simcord_env: Env) -> None:
    room = make_room(simcord_env, ["ann", "bob", "cid", "dan"])
    mods = await moderate(room)
    info = await running_table(room, mods, humans=2)
    [table] = info.rounds[0].tables
    assert table.game_id is not None
    thread = next(t for t in room.channel.threads if t.id == table.channel_id)
    here = thread_room(room, thread)
    # abandoned in its thread: the tournament records the table (void), so the game never runs again
    question = await slash(mods.moderator, here, "ttrmod end", score="no", reason="nobody came")
    assert "counts it as void" in reply_text(question) and "cannot be reopened" in reply_text(question)
    ended = await end_game(mods, here, score="no", reason="nobody came")
    assert "this end is final" in reply_text(ended) and "/ttrmod reopen" not in reply_text(ended), reply_text(ended)
    after = await room.bot.service.tournaments.desk.tournament(info.id)
    assert after.rounds[0].tables[0].status is TableStatus.VOID
    refused = await slash(mods.moderator, here, "ttrmod reopen", reason="they came after all")
    assert all_private(refused) and "the tournament has counted" in reply_text(refused), reply_text(refused)
    assert not (await room.bot.service.core.game(table.game_id)).status.active
    # over for good: its record is in the tournament's export, and it verifies
    files = await files_of(await slash(mods.moderator, room, "ttrtour export"))
    [archive] = [data for name, data in files.items() if name.endswith(".zip")]
    with zipfile.ZipFile(io.BytesIO(archive)) as z:
        [name] = [n for n in z.namelist() if n.startswith("games/")]
        assert verify(json.loads(z.read(name))).ok


async def test_an_adjudicated_table_is_never_reopened(simcord_env: Env) -> None:
    room = make_room(simcord_env, ["ann", "bob", "cid", "dan"])
    mods = await moderate(room)
    info = await running_table(room, mods, humans=2)
    [table] = info.rounds[0].tables
    assert table.game_id is not None
    thread = next(t for t in room.channel.threads if t.id == table.channel_id)
    answer = await slash(mods.moderator, room, "ttrtour adjudicate", round=1, table=1, score="yes", reason="overdue")
    assert "scored as it stands" in ok(answer)
    refused = await slash(mods.moderator, thread_room(room, thread), "ttrmod reopen", reason="x")
    assert all_private(refused) and "cannot be reopened" in reply_text(refused), reply_text(refused)
    assert not (await room.bot.service.core.game(table.game_id)).status.active
