"""The options of the `/ttrmod` commands, and the seat a moderator names."""

from __future__ import annotations

from discord import app_commands

from bot.cogs.common import MAX_CHOICES
from bot.present.mod_answers import autopilot_label, no_such_player_text
from bot.service import GameInfo
from bot.service.checks import MAX_REASON
from bot.views.replies import Refusal

Reason = app_commands.Range[str, 1, MAX_REASON]
ON_OFF = [
    app_commands.Choice(name="on: the autopilot plays this seat", value="on"),
    app_commands.Choice(name="off: give the seat back to its member", value="off"),
]
YES_NO = [
    app_commands.Choice(name="yes: score the game as it stands, with winners", value="yes"),
    app_commands.Choice(name="no: abandon it without a result", value="no"),
]
PUBLIC_CHOICES = [
    app_commands.Choice(name="yes: post the reason in the game's channel too", value="yes"),
    app_commands.Choice(name="no: the moderators' log and the audit only", value="no"),
]
WHY = "Why (always stored in the audit log and posted to the moderators' log)"
PUBLIC = "Post the reason in the game's channel too? (default no: the moderators' log and the audit only)"


def is_public(public: str | None) -> bool:
    """The moderator chose to post the reason in the game's channel."""
    return public == "yes"


def seat_of(info: GameInfo, text: str) -> int:
    """The seat a moderator named: the player's name (what the autocomplete sends), the member's name or mention."""
    wanted = " ".join(text.split())
    folded = wanted.casefold()
    for s in info.seats:
        if s.seat is None or s.player is None:
            continue
        mentions = {f"<@{s.user_id}>", f"<@!{s.user_id}>", str(s.user_id)}
        if folded in (s.player.casefold(), s.display_name.casefold()) or wanted in mentions:
            return s.seat
    raise Refusal(no_such_player_text(text, info.id, [s.player for s in info.seats if s.player]))


def player_choices(info: GameInfo, current: str) -> list[app_commands.Choice[str]]:
    """The players of the game whose label holds what was typed (the value is the player's name)."""
    typed = current.casefold().strip()
    choices = []
    for s in info.seats:
        if s.player is None:
            continue
        label = s.player if s.display_name == s.player else f"{s.player} ({s.display_name})"
        if s.autopilot:
            label = autopilot_label(label)
        if typed in label.casefold():
            choices.append(app_commands.Choice(name=label[:100], value=s.player[:100]))
    return choices[:MAX_CHOICES]
