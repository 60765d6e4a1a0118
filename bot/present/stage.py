"""The channel's stage messages in words: the ticket choice at the start, a stack to place, a turn, the end.

Each message tells first what happened since the last one (its head: notes
and the recap), then whose turn it is, with a mention, and the clock.
"""

from __future__ import annotations

from collections.abc import Callable

from bot.present.escape import shown
from bot.present.i18n import _, map_, ngettext, pgettext
from bot.present.layout import MESSAGE_LIMIT, clip, clip_head
from bot.present.names import map_title_of, names_and, ticket_label
from bot.present.seats import first_player, mention, seat_name, who
from bot.present.ties import tie_sentence
from bot.present.verification import commitment_text, verification_text
from bot.present.words import more_cards_counted, tickets_plural
from bot.service import FinalScores, GameInfo, Must
from bot.service.scores import PlayerScore
from bot.service.views import TableView
from maps import Board, Rules, load_board
from maps.names import symbol_name

HINT_ROUNDS = 2  # how to play a turn is said in each player's first two turns (what is pending mid-turn, always)


def must_text(rules: Rules, must: str) -> str:
    """What a player must do now (a `Must`), as the end of "your turn: ..."."""
    tickets = tickets_plural(rules)
    texts: dict[str, str] = {
        Must.TURN: map_(rules.name, "draw cards, claim a route or draw {tickets}").format(tickets=tickets),
        Must.DRAW: _("draw a second card"),
        Must.KEEP: _("choose {tickets} to keep").format(tickets=tickets),
        Must.TUNNEL: _("pay for the tunnel or give it up"),
        Must.PLACE: _("place a tourist stack"),
    }
    return texts[must]


def pending_text(rules: Rules, table: TableView) -> str:
    """What the player to move must do now, in the middle of their turn (after the first card, tickets drawn,
    a tunnel's cards shown), as the end of "your turn: ..."; at the start of a turn, the start-of-turn line."""
    to_move = table.to_move
    if to_move is None or to_move.must is Must.TURN:
        return must_text(rules, Must.TURN)
    if to_move.must is Must.DRAW:
        return _("draw your second card")
    if to_move.must is Must.KEEP:
        least = to_move.keep_least or 1
        return _("keep {tickets}: choose at least {count} of the ones you drew").format(
            tickets=tickets_plural(rules), count=least
        )
    if to_move.must is Must.TUNNEL and table.tunnel is not None:
        more = more_cards_counted(table.tunnel.surcharge)
        return _("pay {cards} for the tunnel or give it up").format(cards=more)
    return must_text(rules, to_move.must)


def _pending_hint(rules: Rules, must: Must) -> str:
    """How to do what is pending, for a turn message posted again in the middle of a turn."""
    if must is Must.DRAW:
        return _("Take a face-up card or draw from the deck with the buttons below, or use `/ttr draw`.")
    if must is Must.KEEP:
        return _("`/ttr tickets` shows the {tickets} you drew again; `/ttr keep` keeps them by number.").format(
            tickets=tickets_plural(rules)
        )
    if must is Must.TUNNEL:
        return _("Click **Go on with my turn** to pay or give up.")
    return _("Use the buttons below or `/ttr draw`, `/ttr claim`, `/ttr tickets`; `/ttr hand` shows your cards.")


def _with_head(head: str, tail: str) -> str:
    if not head:
        return clip(tail)
    room = MESSAGE_LIMIT - len(tail) - 1
    return clip(clip_head(head, room) + "\n" + tail)


def turn_text(info: GameInfo, table: TableView, clock: str = "") -> str:
    """Whose turn it is (with a mention) and what they must do, how (in their first turns), the clock."""
    rules = load_board(info.map).rules
    to_move = table.to_move
    parts = []
    if to_move is not None:
        going_on = to_move.must is not Must.TURN
        heading = (
            _("**{title} · game #{id} · turn {turn}:** {player}, your turn goes on: {pending}.")
            if going_on
            else _("**{title} · game #{id} · turn {turn}:** {player}, your turn: {pending}.")
        )
        line = heading.format(
            title=map_title_of(info.title),
            id=info.id,
            turn=table.turn + 1,
            player=who(info, to_move.player),
            pending=pending_text(rules, table),
        )
        if table.final_round is not None:
            left = table.final_round.turns_left
            line += " " + ngettext(
                "**Final round:** {count} turn left in the game.",
                "**Final round:** {count} turns left in the game.",
                left,
            ).format(count=left)
        parts.append(line)
        if to_move.must is not Must.TURN or table.turn < HINT_ROUNDS * max(1, len(table.players)):
            parts.append(_pending_hint(rules, to_move.must))  # how to play a turn: in everyone's first turns only
    if clock:
        parts.append(clock)
    return "\n".join(parts)


def turn_content(info: GameInfo, table: TableView, head: str, clock: str = "") -> str:
    """A turn message: what happened since the last one (`head`), whose turn it is (with a mention), the clock."""
    return _with_head(head, turn_text(info, table, clock))


def start_text(info: GameInfo, table: TableView, commitment: str = "") -> str:
    """The first line of the setup stage: the game starts, in this seat order (and the deal's commitment)."""
    seating = ", ".join(shown(seat_name(info, p.player)) for p in table.players)
    text = _("**The {title} game #{id} starts!** Seat order: {seating}.").format(
        title=map_title_of(info.title), id=info.id, seating=seating
    )
    return f"{text}\n{commitment_text(commitment)}" if commitment else text


