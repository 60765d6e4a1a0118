"""Typed errors: each refusal names its kind and carries its facts as fields.

A `GameError` carries a `Refusal`: one small frozen dataclass per kind of
refusal, with the facts it speaks of (places, colours, counts, cards, player
names, and for the words of a map its `MapNames`, found again by its id).

Who acts on a refusal reads its class and fields; nobody parses its text. The
words a player reads are never these: the bot words every kind from its fields
in the reader's language, English included, from its catalogues
(`bot/present/rule_errors.py`). `str()` of a refusal is the record's plain
English for the command line (`python -m bot replay`, `verify`), whose output
stays as it is, and for logs; `repr()` is its class and fields.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from maps import Rules


@dataclass(frozen=True)
class MapNames:
    """The map a refusal speaks of: its id (`maps.MAP_NAMES`), its title and its names for the wild card, a ticket
    and the pieces."""

    name: str
    title: str
    wild: str
    ticket: str
    piece: str

    @staticmethod
    def of(rules: Rules) -> MapNames:
        return MapNames(rules.name, rules.title, rules.wild_name, rules.ticket_name, rules.piece_name)

    @property
    def wilds(self) -> str:
        """The wild card's name, plural, in English."""
        return "locomotives" if self.wild == "locomotive" else f"{self.wild}s"


@dataclass(frozen=True)
class Refusal:
    """Why a move (or a game's setup) is refused: `kind` names the sentence, the fields are its facts."""

    kind: ClassVar[str]

    def __str__(self) -> str:
        raise NotImplementedError


# ----- claims -----------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class NotAPlace(Refusal):
    kind = "not_a_place"
    place: str  # as typed

    def __str__(self) -> str:
        return f"'{self.place}' is not a place on this map"


@dataclass(frozen=True)
class NoRoute(Refusal):
    kind = "no_route"
    a: str
    b: str

    def __str__(self) -> str:
        return f"there is no route between {self.a} and {self.b}"


@dataclass(frozen=True)
class NotRouteColour(Refusal):
    kind = "not_route_colour"
    colour: str  # as typed

    def __str__(self) -> str:
        return f"'{self.colour}' is not a route colour on this map"


@dataclass(frozen=True)
class NoColourRoute(Refusal):
    kind = "no_colour_route"
    colour: str
    a: str
    b: str

    def __str__(self) -> str:
        return f"there is no {self.colour} route between {self.a} and {self.b}"


@dataclass(frozen=True)
class AlreadyClaimed(Refusal):
    kind = "already_claimed"
    a: str
    b: str
    colour: str

    def __str__(self) -> str:
        return f"{self.a} - {self.b} ({self.colour}) is already claimed"


@dataclass(frozen=True)
class OwnOtherTrack(Refusal):
    kind = "own_other_track"
    a: str
    b: str

    def __str__(self) -> str:
        return f"you already own the other track of {self.a} - {self.b}; nobody may own both"


@dataclass(frozen=True)
class OtherTrackTaken(Refusal):
    kind = "other_track_taken"
    a: str
    b: str
    count: int  # the players from which both tracks of a double route are used

    def __str__(self) -> str:
        return (
            f"the other track of {self.a} - {self.b} is taken, and with fewer than "
            f"{self.count} players only one track of a double route is used"
        )


@dataclass(frozen=True)
class SeveralTracks(Refusal):
    kind = "several_tracks"
    a: str
    b: str
    colours: tuple[str, ...]  # of the free tracks

    def __str__(self) -> str:
        return f"{self.a} - {self.b} has several free tracks ({' and '.join(self.colours)}): say which with its colour"


@dataclass(frozen=True)
class TooFewPieces(Refusal):
    kind = "too_few_pieces"
    a: str
    b: str
    length: int
    player: str
    left: int
    map: MapNames

    def __str__(self) -> str:
        return f"{self.a} - {self.b} needs {self.length} {self.map.piece}; {self.player} has {self.left} left"


# ----- card draws -------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class PilesEmpty(Refusal):
    kind = "piles_empty"

    def __str__(self) -> str:
        return "the deck and the discard pile are empty: take a face-up card instead"


@dataclass(frozen=True)
class NotACardToDraw(Refusal):
    kind = "not_a_card_draw"
    card: str  # as typed
    choices: tuple[str, ...]  # the face-up cards that may be drawn
    map: MapNames

    def __str__(self) -> str:
        return f"'{self.card}' is not a card on this map: draw \"deck\" or one of {', '.join(self.choices)}"


@dataclass(frozen=True)
class NotFaceUp(Refusal):
    kind = "not_face_up"
    card: str
    row: tuple[str, ...]  # the face-up cards, left to right
    map: MapNames

    def __str__(self) -> str:
        return f"there is no face-up {self.card} card; the row shows {', '.join(self.row) or 'nothing'}"


