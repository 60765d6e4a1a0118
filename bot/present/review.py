"""`/ttr review` in words: the progress, the review's text in pages, the chart's words, the refusals.

The data is bot/service/review.py's; every sentence is here or in
bot/present/review_lines.py, in the language being spoken
(bot/present/i18n.py). The figures the summary gives (luck and choices, in
points of each player's chance of winning) are the very strings the chart
draws (`chart_words`), so the two never disagree.
"""

from __future__ import annotations

from datetime import datetime

from bot.present.escape import shown
from bot.present.i18n import _, ngettext
from bot.present.names import map_title_of
from bot.present.review_lines import (
    luck_list,
    move_phrase,
    percent_text,
    player_lines,
    points_text,
    signed,
    turn_line,
)
from bot.service.review import GameReviewed, ReviewedSpot, ReviewProgress, ReviewRefused, ReviewWhy
from maps import load_board
from render.review_chart import ChartBars, ChartWords

MESSAGE_LIMIT = 1900  # a page of the turn list stays under Discord's 2,000 characters
SUMMARY_LIMIT = 2000  # the summary is one message


def progress_text(progress: ReviewProgress | None, game_id: int) -> str:
    if progress is None:
        return _("Reviewing game #{game_id}…").format(game_id=game_id)
    return _("Reviewing game #{game_id}: turn {turn} of {turns}…").format(
        game_id=game_id, turn=max(1, progress.turn), turns=progress.turns
    )


def _turns(spots: tuple[ReviewedSpot, ...]) -> list[list[ReviewedSpot]]:
    """The spots grouped by turn and seat, in order."""
    groups: list[list[ReviewedSpot]] = []
    for spot in spots:
        if groups and (groups[-1][0].number, groups[-1][0].seat) == (spot.number, spot.seat):
            groups[-1].append(spot)
        else:
            groups.append([spot])
    return groups


def _key_numbers(review: GameReviewed) -> set[tuple[int, int]]:
    return {(review.spots[i].number, review.spots[i].seat) for i in review.key_spots}


def review_summary(review: GameReviewed) -> str:
    """The first message: the game, every player's figures (the reader's first) and the reader's costliest
    decisions (how it was computed closes the turn list: `method_note`)."""
    board = load_board(review.map)
    lines = [
        _("**Review of game #{game_id}** ({map})").format(game_id=review.game_id, map=map_title_of(board.rules.title)),
    ]
    seat = review.reader_seat
    if seat is not None:
        mine = [s for s in review.mine() if s.decision and s.not_counted is None and s.weighed]
        same = sum(1 for s in mine if s.same)
        lines.append(
            ngettext(
                "You made {same} of your {count} decision as the expert would.",
                "You made {same} of your {count} decisions as the expert would.",
                len(mine),
            ).format(same=same, count=len(mine))
        )
        me = review.players[seat]
        lines.append(
            _(
                "In points of your chance of winning, the luck of the draw gave you {luck} ({items}) and your choices "
                "{choices} against the expert's."
            ).format(luck=signed(me.luck_total), items=luck_list(board, me), choices=signed(me.choices))
        )
    lines.append("")
    order = sorted(range(len(review.players)), key=lambda i: (i != seat, i))
    for i in order:
        lines += player_lines(board, review, review.players[i])
    keys = ["", _("The decisions that cost most:") if review.key_spots else _("No decision cost anything.")]
    for i in review.key_spots:
        spot = review.spots[i]
        group = [s for s in review.spots if (s.number, s.seat) == (spot.number, spot.seat)]
        keys.append("- " + turn_line(board, review, [s for s in group if s.decision], key=True))
    if review.unweighed:
        lines.append(
            ngettext(
                "The review ran out of time: {count} move at the end is not weighed.",
                "The review ran out of time: {count} moves at the end are not weighed.",
                review.unweighed,
            ).format(count=review.unweighed)
        )
    # many players: the reader's costliest decisions give way (each player's own lines name theirs)
    whole = "\n".join(lines + keys)
    return whole if len(whole) <= SUMMARY_LIMIT else "\n".join(lines)[:SUMMARY_LIMIT]


def method_note(review: GameReviewed) -> str:
    """How the review was computed, closing the turn list."""
    return _(
        "The reference is the expert, the bot's best autopilot, deciding from what the player could see then. "
        "A chance of winning is the share of {worlds} simulated endings won; accuracy is Lichess's formula of "
        "the chance lost at each decision; luck is what was really drawn against a random draw. Estimates, not "
        "certainties."
    ).format(worlds=review.worlds)


def turn_pages(review: GameReviewed) -> list[str]:
    """The reader's turns (every turn for a moderator who did not play), then how the review was computed, in
    messages under Discord's limit."""
    board = load_board(review.map)
    keys = _key_numbers(review)
    heading = _("Turn by turn:")
    pages: list[str] = []
    page = heading
    lines = [turn_line(board, review, g, key=(g[0].number, g[0].seat) in keys) for g in _turns(review.mine())]
    for line in [*lines, "\n" + method_note(review)]:
        if len(page) + 1 + len(line) > MESSAGE_LIMIT:
            pages.append(page)
            page = line.lstrip("\n")
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
    values = tuple((p.luck_total, p.choices) for p in review.players)
    labels = tuple((signed(p.luck_total), signed(p.choices)) for p in review.players)
    figures = "; ".join(
        _("{name}: luck {luck}, choices {choices}").format(name=names[i], luck=luck, choices=choices)
        for i, (luck, choices) in enumerate(labels)
    )
    alt = _(
        "A line chart of each player's chance of winning over the {turns} turns of game #{game_id}; "
        "the key turns marked: {keys}. Won by {winners}. In points of chance: {figures}."
    ).format(turns=review.turns, game_id=review.game_id, keys=keys, winners=", ".join(winners), figures=figures)
    bars = ChartBars(
        title=_("Luck and choices, in points of chance of winning"),
        luck=_("Luck"),
        choices=_("Choices"),
        values=values,
        labels=labels,
    )
    return ChartWords(
        title=title,
        x_axis=_("Turn"),
        y_axis=_("Chance of winning"),
        y_ticks=tuple(percent_text(k / 4) for k in range(5)),
        names=names,
        alt_text=alt,
        bars=bars,
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
    "shown",
    "turn_line",
    "turn_pages",
]
