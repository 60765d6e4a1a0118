"""The review's small pieces of words: numbers as the reader writes them, a move as a noun phrase, one turn's
line and one player's figures (bot/present/review.py puts them together).

A move is named as a short noun phrase ("a card from the deck", "the route
Denver - Omaha (red, 4)"), so that the same words serve the move played and
the expert's, and two moves shown alike are the same move. Chances of winning
are in points of the player's own chance (0 to 100), signed where they are a
change ("+4", "−12"), as the chart writes them.
"""

from __future__ import annotations

from collections.abc import Sequence

from bot.present.escape import shown
from bot.present.i18n import _, current_language, map_, ngettext, pgettext
from bot.present.names import ticket_label
from bot.present.suggestions import route_label
from bot.present.words import card_name, tickets_counted, tickets_plural
from bot.service.kinds import Language
from bot.service.review import Chance, GameReviewed, MoveKind, PlayerReview, ReviewedMove, ReviewedSpot
from engine.review_figures import grade
from maps import Board

MINUS = "\u2212"


def _number(value: float) -> str:
    """A number with one decimal as the reader writes it ("3.5", "3,5")."""
    text = f"{value:.1f}"
    return text if current_language() is Language.EN else text.replace(".", ",")


def points_text(value: float) -> str:
    """ "3.5 points", "1 point", "3,5 poäng", "3,5 pistettä"."""
    rounded = round(abs(value), 1)
    if rounded == int(rounded):
        count = int(rounded)
        return ngettext("{count} point", "{count} points", count).format(count=count)
    return pgettext("decimal", "{count} points").format(count=_number(rounded))


def percent_text(chance: float) -> str:
    """ "42%", "42 %" (Swedish and Finnish put a space before the sign)."""
    return pgettext("percent", "{value}%").format(value=round(chance * 100))


def signed(points: float) -> str:
    """A change in points of a chance, whole: "+4", "−12", "0" (the same in every language, as on the chart)."""
    whole = round(points)
    if whole > 0:
        return f"+{whole}"
    return f"{MINUS}{-whole}" if whole < 0 else "0"


def move_phrase(board: Board, move: ReviewedMove) -> str:
    """A move as a noun phrase: "a card from the deck", "the face-up card: red", "the route ..."."""
    rules = board.rules
    if move.kind is MoveKind.DECK:
        return _("a card from the deck")
    if move.kind is MoveKind.FACE_UP and move.card is not None:
        return _("the face-up card: {card}").format(card=card_name(rules, move.card))
    if move.kind is MoveKind.TICKETS:
        return _("{tickets} to choose from").format(tickets=tickets_counted(rules, rules.draw_tickets))
    if move.kind is MoveKind.CLAIM and move.route is not None:
        return map_(rules.name, "the route {route}").format(route=route_label(board.routes[move.route]))
    if move.kind is MoveKind.KEEP:
        labels = " / ".join(ticket_label(board, t) for t in move.tickets if 0 <= t < len(board.tickets))
        return _("keeping {tickets}").format(tickets=labels)
    if move.kind is MoveKind.PASS:
        return _("passing")
    return _("another move")


def chance_word(board: Board, chance: Chance) -> str:
    """What a kind of luck is called in a list: "the deck", "face-up cards", "tickets drawn", "the opening deal"."""
    if chance is Chance.DECK:
        return _("the deck")
    if chance is Chance.FACE_UP:
        return _("face-up cards")
    if chance is Chance.TICKETS:
        return _("{tickets} drawn").format(tickets=tickets_plural(board.rules))
    return _("the opening deal")


def grade_word(loss_points: float) -> str | None:
    found = grade(loss_points)
    if found == "blunder":
        return _("a blunder")
    if found == "mistake":
        return _("a mistake")
    if found == "inaccuracy":
        return _("an inaccuracy")
    return None


def luck_list(board: Board, player: PlayerReview) -> str:
    """ "the deck −12, face-up cards +1" (the kinds the player met)."""
    items = [
        _("{what} {points}").format(what=chance_word(board, kind), points=signed(value)) for kind, value in player.luck
    ]
    return ", ".join(items) if items else _("nothing drawn")


