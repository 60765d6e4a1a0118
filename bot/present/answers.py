"""Private answers to commands and clicks: what the member who asked is told (the channel hears it otherwise)."""

from __future__ import annotations

from collections.abc import Sequence

from bot.present.escape import quoted
from bot.present.i18n import _
from bot.present.names import status_word


def opened_text(game_id: int) -> str:
    return _("You opened game #{game_id} and hold the first seat. When everyone has joined, `/ttr start`.").format(
        game_id=game_id
    )


def joined_text(game_id: int) -> str:
    return _("You joined game #{game_id}. You will be mentioned when it starts.").format(game_id=game_id)


def you_left_text(game_id: int) -> str:
    """The member who asked left the game."""
    return _("You left game #{game_id}.").format(game_id=game_id)


def left_text(name: str, game_id: int) -> str:
    """An autopilot player `name` was removed from the game."""
    return _("{name} left game #{game_id}.").format(name=name, game_id=game_id)


def cancelled_text(game_id: int) -> str:
    return _("Game #{game_id} is cancelled.").format(game_id=game_id)


def started_text(game_id: int, panel: str) -> str:
    """The game started, with what the host must decide now."""
    return _("Game #{game_id} has started. {panel}").format(game_id=game_id, panel=panel)


def bot_seated_text(game_id: int) -> str:
    return _("An autopilot player takes a seat in game #{game_id}.").format(game_id=game_id)


def no_bot_to_remove_text(game_id: int) -> str:
    return _("Game #{game_id} has no autopilot player to remove.").format(game_id=game_id)


def no_such_bot_text(name: str, bots: Sequence[str]) -> str:
    return _("There is no autopilot player {name} in this game; there are: {bots}.").format(
        name=quoted(name), bots=", ".join(bots)
    )


def stale_text(panel: str) -> str:
    """A move from a message shown before the game moved on, with what the member must decide now."""
    return _("That was shown before the game moved on, so nothing was done. {panel}").format(panel=panel)


def not_drawable_text(text: str, draws: Sequence[str]) -> str:
    """A typed draw that names no card open now; `draws` are the card names that can be drawn."""
    if not draws:
        return _('{text} is not a card you can draw. Choose "deck" or a face-up card: nothing.').format(
            text=quoted(text)
        )
    return _('{text} is not a card you can draw. Choose "deck" or a face-up card: {cards}.').format(
        text=quoted(text), cards=", ".join(draws)
    )


def no_tickets_offered_text(title: str = "") -> str:
    """`title`: the map's (Amsterdam's tickets are contracts)."""
    if title == "Amsterdam":
        return _("You have no contracts to choose from now. `/ttr tickets` draws some on your turn.")
    return _("You have no tickets to choose from now. `/ttr tickets` draws some on your turn.")


def board_caption(game_id: int) -> str:
    return _("The board of game #{game_id}:").format(game_id=game_id)


def no_card_there_text() -> str:
    return _("There is no card there.")


def out_of_date_text(link: str | None) -> str:
    """A click on an old message; `link` is the address of the current one, if it is known."""
    if link:
        return _("This message is out of date, so nothing was done. Use the latest one: {link}").format(link=link)
    return _("This message is out of date, so nothing was done. Use the latest one.")


def no_longer_used_text() -> str:
    return _("This control is no longer in use. Use the latest turn message or the `/ttr` commands.")


def stage_failed_text() -> str:
    """The member's move was made, but the channel's new stage message could not be posted."""
    return _(
        "Your move counts, but I could not post the new turn message in the channel. "
        "I will try again in a moment; `/ttr status` shows the game meanwhile."
    )


def file_caption(what: str, game_id: int, status: str) -> str:
    """A file sent privately: `what` is "record" or "log"."""
    if what == "log":
        text = _("The log of game #{game_id} ({status}).")
    else:
        text = _("The record of game #{game_id} ({status}).")
    return text.format(game_id=game_id, status=status_word(status))


def deck_choice() -> str:
    """The deck among the cards a member can draw."""
    return _("Deck (a blind draw)")


def nothing_yet_text(*, started: bool) -> str:
    """The history of a game in which nothing has happened."""
    return _("Nothing has happened yet.") if started else _("Nothing has happened yet: the game has not started.")


def apology_text() -> str:
    """An unexpected failure."""
    return _("Sorry, something went wrong on my side. It has been logged; please try again in a moment.")


def too_fast_text(seconds: int) -> str:
    """A member over the command rate: nothing was done."""
    return _(
        "You are sending commands too fast; wait {seconds} s and try again. Nothing was done with this one."
    ).format(seconds=seconds)
