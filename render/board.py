"""The board area of an image: the static layer with the game's state drawn on top."""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from PIL import Image, ImageDraw, ImageStat

from engine import Claim, Game, Pending, TunnelPay
from maps import Board
from render import fonts, pieces, sprites
from render.layout import BoardLayout
from render.palette import INK, LONGEST, TICKET_MARK, player_style
from render.sprites import quantise
from render.static_layer import StaticBoard, stamp_names, static_board
from render.words import ImageWords


@dataclass(frozen=True)
class TicketMark:
    """One of the viewer's tickets, as the private view marks it on the board."""

    tag: str  # as listed in the panel: "1", "2", ... (or "A", "B", ... for tickets on offer)
    ends: tuple[str, ...]  # places, or countries (Switzerland) that stand for their border points
    done: bool


def last_claimed_route(game: Game) -> int | None:
    """The route the last move put on the board, if it did."""
    if not game.moves:
        return None
    move = game.moves[-1]
    if isinstance(move, Claim):
        if game.state.pending is Pending.TUNNEL:
            return None  # the tunnel's surcharge is still to be paid
    elif not (isinstance(move, TunnelPay) and move.pay is not None):
        return None
    routes = game.state.players[game.seat(move.player)].routes
    return routes[-1] if routes else None


def last_move_route(game: Game) -> int | None:
    """The route the last move concerns: the one it placed, or a tunnel still waiting for its surcharge."""
    claimed = last_claimed_route(game)
    if claimed is not None:
        return claimed
    tunnel = game.state.tunnel
    if game.moves and isinstance(game.moves[-1], Claim) and tunnel is not None:
        return tunnel.route
    return None


def draw_board(
    game: Game,
    words: ImageWords,
    highlight: int | None = None,
    longest: Iterable[int] = (),
    tickets: Sequence[TicketMark] = (),
) -> Image.Image:
    """A new RGB image of the board area: static layer, trains, stacks and marks.

    `highlight` is a route drawn with the last-move halo, `longest` routes get
    the longest-path halo, `tickets` are marked for a private view; `words`
    write the note on a board the project designed.
    """
    static = static_board(game.board.name, words=words)
    board, layout = static.board, static.layout
    image = static.image.copy()
    owner = game.state.owner

    for route_id in sorted(set(longest)):
        route = board.routes[route_id]
        for index in range(len(route.spaces)):
            pieces.route_halo(layout, route, index, LONGEST, grow=4.5).paste_on(image)
    if highlight is not None:
        route = board.routes[highlight]
        for index in range(len(route.spaces)):
            pieces.route_halo(layout, route, index).paste_on(image)
    for route_id, seat in sorted(owner.items()):
        route = board.routes[route_id]
        style = player_style(seat)
        for index in range(len(route.spaces)):
            pieces.train(layout, route, index, style).paste_on(image)
        if route.cart:
            pieces.cart_badge(layout, route).paste_on(image)
    stamp_names(image, static)
    if tickets:
        _draw_ticket_rings(image, static, tickets)
    _draw_stacks(image, game, layout)
    if tickets:
        _draw_ticket_tags(image, static, tickets)
    return image


def _draw_stacks(image: Image.Image, game: Game, layout: BoardLayout) -> None:
    """San Francisco's tourist stacks: the symbol on its place, and the tokens left."""
    if not game.state.stacks:
        return
    pen = ImageDraw.Draw(image)
    size = max(14, round(14 * layout.scale))
    for place_name, stack in sorted(game.state.stacks.items()):
        place = game.board.places[place_name]
        badge, (bx, by) = pieces.stack_badge(layout, place, stack.symbol, stack.tokens)
        badge.paste_on(image)
        r = 9.5 * max(1.0, layout.scale)
        sprites.disc(quantise(bx), quantise(by), quantise(r), INK, (255, 255, 255), 1.5).paste_on(image)
        pen.text((bx, by + 0.5), str(stack.tokens), font=fonts.font(size, True), fill=(255, 255, 255), anchor="mm")