def decision_text(board: Board, spot: ReviewedSpot) -> str:
    """A decision: what was played, the expert's move, the chances after each and the grade."""
    played = move_phrase(board, spot.played)
    if spot.not_counted is not None:
        return _("{played}, played by the autopilot or a plan (not counted)").format(played=played)
    if spot.same:
        if spot.win_played is None:
            return _("{played}, as the expert would").format(played=played)
        return _("{played}, as the expert would (chance of winning {chance})").format(
            played=played, chance=percent_text(spot.win_played)
        )
    expert = move_phrase(board, spot.expert)
    if not spot.weighed or spot.win_played is None or spot.win_expert is None:
        return _("{played}; the expert: {expert} (not weighed: the review ran out of time)").format(
            played=played, expert=expert
        )
    change = 100 * (spot.win_played - spot.win_expert)
    text = _("{played}; the expert: {expert}. Chance of winning {played_chance} instead of {expert_chance} ({change})")
    text = text.format(
        played=played,
        expert=expert,
        played_chance=percent_text(spot.win_played),
        expert_chance=percent_text(spot.win_expert),
        change=signed(change),
    )
    word = grade_word(-change)
    return _("{text}: {grade}").format(text=text, grade=word) if word else text


def turn_line(board: Board, review: GameReviewed, spots: Sequence[ReviewedSpot], key: bool = False) -> str:
    """One turn of one player: its decisions and the luck of what it drew."""
    first = spots[0]
    who = shown(review.names[first.seat])
    parts = [decision_text(board, s) for s in spots if s.decision]
    luck = [s for s in spots if s.chance is not None and s.luck is not None and s.not_counted is None]
    if luck:
        total = 100 * sum(s.luck or 0.0 for s in luck)
        parts.append(_("luck of the draw {points}").format(points=signed(total)))
    if not parts:
        parts.append(move_phrase(board, first.played))
    mark = "🔑 " if key else ""
    if first.number == 0:
        return _("{mark}**Opening** ({who}): {what}.").format(mark=mark, who=who, what="; ".join(parts))
    return _("{mark}**Turn {turn}** ({who}): {what}.").format(
        mark=mark, turn=first.number, who=who, what="; ".join(parts)
    )


def player_lines(board: Board, review: GameReviewed, player: PlayerReview) -> list[str]:
    """A player's figures: accuracy and grades, then luck and choices in points of their chance of winning."""
    name = shown(review.names[player.seat])
    if player.seat == review.reader_seat:
        name = _("{name} (you)").format(name=name)
    if player.accuracy is None:
        head = _("**{name}**: no decision of their own weighed").format(name=name)
    else:
        head = ngettext(
            "**{name}**: accuracy {accuracy} over {count} decision",
            "**{name}**: accuracy {accuracy} over {count} decisions",
            player.decisions,
        ).format(name=name, accuracy=percent_text(player.accuracy / 100), count=player.decisions)
        grades = [
            ngettext("{count} inaccuracy", "{count} inaccuracies", player.inaccuracies).format(
                count=player.inaccuracies
            ),
            ngettext("{count} mistake", "{count} mistakes", player.mistakes).format(count=player.mistakes),
            ngettext("{count} blunder", "{count} blunders", player.blunders).format(count=player.blunders),
        ]
        head += " · " + ", ".join(grades)
    lines = [head]
    lines.append(
        _("- luck {luck} ({items}); choices {choices}").format(
            luck=signed(player.luck_total), items=luck_list(board, player), choices=signed(player.choices)
        )
    )
    if player.costliest:
        items = []
        for i in player.costliest:
            spot = review.spots[i]
            points = signed(-100 * spot.loss)
            if spot.number == 0:
                items.append(_("the opening ({points})").format(points=points))
            else:
                items.append(_("turn {turn} ({points})").format(turn=spot.number, points=points))
        lines.append(_("- costliest decisions: {items}").format(items=", ".join(items)))
    if player.not_counted:
        lines.append(
            ngettext(
                "- {count} turn played by the autopilot or a plan is not counted",
                "- {count} turns played by the autopilot or a plan are not counted",
                player.not_counted,
            ).format(count=player.not_counted)
        )
    return lines


__all__ = [
    "MINUS",
    "chance_word",
    "decision_text",
    "grade_word",
    "luck_list",
    "move_phrase",
    "percent_text",
    "player_lines",
    "points_text",
    "signed",
    "turn_line",
]
