"""Secrets and moderators: a moderator seated in a running game cannot read its record or log; every other
moderator's read of a running game is audited and posted to the moderators' log, whichever command it came
through; the log file tells moves taken back without their secrets; `/ttrmod undo` previews what it takes back.
"""

from __future__ import annotations

import json

import discord
import pytest
import simcord.actors as simcord_actors
from discord_harness import (
    Moderation,
    Room,
    all_private,
    attachment,
    click,
    end_game,
    find_id,
    make_room,
    moderate,
    panel,
    replies,
    reply_text,
    slash,
)
from discord_play import Player
from simcord import Env, InteractionResult, MemberActor, ResponseMessage

from bot.present.outline import undo_preview_text
from bot.service import MoveKind, MoveOutline, UndoneOutline, UndoPreview
from bot.service.reopen import REOPEN_SECONDS
from engine import Phase
from engine.moves import Keep
from maps import load_board

SEEDED = pytest.mark.parametrize("game_seed", [5])  # the SimCord games
READS = ("export", "read_log")


async def game_with_a_seated_moderator(env: Env) -> tuple[Room, Moderation, Player, MemberActor]:
    """alice, bob and carol (who has the moderator role) play a USA game past the ticket choice."""
    room = make_room(env, ["alice", "bob"])
    mods = await moderate(room)
    carol = room.add_member("carol", roles=[mods.role])
    alice, bob = room.members[:2]
    await slash(alice, room, "ttr new", map="usa", trains=10, turn_time="1h", reserve="none")
    await slash(bob, room, "ttr join")
    await slash(carol, room, "ttr join")
    await slash(alice, room, "ttr start")
    info = await room.bot.service.reading.active_game(room.channel.id)
    assert info is not None and info.seat_of(carol.id) is not None
    player = Player(room, info.id)
    while (await player.game()).state.phase is not Phase.PLAY:
        await player.step(await player.game())
    return room, mods, player, carol


async def pressed_by_another(
    owner: MemberActor, other: MemberActor, message: ResponseMessage, prefix: str
) -> InteractionResult:
    """A press on `owner`'s private message by `other`, as a modified client could send it (Discord shows it
    to `owner` only)."""
    stored = simcord_actors._visible_message(owner, message)
    data = {"custom_id": find_id(message, prefix), "component_type": discord.ComponentType.button.value}
    return await simcord_actors._component_interaction(other, stored, data)


def no_file(result: InteractionResult) -> bool:
    return not any(m.attachments for m in replies(result))


async def reads_audited(player: Player) -> list[tuple[str, int]]:
    return [
        (a.action, a.moderator_user_id) for a in await player.service.audit.audit(player.game_id) if a.action in READS
    ]


