"""Planned turns at the table (SimCord): `/ttr plan` sets a member's next turn while it is not theirs, and the bot
plays it the moment it comes: a claim, a face-up card then the deck, the deck twice; a planned route taken
meanwhile falls back to the next step; a tunnel stops the plan; a plan is cleared by a moderator's undo and by the
member's own move; it survives the bot process being killed; and nobody else ever sees it."""

from __future__ import annotations

import json
import logging
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from discord_harness import (
    Room,
    all_private,
    attachment,
    choose,
    click,
    custom_ids,
    dm_texts,
    make_room,
    make_room_in,
    moderate,
    panel,
    replies,
    reply_text,
    restart,
    slash,
)
from discord_play import Player, open_game
from simcord import Env, MemberActor

from bot.runtime.settings import Settings
from bot.service.kinds import Actor
from engine import Claim, DrawCard, DrawTickets, Game, Keep, Phase
from engine.moves import payment_of
from maps import WILD

SEEDED = pytest.mark.parametrize("game_seed", [5])
ROOT = Path(__file__).parent.parent
HELPER = Path(__file__).parent / "helpers" / "plan_setter.py"


async def _table(env: Env, map_name: str = "usa") -> tuple[Room, Player]:
    """alice and bob at a game past the ticket choice."""
    room = make_room(env, ["alice", "bob"])
    game_id, _ = await open_game(room, map_name, 2)
    player = Player(room, game_id)
    while (await player.game()).state.phase is not Phase.PLAY:
        await player.step(await player.game())
    return room, player


async def _seats(player: Player) -> tuple[MemberActor, str, MemberActor, str]:
    """The member to move and their name, and the other member (whose turn is next) and theirs."""
    game = await player.game()
    to_move = game.to_move()
    assert to_move is not None
    other = next(n for n in game.names if n != to_move.player)
    return await player.member(to_move.player), to_move.player, await player.member(other), other


async def _deck_twice(room: Room, member: MemberActor) -> None:
    for _ in range(2):
        result = await slash(member, room, "ttr draw", card="deck")
        assert all_private(result) and "went wrong" not in reply_text(result), reply_text(result)


async def _plan(room: Room, member: MemberActor, **options: str) -> str:
    result = await slash(member, room, "ttr plan", **options)
    assert all_private(result), reply_text(result)
    return reply_text(result)


def _everything_public(room: Room) -> str:
    return "\n".join(m.content for m in room.public_messages())


@SEEDED
async def test_planned_turns_are_played_as_they_come(simcord_env: Env) -> None:
    room, player = await _table(simcord_env)
    mover, _, planner, name = await _seats(player)
    game = await player.game()
    colour = next(c for c in game.state.piles.face_up if c and c != WILD)
    shown = await _plan(room, planner, step="cards", card=colour, second="deck")
    assert "tried in this order" in shown and "1. take a face-up" in shown, shown
    # a face-up card, then the deck: at once when the turn comes
    await _deck_twice(room, mover)
    game = await player.game()
    assert game.moves[-2:] == [DrawCard(name, colour), DrawCard(name, "deck")]
    assert (await player.service.core.live(player.game_id)).actors[-2:] == (Actor.PLAN, Actor.PLAN)
    told = dm_texts(room, planner)[-1]
    assert "your plan was used" in told and "Step 1 was played" in told and "You drew" in told, told
    # the deck twice
    assert "1. draw two cards from the deck" in await _plan(room, planner, step="deck")
    await _deck_twice(room, mover)
    game = await player.game()
    assert game.moves[-2:] == [DrawCard(name, "deck"), DrawCard(name, "deck")]
    # a claim, paid as the claim menu would: a route the planner can pay for now
    seat = game.seat(name)
    hand = game.state.players[seat].hand
    route = next(
        r
        for r in game.board.routes
        if r.id not in game.state.owner
        and not game.board.parallel(r)
        and r.color != "gray"
        and hand[r.color] + hand[WILD] >= r.length
        and r.length <= game.state.players[seat].trains
    )
    await _plan(room, planner, step="claim", route=str(route.id))
    await _deck_twice(room, mover)
    game = await player.game()
    last = game.moves[-1]
    assert isinstance(last, Claim) and last.player == name and game.state.owner[route.id] == seat
    assert "Step 1 was played: claim" in dm_texts(room, planner)[-1]
    # the channel saw the moves as usual, never the plan
    public = _everything_public(room)
    assert "plan" not in public.lower(), public


@SEEDED
async def test_a_route_taken_meanwhile_falls_back_to_the_next_step(simcord_env: Env) -> None:
    room, player = await _table(simcord_env)
    mover, moving, planner, name = await _seats(player)
    game = await player.game()
    option = game.claim_options(moving)[0]  # the mover can claim it now: the planner plans it too
    await _plan(room, planner, step="claim", route=str(option.route.id))
    await _plan(room, planner, step="deck")
    pay = " ".join(f"{n} {c}" for c, n in payment_of(option.payments[0]))
    claimed = await slash(mover, room, "ttr claim", route=str(option.route.id), pay=pay)
    assert "went wrong" not in reply_text(claimed), reply_text(claimed)
    game = await player.game()
    assert game.moves[-2:] == [DrawCard(name, "deck"), DrawCard(name, "deck")]
    told = dm_texts(room, planner)[-1]
    assert "Step 1 did not apply" in told and "Step 2 was played" in told, told


