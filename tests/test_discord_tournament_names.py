"""Members who choose hostile names play a tournament: nothing visible, or a spreadsheet formula.

Two members whose names hold only invisible characters must be told apart
wherever the tournament names its players (the list of players, the
standings' text and image alt text, the CSV export) and on the leaderboard: each is "member" and
their id. A name that a spreadsheet would read as a formula, at the start
(`=`, fullwidth `＝`) or after a `;` (Swedish and Finnish spreadsheets split
lines there), is text in the CSV.
"""

from __future__ import annotations

import csv
import io
import unicodedata
from dataclasses import replace

import pytest
from discord_harness import all_private, make_room, moderate, replies, reply_text, slash
from simcord import Env, InteractionResult

from bot.store.tournament_rows import TournamentStatus

pytestmark = pytest.mark.parametrize("game_seed", [7])

INVISIBLE = ["\u200b", "\u200d\u2060\u200b"]
FORMULAS = ["x;=1+1", '\uff1dHYPERLINK("http://x.se")']


def ok(result: InteractionResult) -> str:
    assert result.acknowledged and replies(result) and all_private(result), reply_text(result)
    return reply_text(result)


def formula_cells(text: str) -> list[str]:
    """The cells of a CSV text that a spreadsheet splitting at `,` or at `;` would read as a formula."""
    found = []
    for line in text.splitlines():
        for separator in (",", ";"):
            for cell in line.split(separator):
                first = cell.strip('" ')[:1]
                if first and unicodedata.normalize("NFKC", first) in ("=", "+", "-", "@"):
                    found.append(cell)
    return found


async def test_invisible_and_formula_names_in_a_tournament(simcord_env: Env) -> None:
    room = make_room(simcord_env, [*INVISIBLE, *FORMULAS])
    mods = await moderate(room)
    mod = mods.moderator
    service = room.bot.service
    ok(await slash(mod, room, "ttrtour create", name="Cup", rounds=1, map="usa"))
    [info] = await service.tournaments.desk.tournaments(room.guild.id)
    members = room.members[:4]
    settings = replace(info.settings, autopilot=tuple(m.id for m in members), clock=None)
    await service.tournaments.registration.configure_tournament(info.id, mod.id, settings)
    ok(await slash(mod, room, "ttrtour registration", state="open"))
    for member in members:
        assert "registered" in ok(await slash(member, room, "ttrtour join"))
    fallback = [f"member {m.id}" for m in members[:2]]
    listed = ok(await slash(mod, room, "ttrtour info"))
    assert all(name in listed for name in fallback), listed
    ok(await slash(mod, room, "ttrtour startround"))
    info = await service.tournaments.desk.tournament(info.id)
    assert info.status is TournamentStatus.FINISHED, "the autopilot played the one table out"

    asked = await slash(members[0], room, "ttrtour standings")
    standings = ok(asked)
    [image] = [f for m in replies(asked) for f in m.attachments]
    for name in fallback:
        assert name in standings and name in (image.description or ""), (standings, image.description)

    files = {
        f.filename: await f.read() for m in replies(await slash(mod, room, "ttrtour export")) for f in m.attachments
    }
    text = files[f"tournament-{info.id}-standings.csv"].decode()
    names = {int(row["user_id"]): row["display_name"] for row in csv.DictReader(io.StringIO(text))}
    assert [names[m.id] for m in members[:2]] == fallback
    assert names[members[2].id] == "x;'=1+1"
    assert names[members[3].id] == "'" + FORMULAS[1]
    assert formula_cells(text) == []