def setup_content(
    info: GameInfo, table: TableView, start_text: str, head: str = "", clock: str = "", over: bool = False
) -> str:
    """The ticket choice at the start: everyone chooses at once; who still does (`over`: everyone has chosen,
    what comes next)."""
    if over:
        if table.unplaced:
            done = _("Everyone has chosen tickets. Now the free tourist stacks are placed.")
        else:
            done = _("Everyone has chosen. {player} takes the first turn.").format(player=shown(first_player(info)))
        return _with_head(head, f"{start_text}\n{done}")
    waiting = names_and([who(info, w.player) for w in table.waiting_for])
    tickets = tickets_plural(load_board(info.map).rules)
    text = (
        start_text
        + "\n"
        + _(
            "Everyone chooses starting {tickets} at the same time: click **Choose my {tickets}** "
            "(or use `/ttr tickets`). Still choosing: {waiting}."
        ).format(tickets=tickets, waiting=waiting or _("nobody"))
    )
    if clock:
        text += "\n" + clock
    return _with_head(head, text)


def place_text(info: GameInfo, table: TableView, clock: str = "") -> str:
    """Who places a free tourist stack (San Francisco), which are left, the clock."""
    to_move = table.to_move
    assert to_move is not None
    left = ", ".join(symbol_name(s) for s in table.unplaced)
    line = _(
        "**{title} · game #{id}:** {player}, place a tourist stack ({left} left to place): click **Place a stack**."
    ).format(title=map_title_of(info.title), id=info.id, player=who(info, to_move.player), left=left)
    if clock:
        line += "\n" + clock
    return line


def place_content(info: GameInfo, table: TableView, head: str, clock: str = "") -> str:
    """A free tourist stack to place (San Francisco), and who places it."""
    return _with_head(head, place_text(info, table, clock))


def final_content(
    info: GameInfo, head: str, scores: FinalScores, *, early: bool = False, stalemate: bool = False
) -> str:
    """The last message: final scores and winners. `early`: a moderator ended the game, scored as it stood;
    `stalemate`: it ended after a whole round of passes, since nobody could do anything else."""
    line = ", ".join(f"{shown(seat_name(info, r.player))} {r.total}" for r in scores.ranking())
    winners = _(" and ").join(shown(seat_name(info, w)) for w in scores.winners)
    several = len(scores.winners) > 1
    if stalemate and several:
        sentence = _(
            "**{title} · game #{id} is over (everyone passed in turn: nobody could do anything else).** "
            "Final scores: {scores}. **{winners} win!**"
        )
    elif stalemate:
        sentence = _(
            "**{title} · game #{id} is over (everyone passed in turn: nobody could do anything else).** "
            "Final scores: {scores}. **{winners} wins!**"
        )
    elif early and several:
        sentence = _(
            "**{title} · game #{id} is over (ended by a moderator, scored as it stood).** "
            "Final scores: {scores}. **{winners} win!**"
        )
    elif early:
        sentence = _(
            "**{title} · game #{id} is over (ended by a moderator, scored as it stood).** "
            "Final scores: {scores}. **{winners} wins!**"
        )
    elif several:
        sentence = _("**{title} · game #{id} is over.** Final scores: {scores}. **{winners} win!**")
    else:
        sentence = _("**{title} · game #{id} is over.** Final scores: {scores}. **{winners} wins!**")
    text = sentence.format(title=map_title_of(info.title), id=info.id, scores=line, winners=winners)
    if scores.tie is not None:
        text += " " + tie_sentence(scores.tie, load_board(info.map).rules, shown)
    text += " " + _("`/ttr export` gives the game record.")
    proof = verification_text(scores)
    if proof is not None:
        text += "\n" + proof
    return _with_head(head, text)


# The engine's bonus names, as the score breakdown shows them (msgctxt "bonus").
_BONUS_NAMES: dict[str, Callable[[], str]] = {
    "longest": lambda: pgettext("bonus", "longest"),
    "mandala": lambda: pgettext("bonus", "mandala"),
    "merchandise": lambda: pgettext("bonus", "merchandise"),
    "tourists": lambda: pgettext("bonus", "tourists"),
}


def bonus_name(name: str) -> str:
    """A bonus of the score ("longest", "mandala"...), in the language spoken; an unknown one as it is."""
    known = _BONUS_NAMES.get(name)
    return known() if known else name


def breakdown_lines(board: Board, scores: FinalScores) -> list[str]:
    """The score of each player, item by item, with their tickets (revealed at the end)."""
    rules = board.rules
    lines = [_("**Score breakdown**")]
    for r in scores.ranking():
        bonus = ", ".join(f"{bonus_name(name)} +{points}" for name, points in r.bonus.items() if points)
        parts = [
            map_(rules.name, "routes {points}").format(points=r.routes),
            _("{tickets} {points} ({done} done, {failed} failed)").format(
                tickets=tickets_plural(rules), points=f"{r.ticket_points:+d}", done=r.completed, failed=r.failed
            ),
        ]
        if bonus:
            parts.append(bonus)
        if rules.longest_bonus:
            # the path's length in spaces, told apart from the bonus ("longest +10") in every language
            parts.append(ngettext("longest path {count}", "longest path {count}", r.longest).format(count=r.longest))
        member = f" ({mention(r.user_id)})" if r.user_id is not None and r.user_id > 0 else ""
        lines.append(f"**{shown(r.player)}**{member}: {r.total} = " + "; ".join(parts))
        lines.extend(ticket_result_lines(r, board))
    return lines


def ticket_result_lines(score: PlayerScore, where: Board | Rules | None = None) -> list[str]:
    """A player's tickets at the end, done or failed, one line each."""
    lines = []
    for ticket in score.ticket_results:
        mark = "\N{WHITE HEAVY CHECK MARK}" if ticket.done else "\N{CROSS MARK}"
        label = ticket.label if where is None else ticket_label(where, ticket.id)
        lines.append(f"  {mark} {label}: {ticket.points:+d}")
    return lines
