"""Confirmations (issue #12), played as a person would: *Draw tickets* and claims ask first, unless a member
turns confirmations off with `/ttr settings`; and what the autopilot did for a member is told to them alone."""

from __future__ import annotations

from collections import Counter

import pytest
from discord_harness import (
    Room,
    all_private,
    button_labels,
    choose,
    click,
    custom_ids,
    dm_texts,
    make_room,
    message_text,
    moderate,
    panel,
    replies,
    reply_text,
    restart,
    select_options,
    slash,
)
from discord_play import Player, open_game
from simcord import Env, InteractionResult, MemberActor

from bot.views.pay_codes import pay_code
from engine import Claim, ClaimOption, DrawTickets, Game, Keep, Phase

pytestmark = pytest.mark.parametrize("game_seed", [3])
MINUTE = 60


async def game_under_way(room: Room, **options: object) -> Player:
    """A 2-player USA game past the starting tickets."""
    if options:
        await slash(room.members[0], room, "ttr new", map="usa", trains=8, **options)
        await slash(room.members[1], room, "ttr join")
        await slash(room.members[0], room, "ttr start")
        info = await room.bot.service.reading.active_game(room.channel.id)
        assert info is not None
        game_id = info.id
    else:
        game_id, _ = await open_game(room, "usa", 2, trains=8)
    player = Player(room, game_id)
    while (await player.game()).state.phase is not Phase.PLAY:
        await player.step(await player.game())
    return player


async def mover(player: Player) -> tuple[Game, str, MemberActor]:
    game = await player.game()
    to_move = game.to_move()
    assert to_move is not None
    return game, to_move.player, await player.member(to_move.player)


async def draw_two(room: Room, member: MemberActor) -> None:
    for _ in range(2):
        drew = await slash(member, room, "ttr draw", card="deck")
        assert "You drew" in reply_text(drew), reply_text(drew)


async def until_a_claim_with_choices(player: Player) -> tuple[Game, str, MemberActor, ClaimOption]:
    """Draw cards turn after turn until the player to move can claim a route in more than one way."""
    for _ in range(30):
        game, name, member = await mover(player)
        options = [o for o in game.claim_options(name) if len(o.payments) > 1 and not o.route.tunnel]
        if options:
            return game, name, member, options[0]
        await draw_two(player.room, member)
    raise AssertionError("no route with several payments came up")


async def pick_route(member: MemberActor, room: Room, route_id: int) -> InteractionResult:
    shown = await click(member, room.stage_message(), "ttr:claim:")
    menu = panel(shown, "ttrs:route:")
    menu_id = next(
        c
        for c in custom_ids(menu)
        if c.startswith("ttrs:route:") and str(route_id) in {o["value"] for o in select_options(menu, c)}
    )
    return await member.select(menu, [str(route_id)], custom_id=menu_id)


def last_claim(game: Game) -> Claim:
    move = game.moves[-1]
    assert isinstance(move, Claim), move
    return move


# ----- Draw tickets ----------------------------------------------------------------------


async def test_draw_tickets_asks_first_and_the_player_may_still_do_something_else(simcord_env: Env) -> None:
    room = make_room(simcord_env, ["alice", "bob"])
    player = await game_under_way(room)
    game, _name, member = await mover(player)
    moves = len(game.moves)
    buttons = custom_ids(room.stage_message())
    assert any(c.startswith("ttr:tickets:") for c in buttons)
    labels = button_labels(room.stage_message())
    assert "Draw tickets" in labels and "Tickets" not in labels

    asked = await click(member, room.stage_message(), "ttr:tickets:")
    assert all_private(asked)
    assert "Draw 3 destination tickets (this is your whole turn)?" in reply_text(asked)
    assert len((await player.game()).moves) == moves  # nothing drawn
    confirm = panel(asked, "ttr:ticketsok:")

    # the player draws cards instead: that works, and the old confirmation, superseded by the newer answers, has
    # lost its buttons (one set of live buttons per member; a tap on one kept would be out of date)
    await draw_two(room, member)
    assert len((await player.game()).moves) == moves + 2
    assert custom_ids(confirm) == [] and "Draw 3 destination tickets" in confirm.content
    after = await player.game()
    assert len(after.moves) == moves + 2 and not any(isinstance(m, DrawTickets) for m in after.moves[moves:])

    # the next player confirms: the tickets are offered
    game, _name, member = await mover(player)
    asked = await click(member, room.stage_message(), "ttr:tickets:")
    drew = await click(member, panel(asked, "ttr:ticketsok:"), "ttr:ticketsok:")
    assert all_private(drew) and any(c.startswith("ttrs:keep:") for c in custom_ids(panel(drew, "ttrs:keep:")))
    assert isinstance((await player.game()).moves[-1], DrawTickets)