@SEEDED
async def test_a_seated_moderator_is_refused_the_secrets_of_the_running_game(simcord_env: Env) -> None:
    room, mods, player, carol = await game_with_a_seated_moderator(simcord_env)
    for command in ("ttr export", "ttrmod export", "ttrmod log"):
        refused = await slash(carol, room, command, reason="curious") if "ttrmod" in command else None
        refused = refused or await slash(carol, room, command)
        text = reply_text(refused)
        assert all_private(refused) and no_file(refused), (command, text)
        assert f"You play in game #{player.game_id}" in text and "Another moderator can" in text, text
    assert "cannot read its log" in reply_text(await slash(carol, room, "ttrmod log"))
    assert mods.log_lines() == [] and await reads_audited(player) == []

    # another moderator reads it, through either command: audited and posted to the moderators' log
    plain = await slash(mods.moderator, room, "ttr export")
    record = json.loads((await attachment(plain))[1])
    assert all_private(plain) and record["conductor"]["status"] == "playing"
    assert len(mods.log_lines()) == 1 and "exported the record" in mods.log_lines()[-1]
    assert f"<@{mods.moderator.id}>" in mods.log_lines()[-1]
    await attachment(await slash(mods.manager, room, "ttrmod export", reason="a dispute"))
    await attachment(await slash(mods.moderator, room, "ttrmod log"))
    assert "a dispute" in mods.log_lines()[1] and "read the log" in mods.log_lines()[2]
    assert await reads_audited(player) == [
        ("export", mods.moderator.id),
        ("export", mods.manager.id),
        ("read_log", mods.moderator.id),
    ]
    # a player who is no moderator still waits for the end
    alice = room.members[0]
    assert "once the game is over" in reply_text(await slash(alice, room, "ttr export"))

    # once the game is over for good, everybody has the record, carol too, and her plain export is not a
    # moderator's read; abandoned, it may be reopened for a day (nobody else has it meanwhile: test_ended_secrets.py)
    await end_game(mods, room, score="no", reason="evening over")
    for _ in range(5):  # in steps, as the bot's heartbeat runs meanwhile
        await simcord_env.advance_time(REOPEN_SECONDS // 5 + 1)
    lines = len(mods.log_lines())
    after = json.loads((await attachment(await slash(carol, room, "ttr export")))[1])
    assert after["conductor"]["status"] == "cancelled"
    assert len(mods.log_lines()) == lines
    await attachment(await slash(carol, room, "ttrmod log", game=player.game_id))


@SEEDED
async def test_undo_previews_what_was_seen_and_the_log_keeps_the_secrets(simcord_env: Env) -> None:
    room, mods, player, _carol = await game_with_a_seated_moderator(simcord_env)
    game = await player.game()
    drawer = game.to_move().player  # type: ignore[union-attr]
    member = await player.member(drawer)
    assert "ttrs:keep:" in str([m.components for m in replies(await slash(member, room, "ttr tickets"))])
    kept_answer = await slash(member, room, "ttr keep", numbers="1 3")
    assert "You keep" in reply_text(kept_answer) or "keeps" in reply_text(kept_answer), reply_text(kept_answer)
    kept = (await player.game()).moves[-1]
    assert isinstance(kept, Keep) and kept.player == drawer
    blind = (await player.game()).to_move().player  # type: ignore[union-attr]
    blind_member = await player.member(blind)
    drew = await slash(blind_member, room, "ttr draw", card="deck")
    assert "You drew" in reply_text(drew), reply_text(drew)
    before = await player.game()

    preview = await slash(mods.moderator, room, "ttrmod undo", count=3, reason="wrong table")
    text = reply_text(preview)
    assert all_private(preview)
    assert f"{drawer} drew 3 tickets: {drawer} has seen 3 tickets" in text, text
    assert f"{drawer} kept {len(kept.tickets)} tickets" in text, text
    assert f"{blind} drew a blind card: {blind} has seen it" in text, text
    assert not any(t.origin in text for t in kept.tickets)
    assert (await player.game()).moves == before.moves  # a preview changes nothing

    buttons = panel(preview, "ttrmod:undo:")
    other = await pressed_by_another(mods.moderator, mods.manager, buttons, "ttrmod:undo:yes")
    assert all_private(other) and "Only the moderator who asked" in reply_text(other)
    cancelled = await click(mods.moderator, buttons, "ttrmod:undo:no")
    assert "Nothing was taken back" in reply_text(cancelled)
    stale = await click(mods.moderator, buttons, "ttrmod:undo:yes")
    assert all_private(stale) and "out of date" in reply_text(stale)
    assert (await player.game()).moves == before.moves and mods.log_lines() == []

    again = panel(await slash(mods.moderator, room, "ttrmod undo", count=3, reason="wrong table"), "ttrmod:undo:")
    done = await click(mods.moderator, again, "ttrmod:undo:yes")
    assert "Took back 3 moves" in reply_text(done), reply_text(done)
    assert (await player.game()).moves == before.moves[:-3]

    log = (await attachment(await slash(mods.moderator, room, "ttrmod log")))[1].decode("utf-8")
    assert "<@" not in log and "\\" not in log
    assert f"moderator {mods.moderator.name}" in log
    assert f"(later taken back): {drawer} drew tickets" in log
    assert f"(later taken back): {drawer} kept {len(kept.tickets)} tickets" in log
    assert f"(later taken back): {blind} drew a blind card" in log
    for ticket in kept.tickets:
        assert ticket.origin not in log and not any(d in log for d in ticket.dests), ticket
    assert "keep': [" not in log and "origin" not in log


@SEEDED
async def test_an_undo_preview_is_refused_once_the_game_changed(simcord_env: Env) -> None:
    room, mods, player, _ = await game_with_a_seated_moderator(simcord_env)
    buttons = panel(await slash(mods.moderator, room, "ttrmod undo", count=1, reason="x"), "ttrmod:undo:")
    await player.step(await player.game())
    moves = (await player.game()).moves
    late = await click(mods.moderator, buttons, "ttrmod:undo:yes")
    assert all_private(late) and "The game changed since this preview" in reply_text(late), reply_text(late)
    assert (await player.game()).moves == moves


def test_a_long_preview_fits_a_message_and_keeps_what_was_seen() -> None:
    blind = UndoneOutline(MoveOutline("bob", MoveKind.DRAW_BLIND), cards_seen=1)
    claim = UndoneOutline(MoveOutline("alice", MoveKind.CLAIM, places=("Denver", "Omaha")))
    moves = (claim,) * 150 + (blind,) + (claim,) * 49
    text = undo_preview_text(load_board("usa").rules, UndoPreview(1, 7, 200, 300, moves))
    assert len(text) <= 1900 and "move 250: bob drew a blind card: bob has seen it" in text
    assert "and 199 more moves" in text
