"""Controls under load from one member: buttons pressed as fast as a client can, autocomplete typed into.

Buttons count against the member's command rate, as commands do.
The bot runs with the production rate (6 commands, clicks and menu choices per
member in any 10 seconds). Every kind of button that changes something or
draws an image goes through it: the tournament message's *Join* / *Leave* /
*Check in*, the pages of `/ttr replay` (and of every paged answer), and a
moderator's *Confirm* / *Cancel*; a press beyond the rate is refused privately, saying how
long to wait, and does nothing. Autocomplete of a tournament costs one bounded
query of the store per keystroke, however many tournaments the server has.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from discord_harness import all_private, click, custom_ids, make_room, moderate, panel, reply_text, slash
from discord_play import Player, open_game
from simcord import Env, InteractionResult, MemberActor
from simcord.actors import _visible_message

from bot import Settings
from bot.runtime.app import ConductorBot
from bot.service.tournaments.models import TournamentSettings
from bot.store.tournament_rows import ParticipantStatus

TOO_FAST = "You are sending commands too fast"
SETTINGS = TournamentSettings(("usa",), 2)
WINDOW = 10


@pytest.fixture
def bot_settings(tmp_path: Path) -> Settings:
    """The bot with the command rate it has in production: 6 per member in any 10 seconds."""
    return Settings(database=tmp_path / "conductor.sqlite3", commands_per_window=6, command_window_seconds=WINDOW)


def unlimited(bot: ConductorBot, on: bool) -> None:
    """Lift the command rate while a test sets up what it floods (the members act faster than anyone)."""
    bot.limiter.limit = 0 if on else 6


def fresh(member: MemberActor, message: Any) -> Any:
    """A private answer as it is now (after its buttons edited it)."""
    return _visible_message(member, message)


def too_fast(results: list[InteractionResult]) -> list[InteractionResult]:
    refused = [r for r in results if TOO_FAST in reply_text(r)]
    assert all(all_private(r) for r in refused)
    return refused


async def test_tournament_buttons_flooded_by_one_member_are_refused_beyond_the_rate(simcord_env: Env) -> None:
    room = make_room(simcord_env, ["flooder", "other"])
    flooder, other = room.members
    mods = await moderate(room)
    await slash(mods.moderator, room, "ttrtour create", name="Cup", rounds=1, map="usa")
    await slash(mods.moderator, room, "ttrtour registration", state="open")
    message = next(m for m in reversed(room.public_messages()) if any(c.startswith("ttrt:") for c in custom_ids(m)))
    [info] = await room.bot.service.tournaments.desk.tournaments(room.guild.id)
    await simcord_env.advance_time(WINDOW)
    edits_before = len(room.public_messages())

    presses = [await click(flooder, message, "ttrt:join:" if i % 2 == 0 else "ttrt:leave:") for i in range(40)]
    refused = too_fast(presses)
    assert len(refused) == 40 - 6, [reply_text(p) for p in presses]
    assert all("try again. Nothing was done" in reply_text(r) for r in refused)
    audit = await room.bot.service.store.tournaments.tournament_audit(info.id)
    assert len([a for a in audit if a.user_id == flooder.id]) <= 6, "a refused press changed nothing"
    assert len(room.public_messages()) == edits_before
    # another member is not slowed down by it; and after the window the flooder is let through again
    assert "registered" in reply_text(await click(other, message, "ttrt:join:"))
    await simcord_env.advance_time(WINDOW)
    again = await click(flooder, message, "ttrt:join:")
    assert TOO_FAST not in reply_text(again)
    info = await room.bot.service.tournaments.desk.tournament(info.id)
    assert {p.user_id for p in info.with_status(ParticipantStatus.REGISTERED)} == {flooder.id, other.id}


async def test_replay_pages_are_refused_beyond_the_rate(simcord_env: Env) -> None:
    room = make_room(simcord_env, ["alice", "bob"])
    alice = room.members[0]
    unlimited(room.bot, True)
    game_id, _ = await open_game(room, "usa", 2)
    player = Player(room, game_id)
    while (await player.game()).state.turn < 12:
        await player.step(await player.game())
    unlimited(room.bot, False)
    await simcord_env.advance_time(WINDOW)

    message = panel(await slash(alice, room, "ttr replay", turn=0), "")
    assert "before the first turn" in message.content
    presses = [await alice.click(message, label="Next") for _ in range(20)]
    assert len(too_fast(presses)) == 20 - 5, "the command and 5 pages turned, then nothing more"
    assert "the board after turn 5." in fresh(alice, message).content, "a refused press drew nothing"
    await simcord_env.advance_time(WINDOW)
    assert TOO_FAST not in reply_text(await alice.click(message, label="Previous"))
    assert "the board after turn 4." in fresh(alice, message).content


async def test_a_moderators_confirm_buttons_count_too(simcord_env: Env) -> None:
    room = make_room(simcord_env, ["alice", "bob"])
    mods = await moderate(room)
    unlimited(room.bot, True)
    game_id, _ = await open_game(room, "usa", 2)
    player = Player(room, game_id)
    while (await player.game()).state.turn < 6:
        await player.step(await player.game())
    unlimited(room.bot, False)
    await simcord_env.advance_time(WINDOW)

    moves = len((await player.game()).moves)
    preview = await slash(mods.moderator, room, "ttrmod undo", count=1, reason="misclick")
    cancel = panel(preview, "ttrmod:undo:no")
    presses = [await click(mods.moderator, cancel, "ttrmod:undo:no") for _ in range(10)]
    assert len(too_fast(presses)) == 10 - 5
    assert "Nothing was taken back" in reply_text(presses[0])
    assert len((await player.game()).moves) == moves


async def test_tournament_autocomplete_reads_a_bounded_list_per_keystroke(simcord_env: Env) -> None:
    room = make_room(simcord_env, ["typist"])
    typist = room.members[0]
    service = room.bot.service
    made = []
    for i in range(150):
        made.append(
            await service.tournaments.registration.create_tournament(
                room.guild.id, room.channel.id, 7, f"Cup {i}", SETTINGS
            )
        )
    await service.tournaments.registration.cancel_tournament(made[-1].id, 7)  # the newest is cancelled: not offered
    reads: list[int] = []
    whole = service.store.tournaments.tournament_data

    async def counted(tournament_id: int) -> Any:
        reads.append(tournament_id)
        return await whole(tournament_id)

    service.store.tournaments.tournament_data = counted  # type: ignore[method-assign]
    choices = []
    for typed in ("", "C", "Cu", "Cup", "Cup 1", "Cup 14"):
        choices.append(await typist.autocomplete(room.channel, "ttrtour join", "tournament", typed))
    assert reads == [], "no tournament is read whole while typing"
    assert [c["value"] for c in choices[0]] == [str(t.id) for t in reversed(made[124:149])]
    assert all(len(c) == 25 for c in choices[:4])
    # the 100 newest open tournaments are looked through: Cup 49 to Cup 148
    assert [c["name"] for c in choices[5]] == [f"#{made[i].id} Cup {i} (registration)" for i in range(148, 139, -1)]