@dataclass(frozen=True)
class WildSecond(Refusal):
    kind = "wild_second"
    map: MapNames

    def __str__(self) -> str:
        return f"a face-up {self.map.wild} may not be the second card"


# ----- payments -------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class NotACardToPay(Refusal):
    kind = "not_a_card_pay"
    card: str  # as typed
    cards: tuple[str, ...]  # the map's cards
    map: MapNames

    def __str__(self) -> str:
        return f"'{self.card}' is not a card on this map; the cards are {', '.join(self.cards)}"


@dataclass(frozen=True)
class HoldOnly(Refusal):
    kind = "hold_only"
    count: int
    card: str
    have: int
    map: MapNames

    def __str__(self) -> str:
        s = "s" if self.have != 1 else ""
        return f"you pay {self.count} {self.card} but hold only {self.have} {self.card} card{s}"


@dataclass(frozen=True)
class TakesCards(Refusal):
    kind = "takes_cards"
    a: str
    b: str
    length: int
    total: int  # paid

    def __str__(self) -> str:
        return f"{self.a} - {self.b} takes {self.length} cards; you paid {self.total}"


@dataclass(frozen=True)
class OneColour(Refusal):
    kind = "one_colour"
    colours: tuple[str, ...]  # paid, sorted
    map: MapNames

    def __str__(self) -> str:
        return f"pay with one colour (plus {self.map.wilds}), not {' and '.join(self.colours)}"


@dataclass(frozen=True)
class WildsTunnelsOnly(Refusal):
    kind = "wilds_tunnels_only"
    map: MapNames

    def __str__(self) -> str:
        return f"{self.map.wilds} may be played only on tunnels on this map"


@dataclass(frozen=True)
class WrongColour(Refusal):
    kind = "wrong_colour"
    a: str
    b: str
    colour: str  # of the route
    paid: str  # the colour paid
    map: MapNames

    def __str__(self) -> str:
        return f"{self.a} - {self.b} is {self.colour}: pay {self.colour} cards, not {self.paid}"


# ----- tickets --------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class TicketsEmpty(Refusal):
    kind = "tickets_empty"
    map: MapNames

    def __str__(self) -> str:
        return f"the {self.map.ticket} deck is empty: draw cards or claim a route"


@dataclass(frozen=True)
class NotOffered(Refusal):
    kind = "not_offered"
    ticket: str  # as the move names it
    player: str
    map: MapNames

    def __str__(self) -> str:
        return f"{self.ticket} is not among the {self.map.ticket}s offered to {self.player}"


@dataclass(frozen=True)
class KeepLeast(Refusal):
    kind = "keep_least"
    player: str
    least: int
    offered: int
    map: MapNames

    def __str__(self) -> str:
        return f"{self.player} must keep at least {self.least} of the {self.offered} {self.map.ticket}s offered"


# ----- turns ----------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class GameOver(Refusal):
    kind = "game_over"

    def __str__(self) -> str:
        return "the game is over; no more moves can be made"


@dataclass(frozen=True)
class MayNotPass(Refusal):
    kind = "may_not_pass"
    player: str

    def __str__(self) -> str:
        return f"{self.player} may not pass: a legal action exists"


@dataclass(frozen=True)
class NotAPlayer(Refusal):
    kind = "not_a_player"
    player: str  # as typed

    def __str__(self) -> str:
        return f"'{self.player}' is not a player in this game"


@dataclass(frozen=True)
class SetupTickets(Refusal):
    kind = "setup_tickets"
    players: tuple[str, ...]  # who have still to choose
    map: MapNames

    def __str__(self) -> str:
        return f"the game is still being set up: first {', '.join(self.players)} must choose tickets"


@dataclass(frozen=True)
class AlreadyChosen(Refusal):
    kind = "already_chosen"
    player: str
    map: MapNames

    def __str__(self) -> str:
        return f"{self.player} has already chosen starting tickets"


@dataclass(frozen=True)
class NotYourTurn(Refusal):
    kind = "not_your_turn"
    current: str  # who is to move
    player: str

    def __str__(self) -> str:
        return f"it is {self.current}'s turn, not {self.player}'s"


@dataclass(frozen=True)
class MustTurn(Refusal):
    kind = "must_turn"
    player: str
    map: MapNames

    def __str__(self) -> str:
        return f"{self.player} must take a turn (draw cards, claim a route or draw tickets) now"


@dataclass(frozen=True)
class MustSecond(Refusal):
    kind = "must_second"
    player: str
    map: MapNames

    def __str__(self) -> str:
        return f"{self.player} must draw a second card now"


