"""Which game a request is about, in words: the refusals when there is none here, and whom a game waits for."""

from __future__ import annotations

from collections.abc import Sequence

from bot.present.escape import shown
from bot.present.i18n import _, ngettext, nmap_
from bot.present.names import map_title_of, names_and, status_word
from bot.present.words import tickets_plural
from bot.service import Must
from maps import Rules


def not_started_text() -> str:
    return _("The game has not started yet: the host starts it with `/ttr start`.")


def no_game_here_text(games: Sequence[tuple[int, int]]) -> str:
    """No game in this channel; `games` are (game id, channel id) of the games the member plays elsewhere."""
    if games:
        where = ", ".join(
            _("#{game_id} in <#{channel_id}>").format(game_id=game_id, channel_id=channel_id)
            for game_id, channel_id in games
        )
        return _("There is no game in this channel. Your games: {games}; use the commands there.").format(games=where)
    return _("There is no game in this channel. Open one with `/ttr new`.")


def played_elsewhere_text(game_id: int, channel_id: int) -> str:
    return _("Game #{game_id} is played in <#{channel_id}>; act there.").format(game_id=game_id, channel_id=channel_id)


def never_played_here_text() -> str:
    return _("No game was ever played in this channel. Give the game's number with `game`.")


def no_such_game_text(game_id: int) -> str:
    return _("There is no game #{game_id}.").format(game_id=game_id)


def not_on_this_server_text(game_id: int) -> str:
    return _("There is no game #{game_id} on this server.").format(game_id=game_id)


def not_a_player_text(game_id: int) -> str:
    return _(
        "You are not playing in game #{game_id}, so you cannot act in it. "
        "Watch along, or play the next one (`/ttr new`, `/ttr join`)."
    ).format(game_id=game_id)


def game_over_text() -> str:
    return _("The game is over.")


def waiting_for_text(rules: Rules, players: Sequence[str], must: str) -> str:
    """Whom the game waits for (names escaped), and for what."""
    names = names_and([shown(p) for p in players])
    tickets = tickets_plural(rules)
    # whole sentences: a language may say the deed otherwise after "waiting for X to" than as an order, and its verb
    # agrees with how many are waited for (Finnish "Cecilia valitsee", "Björn ja Cecilia valitsevat")
    n = len(players)
    texts = {
        Must.TURN: lambda: nmap_(
            rules.name,
            "Now waiting for {players} to draw cards, claim a route or draw {tickets}.",
            "Now waiting for {players} to draw cards, claim a route or draw {tickets}.",
            n,
        ),
        Must.DRAW: lambda: ngettext(
            "Now waiting for {players} to draw a second card.", "Now waiting for {players} to draw a second card.", n
        ),
        Must.KEEP: lambda: ngettext(
            "Now waiting for {players} to choose {tickets} to keep.",
            "Now waiting for {players} to choose {tickets} to keep.",
            n,
        ),
        Must.TUNNEL: lambda: ngettext(
            "Now waiting for {players} to pay for the tunnel or give it up.",
            "Now waiting for {players} to pay for the tunnel or give it up.",
            n,
        ),
        Must.PLACE: lambda: ngettext(
            "Now waiting for {players} to place a tourist stack.",
            "Now waiting for {players} to place a tourist stack.",
            n,
        ),
    }
    return texts[Must(must)]().format(players=names, tickets=tickets)


def not_your_turn_text(waiting: str) -> str:
    """A move refused out of turn, with `waiting` (whom the game waits for, or that it is over)."""
    return _("It is not your turn. {waiting}").format(waiting=waiting)


# the `game` option's description (commands' words are translated with the command tree)
GAME_OPTION = "A game number of this server (default: this channel's game, or its last one after the end)"


def no_scores_text(game_id: int) -> str:
    return _("Game #{game_id} ended without a result: there are no final tickets to show.").format(game_id=game_id)


def game_choice_name(game_id: int, title: str, status: str) -> str:
    """How a game is offered in the `game` option's list: "#12 · USA · finished"."""
    return _("#{game_id} · {title} · {status}").format(
        game_id=game_id, title=map_title_of(title), status=status_word(status)
    )
