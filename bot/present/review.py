"""`/ttr review` in words: the progress, the review's text in pages, the chart's words, the refusals.

The data is bot/service/review.py's; every sentence is here, in the language
being spoken (bot/present/i18n.py). A move is named as a short noun phrase
("a card from the deck", "the route Denver - Omaha (red, 4)"), so that the
same words serve the move played and the expert's.
"""

from __future__ import annotations

from datetime import datetime

from bot.present.escape import shown
from bot.present.i18n import _, current_language, map_, ngettext, pgettext
from bot.present.names import map_title_of
from bot.present.suggestions import route_label
from bot.present.words import card_name, tickets_counted
from bot.service.kinds import Language
from bot.service.review import (
    GameReviewed,
    MoveKind,
    ReviewedMove,
    ReviewedTurn,
    ReviewProgress,
    ReviewRefused,
    ReviewWhy,
)
from maps import Board, load_board
from render.review_chart import ChartWords

MESSAGE_LIMIT = 1900  # a page of the turn list stays under Discord's 2,000 characters


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
        return map_(rules.title, "the route {route}").format(route=route_label(board.routes[move.route]))
    if move.kind is MoveKind.PASS:
        return _("passing")
    return _("another move")


def progress_text(progress: ReviewProgress | None, game_id: int) -> str:
    if progress is None:
        return _("Reviewing game #{game_id}…").format(game_id=game_id)
    return _("Reviewing game #{game_id}: turn {turn} of {turns}…").format(
        game_id=game_id, turn=progress.turn, turns=progress.turns
    )


def turn_line(board: Board, review: GameReviewed, turn: ReviewedTurn) -> str:
    """One turn of the list: what was played, the expert's move and what the difference was worth."""
    played = move_phrase(board, turn.played)
    who = shown(review.names[turn.seat])
    mark = "🔑 " if turn.number in review.key_turns else ""
    if turn.same:
        return _("{mark}**Turn {turn}** ({who}): {played}, as the expert would.").format(
            mark=mark, turn=turn.number, who=who, played=played
        )
    suggested = move_phrase(board, turn.suggested)
    if not turn.weighed:
        worth = _("not weighed: the review ran out of time")
    elif turn.loss > 0.05:
        worth = _("the expert's move was worth {points} more").format(points=points_text(turn.loss))
    elif turn.loss < -0.05:
        worth = _("the move played was worth {points} more").format(points=points_text(-turn.loss))
    else:
        worth = _("both were worth the same")
    return _("{mark}**Turn {turn}** ({who}): {played}. The expert: {suggested}; {worth}.").format(
        mark=mark, turn=turn.number, who=who, played=played, suggested=suggested, worth=worth
    )


def review_summary(review: GameReviewed) -> str:
    """The first message: the game, the reader's overall figures, the key turns and how it was computed."""
    board = load_board(review.map)
    lines = [
        _("**Review of game #{game_id}** ({map})").format(game_id=review.game_id, map=map_title_of(board.rules.title)),
    ]
    mine = review.mine()
    same = sum(1 for t in mine if t.same)
    cost = sum(max(0.0, t.loss) for t in mine)
    if review.reader_seat is not None:
        lines.append(
            ngettext(
                "You played {same} of your {count} turn as the expert would.",
                "You played {same} of your {count} turns as the expert would.",
                len(mine),
            ).format(same=same, count=len(mine))
        )
        lines.append(_("Where you played otherwise, your moves cost {points} in all.").format(points=points_text(cost)))
    else:
        lines.append(
            ngettext(
                "{same} of the game's {count} turn went as the expert would have played.",
                "{same} of the game's {count} turns went as the expert would have played.",
                len(mine),
            ).format(same=same, count=len(mine))
        )
    lines.append("")
    lines.append(_("The turns that mattered most:"))
    by_number = {t.number: t for t in review.turns}
    for number in review.key_turns:
        lines.append("- " + turn_line(board, review, by_number[number]))
    if review.unweighed:
        lines.append(
            ngettext(
                "The review ran out of time: {count} turn at the end is not weighed.",
                "The review ran out of time: {count} turns at the end are not weighed.",
                review.unweighed,
            ).format(count=review.unweighed)
        )
    lines.append("")
    lines.append(
        _(
            "The expert is the strong autopilot, from what the player could see then. A move's worth is the final "
            "score margin it led to in {worlds} simulated endings; the chances of winning come from endings played "
            "from the real position. Estimates, not certainties."
        ).format(worlds=review.worlds)
    )
    return "\n".join(lines)


def turn_pages(review: GameReviewed) -> list[str]:
    """The reader's turns (every turn for a moderator who did not play), in messages under Discord's limit."""
    board = load_board(review.map)
    heading = _("Turn by turn:")
    pages: list[str] = []
    page = heading
    for turn in review.mine():
        line = turn_line(board, review, turn)
        if len(page) + 1 + len(line) > MESSAGE_LIMIT:
            pages.append(page)
            page = line
        else:
            page += "\n" + line
    pages.append(page)
    return pages


def chart_words(review: GameReviewed) -> ChartWords:
    board = load_board(review.map)
    title = _("Chances of winning, game #{game_id} ({map})").format(
        game_id=review.game_id, map=map_title_of(board.rules.title)
    )
    names = tuple(review.names)
    winners = [names[i] for i, c in enumerate(review.chances[-1]) if c > 0]
    keys = ", ".join(str(n) for n in review.key_turns)
    alt = _(
        "A line chart of each player's chance of winning over the {turns} turns of game #{game_id}; "
        "the key turns marked: {keys}. Won by {winners}."
    ).format(turns=len(review.turns), game_id=review.game_id, keys=keys, winners=", ".join(winners))
    return ChartWords(
        title=title,
        x_axis=_("Turn"),
        y_axis=_("Chance of winning"),
        y_ticks=tuple(percent_text(k / 4) for k in range(5)),
        names=names,
        alt_text=alt,
    )


def _time(moment: object) -> str:
    return f"<t:{int(moment.timestamp())}:R>" if isinstance(moment, datetime) else str(moment)


def review_refusal_text(error: ReviewRefused) -> str:
    facts = error.facts
    game_id = facts.get("game_id", "?")
    why = error.why
    if why is ReviewWhy.NO_GAME:
        return _("You have no finished game in this channel to review. Name one with `game`.")
    if why is ReviewWhy.NO_SUCH_GAME:
        return _("There is no game #{game_id} in this server.").format(game_id=game_id)
    if why is ReviewWhy.NOT_FINISHED:
        return _("Game #{game_id} has not ended by the rules, so there is nothing to review yet.").format(
            game_id=game_id
        )
    if why is ReviewWhy.NOT_FINAL:
        return _(
            "Game #{game_id} was ended by a moderator and can still be reopened: it can be reviewed once that end "
            "is final."
        ).format(game_id=game_id)
    if why is ReviewWhy.NOT_A_PLAYER:
        return _("Only the players of game #{game_id} and moderators can review it.").format(game_id=game_id)
    if why is ReviewWhy.RUNNING:
        return _("A review of yours is already running; wait for it to finish.")
    limit = int(facts.get("limit", 0))
    return ngettext(
        "You can start {count} review an hour; you can start the next one {when}.",
        "You can start {count} reviews an hour; you can start the next one {when}.",
        limit,
    ).format(count=limit, when=_time(facts.get("retry_at")))


__all__ = [
    "chart_words",
    "move_phrase",
    "percent_text",
    "points_text",
    "progress_text",
    "review_refusal_text",
    "review_summary",
    "turn_line",
    "turn_pages",
]
