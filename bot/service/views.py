"""What a game looks like to everyone (`PublicView`) and to one player (`PrivateView`).

Frozen dataclasses every front end (Discord, CLI, tests) reads alike. The
public view is built only from what the table shows: counts of hands and
tickets, never their contents, and nothing of the decks' order; after the
end, tickets are revealed with the scores.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from bot.service.clock import ClockSettings
from bot.service.kinds import Must
from bot.service.models import GameInfo
from bot.service.scores import FinalScores, TicketLabel, final_scores, ticket_labels
from bot.store import GameStatus
from engine import Game, Phase
from maps import WILD


@dataclass(frozen=True)
class GameOptions:
    max_players: int
    trains: int | None  # the trains house rule, None for the map's number
    clock: ClockSettings


@dataclass(frozen=True)
class LobbySeat:
    user_id: int
    display_name: str
    host: bool


@dataclass(frozen=True)
class PlayerView:
    """One seat as everyone sees it."""

    seat: int
    player: str
    user_id: int | None
    display_name: str | None
    trains: int
    cards: int
    tickets: int
    choosing_from: int | None  # tickets offered and not chosen yet
    routes: tuple[int, ...]
    route_points: int
    setup_done: bool
    autopilot: bool
    merchandise: int | None  # Amsterdam only
    souvenirs: tuple[str, ...] | None  # San Francisco only
    longest: int | None = None  # the length of the player's longest continuous path now, on maps that score it


@dataclass(frozen=True)
class SeatRef:
    player: str
    user_id: int | None


@dataclass(frozen=True)
class ToMove:
    player: str
    user_id: int | None
    must: Must
    keep_least: int | None = None  # while they choose tickets to keep: how many at least


@dataclass(frozen=True)
class TunnelView:
    route: int
    laid: Mapping[str, int]
    revealed: tuple[str, ...]
    surcharge: int


@dataclass(frozen=True)
class FinalRound:
    turns_left: int
    started_by: str | None


@dataclass(frozen=True)
class StackView:
    at: str
    symbol: str
    tokens: int


@dataclass(frozen=True)
class TableView:
    """The table of a game that has been dealt."""

    players: tuple[PlayerView, ...]
    phase: Phase
    turn: int
    to_move: ToMove | None
    waiting_for: tuple[SeatRef, ...]
    face_up: tuple[str | None, ...]
    deck: int
    discard: int
    ticket_deck: int
    tunnel: TunnelView | None
    final_round: FinalRound | None
    finished: bool  # over: ended by the rules, or by a moderator (scored or abandoned)
    stalemate: bool  # ended by the rules after a whole round of passes: nobody could do anything else
    merchandise_left: int | None  # Amsterdam only
    stacks: tuple[StackView, ...] | None  # San Francisco only
    unplaced: tuple[str, ...]  # the free tourist stacks still to place before the first turn (San Francisco)
    scores: FinalScores | None  # once the game is over


@dataclass(frozen=True)
class PublicView:
    game_id: int
    guild_id: int
    channel_id: int
    map: str
    title: str
    status: GameStatus
    version: int
    host_user_id: int
    options: GameOptions
    lobby: tuple[LobbySeat, ...]  # who has joined, before the deal (empty after it)
    table: TableView | None  # None before the deal


@dataclass(frozen=True)
class OwnTicket:
    id: int
    label: str
    done: bool
    points: int  # won if done, lost if the game ended now


@dataclass(frozen=True)
class ClaimChoice:
    route: int
    label: str
    payments: tuple[Mapping[str, int], ...]
    souvenirs: tuple[str, ...]  # ends whose souvenir the player may take (two: they must say which)


@dataclass(frozen=True)
class PlaceChoice:
    symbols: tuple[str, ...]
    places: tuple[str, ...]


@dataclass(frozen=True)
class Options:
    """The moves open to a player now, in the shapes a front end builds buttons from."""

    place: PlaceChoice | None = None  # San Francisco's stacks before the first turn; then nothing else is open
    card_draws: tuple[str, ...] = ()
    draw_tickets: bool = False
    claims: tuple[ClaimChoice, ...] = ()
    tunnel: tuple[Mapping[str, int], ...] = ()
    keep: bool = False
    can_pass: bool = False


@dataclass(frozen=True)
class PrivateView:
    """What only one player may see, with what they may do now."""

    game_id: int
    version: int
    status: GameStatus
    seat: int
    player: str
    trains: int
    hand: Mapping[str, int]
    tickets: tuple[OwnTicket, ...]
    offered: tuple[TicketLabel, ...] | None
    keep_minimum: int | None
    your_move: bool
    must: Must | None
    options: Options | None


def public_view(info: GameInfo, game: Game | None) -> PublicView:
    lobby = (
        ()
        if game is not None
        else tuple(LobbySeat(s.user_id, s.display_name, s.user_id == info.host_user_id) for s in info.seats)
    )
    return PublicView(
        game_id=info.id,
        guild_id=info.guild_id,
        channel_id=info.channel_id,
        map=info.map,
        title=info.title,
        status=info.status,
        version=info.version,
        host_user_id=info.host_user_id,
        options=GameOptions(info.max_players, info.trains, info.clock),
        lobby=lobby,
        table=None if game is None else _table(info, game),
    )


def _player(info: GameInfo, game: Game, seat: int) -> PlayerView:
    p = game.state.players[seat]
    rules = game.rules
    sitter = info.seats[seat] if seat < len(info.seats) else None
    return PlayerView(
        seat=seat,
        player=p.name,
        user_id=None if sitter is None else sitter.user_id,
        display_name=None if sitter is None else sitter.display_name,
        trains=p.trains,
        cards=p.cards,
        tickets=len(p.tickets),
        choosing_from=None if p.offered is None else len(p.offered),
        routes=tuple(p.routes),
        route_points=p.route_points,
        setup_done=p.setup_done,
        autopilot=sitter is not None and sitter.autopilot,
        merchandise=p.merchandise if rules.merchandise else None,
        souvenirs=tuple(p.souvenirs) if rules.tourists else None,
        longest=game.longest(seat)[0] if rules.longest_bonus else None,
    )


def _to_move(info: GameInfo, game: Game, player: str, must: Must) -> ToMove:
    least = game.keep_minimum(player) if must is Must.KEEP else None
    return ToMove(player, info.user_of(player), must, keep_least=least)


def _table(info: GameInfo, game: Game) -> TableView:
    s = game.state
    rules = game.rules
    # a moderator may end a game before the rules do: then nobody is to move, and it is scored as it stands
    ended_early = info.status is GameStatus.FINISHED and not game.finished
    # abandoned by a moderator (cancelled after the deal): nobody is to move either, and there are no scores
    stopped = not info.status.active and not game.finished
    to_move = None if stopped else game.to_move()
    over = game.finished or ended_early
    return TableView(
        players=tuple(_player(info, game, seat) for seat in range(len(s.players))),
        phase=s.phase,
        turn=s.turn,
        to_move=None if to_move is None else _to_move(info, game, to_move.player, Must(to_move.must)),
        waiting_for=() if stopped else tuple(SeatRef(n, info.user_of(n)) for n in game.waiting_for()),
        face_up=tuple(s.piles.face_up),
        deck=len(s.piles.deck),
        discard=len(s.piles.discard),
        ticket_deck=len(s.ticket_deck),
        tunnel=None
        if s.tunnel is None
        else TunnelView(s.tunnel.route, dict(s.tunnel.laid), tuple(s.tunnel.revealed), s.tunnel.surcharge),
        final_round=None
        if s.final_turns is None
        else FinalRound(s.final_turns, None if s.final_trigger is None else game.names[s.final_trigger]),
        finished=over or stopped,
        stalemate=game.stalemate,
        merchandise_left=s.merchandise_left if rules.merchandise else None,
        stacks=tuple(StackView(at, st.symbol, st.tokens) for at, st in s.stacks.items()) if rules.tourists else None,
        unplaced=tuple(game.unplaced_symbols()),
        scores=final_scores(info, game, reveal_seed=True) if over else None,  # by the rules, or scored: final
    )


def private_view(info: GameInfo, game: Game, seat: int) -> PrivateView:
    """What only the player in `seat` may see, with what they may do now."""
    board, rules = game.board, game.rules
    p = game.state.players[seat]
    name = p.name
    order = [*rules.colors, WILD]
    progress = {t: (done, points) for t, done, points in game.ticket_progress(seat)}
    waiting = name in game.waiting_for() and info.status.active  # nothing is open once a game has ended
    to_move = game.to_move()
    must = None
    if waiting and to_move is not None:
        # while tickets are chosen, everyone who has not chosen yet may act, not only to_move
        must = Must.KEEP if game.state.phase is Phase.SETUP_KEEP else Must(to_move.must)
    return PrivateView(
        game_id=info.id,
        version=info.version,
        status=info.status,
        seat=seat,
        player=name,
        trains=p.trains,
        hand={card: p.hand[card] for card in order if p.hand[card] > 0},
        tickets=tuple(OwnTicket(t, board.tickets[t].label(), *progress[t]) for t in p.tickets),
        offered=None if p.offered is None else ticket_labels(board, p.offered),
        keep_minimum=None if p.offered is None else game.keep_minimum(name),
        your_move=waiting,
        must=must,
        options=_options(game, name) if waiting else None,
    )


def _options(game: Game, name: str) -> Options:
    s = game.state
    if s.phase is Phase.SETUP_PLACE:
        places = sorted(p for p in game.board.places if p not in s.stacks)
        return Options(place=PlaceChoice(tuple(game.unplaced_symbols()), tuple(places)))
    claims = tuple(
        ClaimChoice(
            route=opt.route.id,
            label=opt.route.label(),
            payments=tuple(dict(sorted(pay.items())) for pay in opt.payments),
            souvenirs=tuple(opt.souvenirs),
        )
        for opt in game.claim_options(name)
    )
    return Options(
        card_draws=tuple(game.card_draws(name)),
        draw_tickets=game.can_draw_tickets(name),
        claims=claims,
        tunnel=tuple(dict(sorted(c.items())) for c in game.tunnel_options(name)),
        keep=game.player(name).offered is not None,
        can_pass=s.phase is Phase.PLAY and s.pending is None and not game.has_action(name),
    )
