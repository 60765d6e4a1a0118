"""`/ttr review` in Discord: a game played to its end, then reviewed in English, Swedish and Finnish: the progress
edits one private message, which becomes the summary with the chart; the turn list follows, privately."""

from __future__ import annotations

import io
import math

import pytest
from discord_harness import (
    Room,
    all_private,
    attachment,
    make_room,
    moderate,
    replies,
    reply_text,
    restart,
    set_locale,
    slash,
)
from discord_play import Player, open_game
from PIL import Image
from simcord import Env, InteractionResult, MemberActor

from bot.present.escape import shown
from bot.service.review import Reviews
from engine import Phase
from engine.review import ReviewSearch
from engine.review_models import NotCounted

# the bot's own pool of worker processes, a small search: the same review every time, in seconds
SMALL = ReviewSearch(seed="test", work=0, min_worlds=2, max_worlds=2, time_limit=None)


def small_search(env: Env) -> Reviews:
    """The running bot's review service, set to the small search (a restarted bot needs it again); the bot's
    answer waits for the worker processes (started by the first review), so SimCord waits longer for it."""
    env.settle_timeout = 120.0
    cog = env.bot.get_cog("ReviewCog")  # type: ignore[union-attr]
    reviews: Reviews = cog.reviews  # type: ignore[union-attr]
    reviews.search = SMALL
    return reviews


@pytest.fixture
def backend() -> str:
    """SimCord tests run on SQLite only; the store's and the service's own tests cover PostgreSQL."""
    return "sqlite"


def edits(env: Env, since: int) -> list[str]:
    """The texts of the edits of interactions' first answers since request `since`, in order."""
    return [
        str(r.json.get("content") or "")
        for r in env.http_requests[since:]
        if r.method == "PATCH" and r.path.endswith("/messages/@original") and isinstance(r.json, dict)
    ]


async def review(room: Room, member: MemberActor, **options: object) -> tuple[InteractionResult, list[str]]:
    since = len(room.env.http_requests)
    result = await slash(member, room, "ttr review", **options)
    return result, edits(room.env, since)


async def check_chart(result: InteractionResult, alt_start: str) -> None:
    name, data = await attachment(result)
    assert name == "review.png"
    image = Image.open(io.BytesIO(data))
    assert image.format == "PNG" and image.width == 960 and image.height > 500
    described = next(m.attachments[0] for m in replies(result) if m.attachments)
    assert (described.description or "").startswith(alt_start), described.description


