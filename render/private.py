"""A player's private view: their cards and tickets, and the tickets' places on the board.

Only `seat`'s hidden information is read here; the rest of the image is the
public board and panel.
"""

from __future__ import annotations

from dataclasses import dataclass

from PIL import Image

from engine import Game
from render import fonts
from render.board import TicketMark
from render.palette import DONE, NOT_DONE, RULE, SOFT_INK, TICKET_MARK
from render.panel import BODY, SMALL, board_card_names
from render.sheet import HEIGHT, Sheet, card
from render.words import ImageWords


@dataclass(frozen=True)
class TicketLine:
    """One ticket as the private view lists it."""

    tag: str  # "1", "2", ... for kept tickets; "A", "B", ... for tickets on offer
    ticket_id: int
    done: bool | None  # None: on offer, not kept yet
    points: int  # what it scores now: its value if done, minus its value (the lowest) if not


def ticket_lines(game: Game, seat: int) -> list[TicketLine]:
    """The viewer's kept tickets with their progress, then any tickets they are choosing from."""
    lines = [
        TicketLine(str(n), ticket_id, done, points)
        for n, (ticket_id, done, points) in enumerate(game.ticket_progress(seat), start=1)
    ]
    offered = game.state.players[seat].offered or []
    for k, ticket_id in enumerate(offered):
        ticket = game.board.tickets[ticket_id]
        lines.append(TicketLine(chr(ord("A") + k), ticket_id, None, ticket.best))
    return lines


def ticket_marks(game: Game, seat: int) -> tuple[TicketMark, ...]:
    marks = []
    for line in ticket_lines(game, seat):
        ticket = game.board.tickets[line.ticket_id]
        ends = tuple(dict.fromkeys([ticket.origin, *(t.name for t in ticket.targets)]))
        marks.append(TicketMark(line.tag, ends, bool(line.done)))
    return tuple(marks)


def hand_block(game: Game, seat: int, width: int, words: ImageWords) -> Image.Image:
    """The viewer's cards, one card per colour held, with the count on it."""
    sheet = Sheet(width)
    board = game.board
    hand = game.state.players[seat].hand
    total = sum(hand.values())
    sheet.write(0, 0, words.hand_heading(total), SMALL, width, bold=True, fill=SOFT_INK)
    w, h, gap = 58, 80, 10
    top = sheet.y + 10
    x = 6
    held = [name for name in board_card_names(board) if hand.get(name, 0) > 0]
    if not held:
        sheet.write(0, top, words.no_cards(), BODY, width, fill=SOFT_INK)
    for name in held:
        if x + w > width:
            x = 6
            top = sheet.y + 34
        card(sheet, x, top, w, h, name, hand[name])
        sheet.write(x + w / 2, top + h + 5, words.card(board.rules, name), 14, w + gap - 2, fill=SOFT_INK, anchor="ma")
        x += w + gap
    return sheet.finish(padding=4)


def tickets_block(game: Game, seat: int, width: int, words: ImageWords) -> Image.Image:
    """The viewer's tickets: tag (as on the board), places, points and done or not yet."""
    lines = ticket_lines(game, seat)
    sheet = Sheet(width, height=max(HEIGHT, 120 + 42 * len(lines)))  # a row is 40 pixels high
    kept = [line for line in lines if line.done is not None]
    offered = [line for line in lines if line.done is None]
    sheet.write(0, 0, words.tickets_heading(game.rules, len(kept)), SMALL, width, bold=True, fill=SOFT_INK)
    if not kept:
        sheet.write(0, sheet.y + 10, words.no_tickets_yet(), BODY, width, fill=SOFT_INK)
    _ticket_rows(sheet, game, kept, width, words)
    if offered:
        heading = words.offer_heading(game.keep_minimum(game.names[seat]))
        sheet.write(0, sheet.y + 16, heading, SMALL, width, bold=True, fill=SOFT_INK)
        _ticket_rows(sheet, game, offered, width, words)
    return sheet.finish(padding=4)


def _ticket_rows(sheet: Sheet, game: Game, lines: list[TicketLine], width: int, words: ImageWords) -> None:
    for line in lines:
        ticket = game.board.tickets[line.ticket_id]
        top = sheet.y + 8
        cy = top + 15
        tag_w = max(30, fonts.text_width(line.tag, 17, True) + 14)
        sheet.pen.rounded_rectangle((0, top + 2, tag_w, top + 28), radius=5, fill=TICKET_MARK)
        sheet.text(tag_w / 2, cy, line.tag, 17, bold=True, fill=(255, 255, 255), anchor="mm")
        if line.done is None:
            status, colour = words.ticket_on_offer(ticket.best), SOFT_INK
        elif line.done:
            status, colour = words.ticket_done(line.points), DONE
        else:
            status, colour = words.ticket_not_done(line.points), NOT_DONE
        status_w = min(width // 2, fonts.text_width(status, SMALL + 1, True) + 8)
        bottom = sheet.write(tag_w + 10, top + 4, words.ticket(ticket), BODY, width - tag_w - 14 - status_w)
        sheet.write(width - 4, cy, status, SMALL + 1, status_w - 4, bold=True, fill=colour, anchor="rm")
        rule = max(top + 32, bottom + 6)
        sheet.pen.line((tag_w + 10, rule, width - 4, rule), fill=RULE, width=1)
        sheet.use(rule)
