"""A seat given to another member through Discord is in the chain whose head the channel shows at the end
(issue 58): the record anyone exports verifies against what the channel showed, lists the change, and the
forgery of the issue (another member in a seat, with a seat change handing it to them) is refused."""

from __future__ import annotations

import copy
import json
import re

from discord_harness import message_text, slash
from simcord import Env

from engine.verify import verify
from tests.test_discord_moderation import moderated_game, mover


async def test_a_replacement_through_discord_is_covered_by_the_head_the_channel_shows(simcord_env: Env) -> None:
    room, mods, player = await moderated_game(simcord_env)
    _, name, old = await mover(player)
    carol = room.add_member("carol")
    await slash(mods.moderator, room, "ttrmod replace", player=name, member=carol, reason="moved away", public="yes")
    game = await player.play()
    assert game.finished
    watcher = room.add_member("watcher")
    reply = (await slash(watcher, room, "ttr export")).response
    assert reply is not None
    record = json.loads(await reply.attachments[0].read())
    texts = [message_text(m) for m in room.public_messages()]
    posted = next(re.search(r"commitment `([0-9a-f]{64})`", t) for t in texts if "commitment `" in t)
    proof = next(re.search(r"seed `([^`]+)`, chain head `([0-9a-f]{64})`", t) for t in texts if "chain head `" in t)
    assert posted is not None and proof is not None
    commitment, head = posted.group(1), proof.group(2)
    verdict = verify(record, posted_commitment=commitment, posted_head=head)
    assert verdict.ok and not verdict.uncovered, verdict.checks
    (change,) = verdict.seat_changes
    assert f"({name}) from member {old.id} to member {carol.id}" in change

    seat = record["players"].index(name)
    forged = copy.deepcopy(record)
    forged["conductor"]["seats"][seat]["user_id"] = watcher.id
    handed = {**record["conductor"]["seat_changes"][0], "from_user_id": carol.id, "to_user_id": watcher.id}
    forged["conductor"]["seat_changes"].append(handed)
    refused = verify(forged, posted_commitment=commitment, posted_head=head)
    assert not refused.ok and len(refused.seat_changes) == 2
    assert "the posted head is the last link of the record's chain" in {c.what for c in refused.checks if not c.ok}