@dataclass(frozen=True)
class MustKeep(Refusal):
    kind = "must_keep"
    player: str
    map: MapNames

    def __str__(self) -> str:
        return f"{self.player} must choose which drawn tickets to keep now"


@dataclass(frozen=True)
class MustTunnel(Refusal):
    kind = "must_tunnel"
    player: str
    map: MapNames

    def __str__(self) -> str:
        return f"{self.player} must pay the tunnel surcharge or give the tunnel up now"


# ----- the maps' extra rules ------------------------------------------------------------------------------------


@dataclass(frozen=True)
class FerryNeeds(Refusal):
    kind = "ferry_needs"
    count: int  # wilds
    map: MapNames

    def __str__(self) -> str:
        return f"this ferry needs {self.count} {self.map.wild}(s)"


@dataclass(frozen=True)
class SouvenirsOnlySF(Refusal):
    kind = "souvenirs_sf"

    def __str__(self) -> str:
        return "souvenirs exist only on the San Francisco map"


@dataclass(frozen=True)
class SetupStack(Refusal):
    kind = "setup_stack"
    player: str  # who places the next stack

    def __str__(self) -> str:
        return f"the game is still being set up: {self.player} must place a tourist stack"


@dataclass(frozen=True)
class StackTurn(Refusal):
    kind = "stack_turn"
    placer: str
    player: str

    def __str__(self) -> str:
        return f"{self.placer} places the next tourist stack, not {self.player}"


@dataclass(frozen=True)
class NotAStack(Refusal):
    kind = "not_a_stack"
    symbol: str  # as typed
    left: tuple[str, ...]  # the symbols still to place

    def __str__(self) -> str:
        return f"'{self.symbol}' is not a stack left to place; left: {', '.join(self.left)}"


@dataclass(frozen=True)
class HoldsStack(Refusal):
    kind = "holds_stack"
    place: str

    def __str__(self) -> str:
        return f"{self.place} already holds a stack; choose a place without one"


@dataclass(frozen=True)
class NotAnEnd(Refusal):
    kind = "not_an_end"
    place: str  # as typed
    a: str
    b: str

    def __str__(self) -> str:
        return f"{self.place} is not an end of {self.a} - {self.b}"


@dataclass(frozen=True)
class NoToken(Refusal):
    kind = "no_token"
    player: str
    place: str

    def __str__(self) -> str:
        return f"no token {self.player} could take at {self.place}"


@dataclass(frozen=True)
class BothTokens(Refusal):
    kind = "both_tokens"
    a: str
    b: str
    player: str

    def __str__(self) -> str:
        return f"both {self.a} and {self.b} hold a token {self.player} can take: say which with 'souvenir'"


@dataclass(frozen=True)
class SurchargeCount(Refusal):
    kind = "surcharge_count"
    count: int  # asked for
    total: int  # paid

    def __str__(self) -> str:
        return f"the tunnel asks for exactly {self.count} more card(s); you paid {self.total}"


@dataclass(frozen=True)
class SurchargeCards(Refusal):
    kind = "surcharge_cards"
    colour: str | None  # the tunnel's colour as paid; None: wilds only
    wrong: tuple[str, ...]  # the cards paid that may not be
    map: MapNames

    def __str__(self) -> str:
        what = self.map.wilds if self.colour is None else f"{self.colour} or {self.map.wilds}"
        return f"the tunnel surcharge must be paid in {what}, not {', '.join(self.wrong)}"


# ----- a game's setup -------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class BadNames(Refusal):
    kind = "bad_names"

    def __str__(self) -> str:
        return "player names must be unique and not empty"


@dataclass(frozen=True)
class PlayerCount(Refusal):
    kind = "player_count"
    least: int
    most: int
    count: int
    map: MapNames

    def __str__(self) -> str:
        return f"{self.map.title} is played by {self.least} to {self.most} players, not {self.count}"


@dataclass(frozen=True)
class TrainsNotANumber(Refusal):
    kind = "trains_not_a_number"
    value: str  # what was given, as Python writes it

    def __str__(self) -> str:
        return f"the trains option must be a whole number, not {self.value}"


@dataclass(frozen=True)
class TrainsOutOfRange(Refusal):
    kind = "trains_out_of_range"
    least: int
    most: int
    trains: int

    def __str__(self) -> str:
        return f"the trains option must be from {self.least} to {self.most}, not {self.trains}"


@dataclass(frozen=True)
class CardCount:
    """One card of a deck that is not the map's: how many it has and how many the map's has."""

    card: str
    have: int
    want: int