async def test_a_finished_game_is_reviewed_in_english_swedish_and_finnish(simcord_env: Env) -> None:
    room = make_room(simcord_env, ["alice", "bertil", "aino"])
    alice, bertil, aino = room.members
    reviews = small_search(simcord_env)
    game_id, _ = await open_game(room, "usa", 3, trains=12)
    running, _ = await review(room, alice, game=game_id)
    assert "Game #1 has not ended by the rules, so there is nothing to review yet." in reply_text(running)
    game = await Player(room, game_id).play()
    assert game.finished

    # a member who did not play is refused, and so is a game that is not there
    stranger = room.add_member("stranger")
    refused, _ = await review(room, stranger, game=game_id)
    assert all_private(refused) and "Only the players of game #1 and moderators can review it." in reply_text(refused)
    nothing, _ = await review(room, stranger)
    assert "You have no finished game in this channel to review" in reply_text(nothing)

    result, progress = await review(room, alice)
    assert result.response is not None and all_private(result)
    assert progress[0] == f"Reviewing game #{game_id}…"
    assert progress[1].startswith(f"Reviewing game #{game_id}: turn 1 of ")
    text = reply_text(result)
    assert text.startswith(f"**Review of game #{game_id}** (USA)"), text
    assert "decisions as the expert would." in text and "**alice (you)**: accuracy " in text
    assert "**bertil**: accuracy " in text and "Turn by turn:" in text
    answer = await reviews.review(game_id, alice.id)  # kept: the review just shown
    keys = answer.key_spots  # her costliest decisions: marked in the summary's list and in the turn list
    assert all(answer.spots[i].seat == answer.reader_seat and answer.spots[i].loss > 0 for i in keys)
    assert ("The decisions that cost most:" if keys else "No decision cost anything.") in text
    assert text.count("🔑 **Turn ") + text.count("🔑 **Opening") == 2 * len(keys)
    assert all(f"🔑 **Turn {answer.spots[i].number}** (alice)" in text for i in keys if answer.spots[i].number)
    assert f"({shown('alice')})" in text and "(bertil)" not in text  # her own turns
    await check_chart(result, "A line chart of each player's chance of winning")
    turns = int(progress[1].split(" of ")[1].rstrip("…"))
    assert turns >= 20
    assert len(progress) >= 3 and progress[-1] == result.response.content  # the same message became the review

    # a moderator who did not play sees every turn, from the review kept
    mods = await moderate(room)
    everyone, progress = await review(room, mods.moderator, game=game_id)
    assert progress[0].startswith("**Review of game #1**")
    assert all(f"({name})" in reply_text(everyone) for name in ("alice", "bertil", "aino"))

    again, progress = await review(room, alice, game=game_id)
    assert progress[0].startswith("**Review of game #1**")  # kept: no progress, at once
    assert reply_text(again) == text

    # Swedish, after a restart (the reviews are kept in memory: computed again)
    await restart(simcord_env)
    small_search(simcord_env)
    set_locale(simcord_env, bertil, "sv-SE")
    result, progress = await review(room, bertil)
    assert progress[0] == f"Går igenom parti #{game_id}…"
    assert progress[1].startswith(f"Går igenom parti #{game_id}: tur 1 av {turns}")
    text = reply_text(result)
    assert text.startswith(f"**Genomgång av parti #{game_id}** (USA)"), text
    assert "Besluten som kostade mest:" in text and "Tur för tur:" in text and "**Tur " in text
    assert "Måttstocken är experten, botens bästa autopilot" in text and "träffsäkerhet" in text
    assert "The expert" not in text and "Turn " not in text
    await check_chart(result, "Ett linjediagram över varje spelares vinstchans")

    # Finnish
    await restart(simcord_env)
    small_search(simcord_env)
    set_locale(simcord_env, aino, "fi")
    result, progress = await review(room, aino, game=game_id)
    assert progress[0] == f"Arvioidaan peliä #{game_id}…"
    assert progress[1].startswith(f"Arvioidaan peliä #{game_id}: vuoro 1/{turns}")
    text = reply_text(result)
    assert text.startswith(f"**Pelin #{game_id} arvio** (USA)"), text
    assert "Eniten maksaneet päätökset:" in text and "Vuoro vuorolta:" in text and "**Vuoro " in text
    assert "Vertailukohta on asiantuntija, botin paras autopilotti" in text and "tarkkuus" in text
    assert "The expert" not in text and "Turn " not in text
    await check_chart(result, "Viivakaavio kunkin pelaajan voittomahdollisuudesta")