def _tunnel_after_tickets(game: Game, mover: str, planner: str) -> int | None:
    """A tunnel the planner could claim when their turn comes after the mover draws tickets and keeps one, whose
    extra cards would ask for more: the card deck is the same then (tickets touch no card)."""
    after = game.copy()
    after.apply(DrawTickets(mover))
    after.apply(next(m for m in after.legal_moves(mover) if isinstance(m, Keep) and len(m.tickets) == 1))
    for option in after.claim_options(planner):
        if not option.route.tunnel:
            continue
        trial = after.copy()
        trial.apply(trial.claim_for(planner, option.route, option.payments[0]))
        if trial.state.pending is not None:
            return option.route.id
    return None


@SEEDED
async def test_a_tunnel_stops_the_plan_and_the_turn_waits(simcord_env: Env) -> None:
    room, player = await _table(simcord_env, "switzerland")
    for _ in range(150):
        game = await player.game()
        mover, moving, planner, name = await _seats(player)
        at_start = game.to_move() is not None and game.to_move().must == "turn"  # type: ignore[union-attr]
        route = _tunnel_after_tickets(game, moving, name) if at_start and game.state.ticket_deck else None
        if route is None:
            await player.step(game)
            continue
        await _plan(room, planner, step="claim", route=str(route))
        await slash(mover, room, "ttr tickets")
        kept = await slash(mover, room, "ttr keep", numbers="1")
        assert "went wrong" not in reply_text(kept), reply_text(kept)
        game = await player.game()
        to_move = game.to_move()
        assert to_move is not None and to_move.player == name and to_move.must == "tunnel"
        assert "The tunnel asks for more cards" in dm_texts(room, planner)[-1]
        return
    raise AssertionError("no tunnel came up to plan")


@SEEDED
async def test_an_undo_and_the_members_own_move_clear_a_plan(simcord_env: Env) -> None:
    room, player = await _table(simcord_env)
    mods = await moderate(room)
    mover, _, planner, name = await _seats(player)
    await _plan(room, planner, step="deck")
    await slash(mover, room, "ttr draw", card="deck")
    preview = await slash(mods.moderator, room, "ttrmod undo", count=1, reason="misclick")
    await click(mods.moderator, panel(preview, "ttrmod:undo:yes"), "ttrmod:undo:yes")
    assert "You have no plan" in await _plan(room, planner, step="show")
    # set again, plans turned off before the turn comes: not played; the member's own move clears it
    await _plan(room, planner, step="tickets")
    await slash(mods.manager, room, "ttr config", plans="off")
    assert "turned off" in await _plan(room, planner, step="deck")
    await _deck_twice(room, mover)
    game = await player.game()
    assert game.to_move() is not None and game.to_move().player == name  # type: ignore[union-attr]
    await slash(mods.manager, room, "ttr config", plans="on")
    assert "1. draw tickets" in await _plan(room, planner, step="show")
    await _deck_twice(room, planner)
    assert "You have no plan" in await _plan(room, planner, step="show")


@SEEDED
async def test_a_plan_on_ones_own_turn_is_refused(simcord_env: Env) -> None:
    room, player = await _table(simcord_env)
    mover, _, _, _ = await _seats(player)
    answer = await _plan(room, mover, step="deck")
    assert "play your turn yourself" in answer, answer
    assert "To plan taking face-up cards" in await _plan(room, mover, step="cards", card="plaid")
    assert "no route number 9999" in await _plan(room, mover, step="claim", route="9999")


@SEEDED
async def test_nobody_else_sees_a_plan(simcord_env: Env, caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.DEBUG)
    room, player = await _table(simcord_env)
    mods = await moderate(room)
    mover, _, planner, _ = await _seats(player)
    game = await player.game()
    route = game.board.routes[7]
    await _plan(room, planner, step="claim", route=str(route.id), pay="2 red")
    secret = f"{route.a} - {route.b}"
    # the other member's answers and DMs, the channel, the moderators' record and log: no plan in any
    views = [reply_text(await slash(mover, room, name)) for name in ("ttr hand", "ttr status", "ttr history")]
    record = (await attachment(await slash(mods.manager, room, "ttrmod export", reason="a dispute")))[1].decode()
    log = (await attachment(await slash(mods.moderator, room, "ttrmod log")))[1].decode("utf-8")
    shown = [*views, *dm_texts(room, mover), _everything_public(room), record, log, *mods.log_lines()]
    for text in shown:
        assert secret not in text and "plan" not in text.lower().replace("explanation", ""), text[:300]
    assert "plan" not in json.dumps(json.loads(record)).lower()
    assert not [r for r in caplog.records if secret in r.getMessage() or '"kind":"claim"' in r.getMessage()]