async def test_cancel_does_nothing_and_typed_tickets_act_at_once(simcord_env: Env) -> None:
    room = make_room(simcord_env, ["alice", "bob"])
    player = await game_under_way(room)
    game, _name, member = await mover(player)
    moves = len(game.moves)
    asked = await click(member, room.stage_message(), "ttr:tickets:")
    cancelled = await click(member, panel(asked, "ttr:cancel:"), "ttr:cancel:")
    assert all_private(cancelled) and "nothing was done" in reply_text(cancelled)
    assert len((await player.game()).moves) == moves
    typed = await slash(member, room, "ttr tickets")
    assert any(c.startswith("ttrs:keep:") for c in custom_ids(panel(typed, "ttrs:keep:")))
    assert isinstance((await player.game()).moves[-1], DrawTickets)


# ----- claims ------------------------------------------------------------------------------


async def test_a_claim_shows_route_and_payment_and_another_payment_can_be_picked(simcord_env: Env) -> None:
    room = make_room(simcord_env, ["alice", "bob"])
    player = await game_under_way(room)
    game, name, member, option = await until_a_claim_with_choices(player)
    route = option.route
    moves = len(game.moves)

    asked = await pick_route(member, room, route.id)
    text = reply_text(asked)
    assert all_private(asked) and f"Claim **{route.label()}**?" in text, text
    assert f"{route.length} space" in text and route.color in text and "track" in text and "You pay:" in text
    assert len((await player.game()).moves) == moves  # nothing claimed yet

    # cancel: nothing happens, the route can be picked again
    cancelled = await click(member, panel(asked, "ttr:cancel:"), "ttr:cancel:")
    assert "nothing was done" in reply_text(cancelled) and len((await player.game()).moves) == moves
    asked = await pick_route(member, room, route.id)

    # another payment from the menu: the confirmation then pays that way, and the claim uses it
    menu = panel(asked, "ttrs:paypick:")
    offered = [o["value"] for o in select_options(menu, "ttrs:paypick:")]
    assert len(offered) == len(option.payments) > 1
    other = offered[-1]
    repicked = await member.select(menu, [other], custom_id=next(c for c in custom_ids(menu) if "paypick" in c))
    confirm_id = next(c for c in custom_ids(panel(repicked, "ttr:claimok:")) if c.startswith("ttr:claimok:"))
    assert confirm_id.endswith(":" + other)
    hand_before = Counter(game.player(name).hand)
    done = await member.click(panel(repicked, "ttr:claimok:"), custom_id=confirm_id)
    assert all_private(done), reply_text(done)
    after = await player.game()
    claim = last_claim(after)
    paid = Counter({c: n for c, n in dict(claim.pay).items() if n})
    assert pay_code(paid) == other
    assert Counter(after.player(name).hand) == hand_before - paid


async def test_claim_with_pay_acts_at_once_and_without_pay_asks(simcord_env: Env) -> None:
    room = make_room(simcord_env, ["alice", "bob"])
    player = await game_under_way(room)
    game, _name, member, option = await until_a_claim_with_choices(player)
    moves = len(game.moves)
    asked = await slash(member, room, "ttr claim", route=str(option.route.id))
    assert "You pay:" in reply_text(asked) and len((await player.game()).moves) == moves
    pay = option.payments[0]
    typed = " ".join(f"{n} {c}" for c, n in pay.items() if n)
    done = await slash(member, room, "ttr claim", route=str(option.route.id), pay=typed)
    assert all_private(done), reply_text(done)
    assert isinstance((await player.game()).moves[moves], Claim)