async def test_an_away_members_turns_are_marked_and_left_out_of_their_figures(simcord_env: Env) -> None:
    """Bob goes away for a few turns (the autopilot plays his seat), comes back, the game ends; his review marks
    those turns and leaves them out, and his figures are what this test computes from the record's moves (whose,
    and which the autopilot made) and the chances the review gives for each move."""
    room = make_room(simcord_env, ["alice", "bob"])
    _alice, bob = room.members
    reviews = small_search(simcord_env)
    game_id, _ = await open_game(room, "usa", 2, trains=8)
    player = Player(room, game_id)
    while (await player.game()).state.phase is not Phase.PLAY or (await player.game()).to_move().player != "bob":  # type: ignore[union-attr]
        await player.step(await player.game())
    away = await slash(bob, room, "ttr settings", away="2d")
    assert "away: **until <t:" in reply_text(away), reply_text(away)
    for _ in range(3):  # alice's turns; bob's are played at once
        await player.step(await player.game())
        while (await player.game()).to_move().player != "alice":  # type: ignore[union-attr]
            await player.step(await player.game())
    back = await slash(bob, room, "ttr settings", away="none")
    assert "away: **no**" in reply_text(back)
    game = await player.play()
    assert game.finished

    result, _ = await review(room, bob, game=game_id)
    text = reply_text(result)
    assert "**bob (you)**: accuracy " in text and "not counted" in text, text
    answer = await reviews.review(game_id, bob.id)  # the review just shown, kept
    rows = await room.bot.service.store.history.moves(game_id)
    autopilot = {r.index for r in rows if r.actor != "player"}
    bob_seat = game.names.index("bob")
    mine = [i for i in autopilot if game.moves[i].player == "bob"]
    assert len(mine) >= 3
    # computed here: bob's own spots are those of his moves the record says he made himself
    own = [s for s in answer.spots if game.moves[s.index].player == "bob" and s.index not in autopilot and s.weighed]
    marked = [s for s in answer.spots if s.index in autopilot]
    assert marked and all(s.not_counted is not None for s in marked)
    assert all(s.not_counted is None for s in answer.spots if s.index not in autopilot)
    decisions = [s for s in own if s.decision and s.win_played is not None and s.win_expert is not None]
    losses = [0.0 if s.same else max(0.0, 100 * (s.win_expert - s.win_played)) for s in decisions]  # type: ignore[operator]
    accuracy = sum(min(100.0, max(0.0, 103.1668 * math.exp(-0.04354 * x) - 3.1669)) for x in losses) / len(losses)
    choices = sum(0.0 if s.same else 100 * (s.win_played - s.win_expert) for s in decisions)  # type: ignore[operator]
    luck = sum(100 * s.luck for s in own if s.luck is not None)
    turns_away = len({s.number for s in marked if s.seat == bob_seat})
    figures = answer.players[bob_seat]
    assert figures.decisions == len(decisions) and figures.not_counted == turns_away
    assert figures.accuracy == pytest.approx(accuracy)
    assert figures.choices == pytest.approx(choices) and figures.luck_total == pytest.approx(luck)
    # and the words say the same, as the chart's bars do
    minus = "\u2212"

    def whole(points: float) -> str:
        n = round(points)
        return f"+{n}" if n > 0 else f"{minus}{-n}" if n < 0 else "0"

    assert f"**bob (you)**: accuracy {round(accuracy)}% over {len(decisions)} decisions" in text, text
    assert f"- luck {whole(luck)} (" in text and f"; choices {whole(choices)}" in text, text
    assert f"- {turns_away} turn" in text and "played by the autopilot or a plan" in text
    ranked = sorted((s for s in decisions if s.loss > 0), key=lambda s: (-s.loss, s.index))[:3]
    if ranked:
        items = [f"{'the opening' if s.number == 0 else f'turn {s.number}'} ({whole(-100 * s.loss)})" for s in ranked]
        assert f"- costliest decisions: {', '.join(items)}" in text, text
    (described,) = [m.attachments[0] for m in replies(result) if m.attachments]
    assert f"bob: luck {whole(luck)}, choices {whole(choices)}" in (described.description or "")
    pages = "\n".join(m.content for m in replies(result)[1:])
    for number in {s.number for s in marked if s.seat == bob_seat and s.decision}:
        line = next(li for li in pages.splitlines() if li.startswith(f"**Turn {number}** (bob)"))
        assert "played by the autopilot or a plan (not counted)" in line, line


async def test_planned_turns_are_marked_as_planned_and_left_out_of_their_figures(simcord_env: Env) -> None:
    """Bob plans two of his turns with `/ttr plan` (two cards from the deck), they are played for him when they
    come, the game ends; his review marks exactly those moves as planned and leaves them out of his figures."""
    room = make_room(simcord_env, ["alice", "bob"])
    _alice, bob = room.members
    reviews = small_search(simcord_env)
    game_id, _ = await open_game(room, "usa", 2, trains=8)
    player = Player(room, game_id)
    planned_turns = 0
    while planned_turns < 2:
        game = await player.game()
        to_move = game.to_move()
        assert to_move is not None
        if game.state.phase is Phase.PLAY and to_move.player == "alice" and game.state.pending is None:
            plan = await slash(bob, room, "ttr plan", step="deck")
            assert all_private(plan) and "draw two cards from the deck" in reply_text(plan), reply_text(plan)
            before = len(game.moves)
            await player.step(game)  # alice's turn (one or two moves), then bob's plan at once
            while (await player.game()).to_move().player == "alice" and len((await player.game()).moves) < before + 3:  # type: ignore[union-attr]
                await player.step(await player.game())
            planned_turns += 1
        else:
            await player.step(game)
    game = await player.play()
    assert game.finished

    result, _ = await review(room, bob, game=game_id)
    text = reply_text(result)
    assert "**bob (you)**: accuracy " in text and "not counted" in text, text
    answer = await reviews.review(game_id, bob.id)
    rows = await room.bot.service.store.history.moves(game_id)
    planned = {r.index for r in rows if r.actor == "plan"}
    assert len(planned) >= 2 and all(game.moves[i].player == "bob" for i in planned)
    marked = {s.index: s.not_counted for s in answer.spots if s.not_counted is not None}
    assert {i for i, why in marked.items() if why is NotCounted.PLAN} == planned & {s.index for s in answer.spots}
    bob_seat = game.names.index("bob")
    figures = answer.players[bob_seat]
    turns = len({s.number for s in answer.spots if s.index in planned and s.seat == bob_seat})
    assert figures.not_counted == turns
    own = [s for s in answer.spots if s.seat == bob_seat and s.index not in planned and s.weighed and s.decision]
    counted = [s for s in own if s.win_played is not None and s.win_expert is not None]
    assert figures.decisions == len(counted)