@dataclass(frozen=True)
class NotTheCardDeck(Refusal):
    kind = "not_the_card_deck"
    differences: tuple[CardCount, ...]  # the cards whose counts differ, by name
    map: MapNames

    def __str__(self) -> str:
        parts = ", ".join(f"{d.have} {d.card} instead of {d.want}" for d in self.differences) or "different cards"
        return f"the card deck is not the {self.map.title} deck ({parts})"


@dataclass(frozen=True)
class NotTheTicketDeck(Refusal):
    kind = "not_the_ticket_deck"
    map: MapNames

    def __str__(self) -> str:
        return f"the ticket deck is not the {self.map.title} ticket deck"


# ----- the record form of a move (engine/moves.py) --------------------------------------------------------------


@dataclass(frozen=True)
class NotAText(Refusal):
    kind = "not_a_text"
    what: str  # the field
    value: str  # what was given, as Python writes it

    def __str__(self) -> str:
        return f"{self.what} must be a non-empty text, not {self.value}"


@dataclass(frozen=True)
class NotACount(Refusal):
    kind = "not_a_count"
    card: str  # as the record names it
    value: str  # as Python writes it

    def __str__(self) -> str:
        return f"the count of {self.card} must be a whole number of cards, not {self.value}"


@dataclass(frozen=True)
class NotCardCounts(Refusal):
    kind = "not_card_counts"
    what: str  # the key

    def __str__(self) -> str:
        return f"'{self.what}' must be an object of card: count, like {{\"red\": 3}}"


@dataclass(frozen=True)
class BadTicket(Refusal):
    kind = "bad_ticket"
    value: str  # as Python writes it

    def __str__(self) -> str:
        return f"a ticket is written [A, B] or [ORIGIN, [COUNTRY, ...]], not {self.value}"


@dataclass(frozen=True)
class NotAnObject(Refusal):
    kind = "not_an_object"
    value: str  # as Python writes it

    def __str__(self) -> str:
        return f"a move must be an object, not {self.value}"


@dataclass(frozen=True)
class ActionCount(Refusal):
    kind = "action_count"
    actions: tuple[str, ...]  # all there are
    found: tuple[str, ...]  # in this move

    def __str__(self) -> str:
        found = list(self.found) or "none"
        return f"a move needs exactly one of {', '.join(self.actions)}; this one has {found}"


@dataclass(frozen=True)
class UnknownKeys(Refusal):
    kind = "unknown_keys"
    action: str
    keys: tuple[str, ...]

    def __str__(self) -> str:
        return f"unknown key(s) in a {self.action} move: {', '.join(self.keys)}"


@dataclass(frozen=True)
class KeepNotAList(Refusal):
    kind = "keep_not_a_list"

    def __str__(self) -> str:
        return "'keep' must be a list of tickets"


@dataclass(frozen=True)
class ClaimPlaces(Refusal):
    kind = "claim_places"

    def __str__(self) -> str:
        return '\'claim\' must name the route\'s two places, like ["Denver", "Omaha"]'


@dataclass(frozen=True)
class ClaimNeedsPay(Refusal):
    kind = "claim_needs_pay"

    def __str__(self) -> str:
        return "a claim needs 'pay', the cards spent, like {\"red\": 3}"


@dataclass(frozen=True)
class PlaceShape(Refusal):
    kind = "place_shape"

    def __str__(self) -> str:
        return '\'place\' must be {"symbol": S, "at": PLACE}'


@dataclass(frozen=True)
class PassNotTrue(Refusal):
    kind = "pass_not_true"

    def __str__(self) -> str:
        return "'pass' must be true"


def refusal_kinds() -> tuple[type[Refusal], ...]:
    """Every kind of refusal, in the order above."""
    return tuple(Refusal.__subclasses__())


# ----- the errors ------------------------------------------------------------------------------------------------


class GameError(ValueError):
    """A move that cannot be made; `refusal` says why and what would work (`str()`: the record's English)."""

    def __init__(self, refusal: Refusal) -> None:
        super().__init__(refusal)
        self.refusal = refusal

    def __str__(self) -> str:
        return str(self.refusal)


class NotYourTurnError(GameError):
    """Someone other than the player to move tried to act."""


class IllegalMoveError(GameError):
    """A well-formed move that the rules do not allow now."""


class AmbiguousMoveError(IllegalMoveError):
    """A move that could mean more than one thing (which track of a double route?)."""


class InvalidMoveError(GameError):
    """A move that is malformed: unknown keys, wrong types, unknown names."""


class RecordError(ValueError):
    """A game record that cannot be played at all (unknown map, bad deck, players)."""


class MoveError(ValueError):
    """Replaying a record stopped at move `index` (0-based) for `reason`."""

    def __init__(self, index: int, reason: GameError) -> None:
        self.index = index
        self.reason = reason
        super().__init__(f"move {index}: {reason}")