def _mark_radius(layout: BoardLayout, board: Board, place: str) -> float:
    if board.places[place].country:
        return 21.0 * layout.scale
    if board.rules.tourists:
        return pieces.stack_radius(layout) + 5
    return layout.city_radius + 6


def _by_end(marks: Sequence[TicketMark]) -> dict[str, list[TicketMark]]:
    by_end: dict[str, list[TicketMark]] = {}
    for mark in marks:
        for end in mark.ends:
            by_end.setdefault(end, []).append(mark)
    return dict(sorted(by_end.items()))


def _draw_ticket_rings(image: Image.Image, static: StaticBoard, marks: Sequence[TicketMark]) -> None:
    """A ring round each of the viewer's ticket places: solid when every ticket there is done."""
    board, layout = static.board, static.layout
    rings: dict[str, bool] = {}
    for end, here in _by_end(marks).items():
        for place_name in board.nodes_of(end):
            rings[place_name] = rings.get(place_name, True) and all(m.done for m in here)
    for place_name, all_done in sorted(rings.items()):
        place = board.places[place_name]
        px, py = layout.to_pixel(place.x, place.y)
        x, y = quantise(px), quantise(py)
        r = quantise(_mark_radius(layout, board, place_name))
        sprites.ring(x, y, r, (255, 255, 255), 6.5).paste_on(image)
        sprites.ring(x, y, r, TICKET_MARK, 4.0, dashed=not all_done).paste_on(image)


def _draw_ticket_tags(image: Image.Image, static: StaticBoard, marks: Sequence[TicketMark]) -> None:
    """The numbers of the tickets (with a tick when done) beside each ticket place or country name."""
    board, layout = static.board, static.layout
    pen = ImageDraw.Draw(image)
    tag_font = fonts.font(16, True)
    for end, here in _by_end(marks).items():
        text = " ".join(f"{m.tag}✓" if m.done else m.tag for m in here)
        left, top, right, bottom = pen.textbbox((0, 0), text, font=tag_font)
        w, h = int(right - left) + 10, int(bottom - top) + 8
        spots: list[tuple[int, int]] = []
        if end in static.countries:
            # one tag under the country's name rather than one at every flag
            box = static.countries[end]
            spots.append((round((box[0] + box[2] - w) / 2), box[3] + 4))
        else:
            for place_name in board.nodes_of(end):
                place = board.places[place_name]
                x, y = layout.to_pixel(place.x, place.y)
                spots.append(_tag_spot(static, x, y, _mark_radius(layout, board, place_name) + 4, w, h))
        for tx, ty in spots:
            pen.rounded_rectangle(
                (tx, ty, tx + w, ty + h), radius=5, fill=TICKET_MARK, outline=(255, 255, 255), width=2
            )
            pen.text((tx + 5 - left, ty + 4 - top), text, font=tag_font, fill=(255, 255, 255))


def _tag_spot(static: StaticBoard, x: float, y: float, distance: float, w: int, h: int) -> tuple[int, int]:
    """The corner beside a ringed place where a ticket tag covers the least."""
    best: tuple[float, tuple[int, int]] | None = None
    for degrees in (-45, 45, 135, -135, 0, 180, 90, -90):
        a = math.radians(degrees)
        ux, uy = math.cos(a), math.sin(a)
        tx = x + ux * distance + (0 if ux > 0.1 else -w if ux < -0.1 else -w / 2)
        ty = y + uy * distance + (0 if uy > 0.1 else -h if uy < -0.1 else -h / 2)
        box = (round(tx), round(ty), round(tx) + w, round(ty) + h)
        if box[0] < 4 or box[1] < 4 or box[2] > static.layout.width - 4 or box[3] > static.layout.height - 4:
            continue
        covered = ImageStat.Stat(static.mask.crop(box)).sum[0] / 255
        if best is None or covered < best[0]:
            best = (covered, (box[0], box[1]))
    return best[1] if best else (round(x), round(y))