async def test_with_confirmations_off_buttons_and_menus_act_at_once_and_it_outlives_a_restart(
    simcord_env: Env,
) -> None:
    room = make_room(simcord_env, ["alice", "bob"])
    for member in room.members:
        off = await slash(member, room, "ttr settings", confirmations="off")
        assert all_private(off) and "confirmations: **off**" in reply_text(off)
    await restart(simcord_env)
    shown = await slash(room.members[0], room, "ttr settings")
    assert all_private(shown) and "confirmations: **off**" in reply_text(shown)

    player = await game_under_way(room)
    game, _name, member, option = await until_a_claim_with_choices(player)
    moves = len(game.moves)
    claimed = await pick_route(member, room, option.route.id)
    assert not any(c.startswith("ttr:claimok:") for m in replies(claimed) for c in custom_ids(m))
    if len((await player.game()).moves) == moves:  # a gray route payable in several colours asks how, as before
        menu = panel(claimed, "ttrs:pay:")
        await choose(member, menu, "ttrs:pay:", [select_options(menu, "ttrs:pay:")[0]["value"]])
    assert isinstance((await player.game()).moves[moves], Claim)

    game, _name, member = await mover(player)
    drew = await click(member, room.stage_message(), "ttr:tickets:")
    assert any(c.startswith("ttrs:keep:") for c in custom_ids(panel(drew, "ttrs:keep:")))
    assert isinstance((await player.game()).moves[-1], DrawTickets)

    # turned on again: asked again
    on = await slash(member, room, "ttr settings", confirmations="on")
    assert "confirmations: **on**" in reply_text(on)
    await player.step(await player.game())  # keeps the tickets drawn
    game, _name, member = await mover(player)
    await slash(member, room, "ttr settings", confirmations="on")
    moves = len(game.moves)
    asked = await click(member, room.stage_message(), "ttr:tickets:")
    assert "ttr:ticketsok:" in " ".join(custom_ids(panel(asked, "ttr:ticketsok:")))
    assert len((await player.game()).moves) == moves


# ----- what the autopilot did for you --------------------------------------------------


async def test_the_autopilot_tells_a_timed_out_member_alone_what_it_did_and_which_tickets_it_kept(
    simcord_env: Env,
) -> None:
    room = make_room(simcord_env, ["alice", "bob"])
    player = await game_under_way(room, turn_time="1h", reserve="none", timeout_policy="autopilot")
    game, name, member = await mover(player)
    held = set(game.player(name).tickets)
    typed = await slash(member, room, "ttr tickets")  # drawn; the keep is left to the clock
    assert any(c.startswith("ttrs:keep:") for c in custom_ids(panel(typed, "ttrs:keep:")))
    before = len(dm_texts(room, member))
    await simcord_env.advance_time(61 * MINUTE)

    after = await player.game()
    assert isinstance(after.moves[-1], Keep) or any(isinstance(m, Keep) for m in after.moves[-3:])
    kept = [after.board.tickets[t].label() for t in after.player(name).tickets if t not in held]
    assert kept
    notes = [t for t in dm_texts(room, member)[before:] if "autopilot played for you" in t]
    assert len(notes) == 1, dm_texts(room, member)[before:]
    assert "your time ran out" in notes[0] and all(label in notes[0] for label in kept), notes[0]
    # the others never see which tickets
    other = next(m for m in room.members if m.id != member.id)
    assert not any("autopilot played for you" in t for t in dm_texts(room, other))
    public = "\n".join(message_text(m) for m in room.public_messages())
    assert not any(label in public for label in kept)


async def test_a_seat_handed_to_the_autopilot_hears_of_each_move_made_for_it_and_no_one_else_does(
    simcord_env: Env,
) -> None:
    room = make_room(simcord_env, ["alice", "bob"])
    mods = await moderate(room)
    player = await game_under_way(room, turn_time="1h", reserve="none")
    game, name, member = await mover(player)
    other = next(m for m in room.members if m.id != member.id)
    before = len(dm_texts(room, member))
    await slash(mods.moderator, room, "ttrmod autopilot", player=name, state="on", reason="on holiday")
    after = await player.game()
    made = [m for m in after.moves[len(game.moves) :] if m.player == name]
    assert made
    notes = [t for t in dm_texts(room, member)[before:] if "the autopilot plays your seat" in t]
    assert len(notes) == 1, dm_texts(room, member)[before:]
    assert f"{name} " in notes[0] and "time ran out" not in notes[0]
    # the other player's move leads to the autopilot's next turn for the seat: told again, to its member only
    await draw_two(room, other)
    assert len([t for t in dm_texts(room, member) if "the autopilot plays your seat" in t]) == 2
    assert not any("autopilot plays your seat" in t for t in dm_texts(room, other))
    assert not any("autopilot plays your seat" in message_text(m) for m in room.public_messages())