@SEEDED
async def test_a_plan_survives_the_process_that_set_it_being_killed(simcord_env: Env, bot_settings: Settings) -> None:
    room, player = await _table(simcord_env)
    mover, _, planner, name = await _seats(player)
    ready = Path(str(bot_settings.database) + ".plan-set")
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(ROOT), str(ROOT / "tests")]))
    proc = subprocess.Popen(
        [sys.executable, str(HELPER), str(bot_settings.database), str(player.game_id), str(planner.id), str(ready)],
        cwd=ROOT,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )
    try:
        deadline = time.monotonic() + 60
        while not ready.exists() and proc.poll() is None:
            assert time.monotonic() < deadline, "the plan was never set"
            time.sleep(0.05)
        assert proc.poll() is None, proc.stderr.read().decode() if proc.stderr else ""
    finally:
        proc.send_signal(signal.SIGKILL)  # set, not yet played: killed mid-sleep
        proc.wait()
    await restart(simcord_env)  # and the bot itself restarts too
    assert "1. draw two cards from the deck" in await _plan(room, planner, step="show")
    await _deck_twice(room, mover)
    game = await player.game()
    assert game.moves[-2:] == [DrawCard(name, "deck"), DrawCard(name, "deck")]
    assert "your plan was used" in dm_texts(room, planner)[-1]


@SEEDED
async def test_the_hand_panel_offers_the_plan_menu_while_it_is_not_ones_turn(simcord_env: Env) -> None:
    room, player = await _table(simcord_env)
    mover, _, planner, name = await _seats(player)
    mine = await click(mover, room.stage_message(), "ttr:hand:")
    assert not any("ttrs:plan:" in c for m in replies(mine) for c in custom_ids(m))  # one's own turn: no menu
    hand = await click(planner, room.stage_message(), "ttr:hand:")
    menu = panel(hand, "ttrs:plan:")
    chosen = await choose(planner, menu, "ttrs:plan:", ["deck"])
    assert all_private(chosen) and "1. draw two cards from the deck" in reply_text(chosen), reply_text(chosen)
    assert "`/ttr plan`" in reply_text(chosen)
    await _deck_twice(room, mover)
    game = await player.game()
    assert game.moves[-2:] == [DrawCard(name, "deck"), DrawCard(name, "deck")]
    again = await choose(planner, panel(chosen, "ttrs:plan:"), "ttrs:plan:", ["tickets"])  # the next one
    assert "1. draw tickets" in reply_text(again), reply_text(again)
    cleared = await choose(planner, panel(again, "ttrs:plan:"), "ttrs:plan:", ["clear"])
    assert "Your plan is cleared." in reply_text(cleared)


@SEEDED
async def test_the_autopilot_suggests_a_plan_marked_as_such(simcord_env: Env) -> None:
    room, player = await _table(simcord_env)
    mover, _, planner, _ = await _seats(player)
    suggested = await _plan(room, planner, step="suggest")
    assert suggested.startswith("Suggested by the autopilot"), suggested
    assert suggested.splitlines()[-2].endswith("draw two cards from the deck"), suggested  # the fallback, last
    shown = await _plan(room, planner, step="show")  # it is the member's plan now, to change as they like
    assert shown.splitlines()[1:] == suggested.splitlines()[1:]
    await _deck_twice(room, mover)
    assert (await player.service.core.live(player.game_id)).actors[-1] is Actor.PLAN
    assert "your plan was used" in dm_texts(room, planner)[-1]


@SEEDED
@pytest.mark.parametrize(
    ("locale", "language", "map_name"), [("sv-SE", "sv", "amsterdam"), ("fi", "fi", "switzerland")]
)
async def test_a_plan_speaks_the_members_language_with_the_maps_words(
    simcord_env: Env, locale: str, language: str, map_name: str
) -> None:
    from test_discord_languages import english_in, english_words_in, leak_report, other_maps_words, seen_since

    room = make_room_in(simcord_env, ["anna", "bertil"], guild_locale=locale, locale=locale)
    game_id, _ = await open_game(room, map_name, 2, words=False)
    player = Player(room, game_id)
    while (await player.game()).state.phase is not Phase.PLAY:
        await player.step(await player.game())
    mover, _, planner, _ = await _seats(player)
    game = await player.game()
    start = len(simcord_env.http_requests)
    longest = max(game.board.routes, key=lambda r: r.length)
    colour = next(c for c in game.rules.colors if c not in game.state.piles.face_up)
    await _plan(room, planner, step="claim", route=str(longest.id))  # not payable yet: skipped
    await _plan(room, planner, step="cards", card=colour)  # not showing: skipped
    await _plan(room, planner, step="tickets")
    await _plan(room, planner, step="show")
    await _deck_twice(room, mover)
    texts = [text for _, text in seen_since(simcord_env, start)]
    assert len(dm_texts(room, planner)) >= 1
    leaks = english_in(texts)
    assert not leaks, "English in a planned turn:\n" + leak_report(leaks)
    assert english_words_in(texts) == []
    assert other_maps_words(texts, language, map_name) == []
