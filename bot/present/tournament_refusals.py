"""Why a tournament request (`/ttrtour`) was refused, in words: the sentences of the tournaments' reasons
(`Why`), filled in with the refusal's facts. `bot.present.refusals.refusal_text` says every refusal, these too."""

from __future__ import annotations

from collections.abc import Callable, Mapping

from bot.present.escape import shown
from bot.present.i18n import N_, _
from bot.present.names import map_title_of
from bot.service import Why
from maps import load_board

Facts = Mapping[str, object]

# Messages that are the facts put into words as they are.
TOURNAMENT_TEMPLATES: dict[Why, str] = {
    Why.BAD_SEAT_ORDER: N_("the seat order must name every seated member once, not {value!r}"),
    Why.BAD_TOURNAMENT_NAME: N_("A tournament's name is 1 to {limit} characters long."),
    Why.BAD_ROUNDS: N_("A tournament has {low} to {high} rounds, not {value}."),
    Why.BAD_DEADLINE: N_("A round's deadline is 1 to {high} minutes, not {value}."),
    Why.BAD_FINAL_TABLE: N_("The final table seats {low} to {high} players, not {value}."),
    Why.BAD_CAP: N_("The cap on players is {low} to {high}, not {value}."),
    Why.NO_SUCH_TOURNAMENT: N_("There is no such tournament."),
    Why.NO_SUCH_TABLE: N_("Round {round} has no table {table}."),
    Why.ALREADY_IN_TOURNAMENT: N_("That member is in this tournament already."),
    Why.REGISTRATION_CLOSED: N_("Registration for this tournament is not open."),
    Why.NO_CHECKIN: N_("This tournament has no check-in: start round 1 when registration is closed."),
    Why.CHECKIN_CLOSED: N_("Check-in for this tournament is not open."),
    Why.ROUND_RUNNING: N_("Round {round} is still being played: its tables must finish first."),
    Why.NO_ROUND_RUNNING: N_("No round is being played now."),
    Why.ROUND_HAS_MOVES: N_(
        "Round {round} cannot be paired again: a member has moved in one of its games, or a table is over."
    ),
    Why.ALL_ROUNDS_PLAYED: N_("All {rounds} rounds have been played."),
    Why.TOURNAMENT_CHANGED: N_("The tournament changed meanwhile. Look at it again and try again."),
}


def _bad_map_list(facts: Facts) -> str:
    return _("Give one map for every round, or one map per round ({rounds} maps).").format(
        rounds=facts.get("rounds") or "?"
    )


def _bad_table_size(facts: Facts) -> str:
    title = map_title_of(load_board(str(facts["map"])).rules.title)
    return _("{title} is played by {low} to {high} players, so tables of {value} cannot play it.").format(
        title=title, low=facts["low"], high=facts["high"], value=repr(facts["value"])
    )


def _already_registered(facts: Facts) -> str:
    status = str(facts.get("status", ""))
    if status == "waitlisted":
        return _("You are on this tournament's waiting list already.")
    if status == "checked_in":
        return _("You are checked in already.")
    if status in ("dropped", "disqualified"):
        return _("You are out of this tournament.")
    return _("You are registered for this tournament already.")


def _registration_already(facts: Facts) -> str:
    if facts.get("open"):
        return _("Registration is open already.")
    return _("Registration is closed already.")


def _tournament_is(facts: Facts) -> str:
    status = str(facts.get("status", ""))
    if status == "running" and facts.get("leaving"):
        return _(
            "The tournament is running already, so you cannot leave it yourself: ask one of its moderators to "
            "drop you (`/ttrtour drop`). Your running game then goes on with the autopilot in your seat."
        )
    words = {
        "registration": lambda: _("The tournament is still taking registrations."),
        "checkin": lambda: _("The tournament's check-in is open: start round 1 when the players have checked in."),
        "running": lambda: _("The tournament is running already."),
        "finished": lambda: _("The tournament is over."),
        "cancelled": lambda: _("The tournament was called off."),
    }
    return words.get(status, lambda: _("The tournament cannot do that now."))()


def _too_few_players(facts: Facts) -> str:
    return _("{players} players are too few to play tables of at least {low}.").format(
        players=facts["players"], low=facts["low"]
    )


def _member_named(facts: Facts) -> str | None:
    """The member a refusal is about when it is someone else: their name (escaped) if the front gave it, else
    their mention (shown as their name, pinging nobody: refusals are private and mention nobody); None if the
    refusal is about the member who asked."""
    name = facts.get("name")
    if isinstance(name, str) and name:
        return shown(name)
    user_id = facts.get("user_id")
    if isinstance(user_id, int) and not isinstance(user_id, bool):
        return f"<@{user_id}>"
    return None


def _not_registered(facts: Facts) -> str:
    name = _member_named(facts)
    if name is None:
        return _("You are not registered for this tournament.")
    return _("{name} is not registered in this tournament.").format(name=name)


def _not_active(facts: Facts) -> str:
    name = _member_named(facts)
    if name is None:
        said = _("That player does not play the tournament's rounds now.")
    else:
        said = _("{name} does not play the tournament's rounds now.").format(name=name)
    return " ".join([said, *_out_already(facts)])


def _out_already(facts: Facts) -> list[str]:
    """Why a player is out, if a moderator's sanction (perhaps one sent at the same moment) took them out."""
    status = str(facts.get("status", ""))
    if status == "disqualified":
        return [_("A moderator disqualified them already (perhaps another moderator just now): nothing was changed.")]
    if status != "dropped":
        return []
    out = [_("A moderator dropped them already (perhaps another moderator just now): nothing was changed.")]
    if facts.get("action") == "disqualify":
        out.append(_("To disqualify them instead, lift the drop first with `/ttrtour reinstate`."))
    return out


def _sanctioned(facts: Facts) -> str:
    if str(facts.get("status", "")) == "disqualified":
        return _(
            "A moderator disqualified you from this tournament. That stands until a moderator reinstates you "
            "(`/ttrtour reinstate`): ask one of them."
        )
    return _(
        "A moderator dropped you from this tournament. That stands until a moderator reinstates you "
        "(`/ttrtour reinstate`): ask one of them."
    )


def _not_sanctioned(facts: Facts) -> str:
    name = _member_named(facts) or _("someone")
    return _("{name} is not dropped or disqualified: there is nothing to lift.").format(name=name)


def _substituted(facts: Facts) -> str:
    name = _member_named(facts) or _("someone")
    return _("{name}'s place went to a substitute, who plays it on: they cannot come back.").format(name=name)


def _table_over(facts: Facts) -> str:
    return _("Round {round}, table {table} has no game being played.").format(
        round=facts["round"], table=facts["table"]
    )


TOURNAMENT_WORDED: dict[Why, Callable[[Facts], str]] = {
    Why.BAD_MAP_LIST: _bad_map_list,
    Why.BAD_TABLE_SIZE: _bad_table_size,
    Why.ALREADY_REGISTERED: _already_registered,
    Why.REGISTRATION_ALREADY: _registration_already,
    Why.TOURNAMENT_IS: _tournament_is,
    Why.TOO_FEW_PLAYERS: _too_few_players,
    Why.NOT_REGISTERED: _not_registered,
    Why.NOT_ACTIVE: _not_active,
    Why.TABLE_OVER: _table_over,
    Why.SANCTIONED: _sanctioned,
    Why.NOT_SANCTIONED: _not_sanctioned,
    Why.SUBSTITUTED: _substituted,
}
