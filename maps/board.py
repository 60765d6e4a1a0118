"""What a board is: places, routes, tickets and the map's rule numbers."""

from __future__ import annotations

from dataclasses import dataclass, field

from maps.names import fold

WILD = "locomotive"
GRAY = "gray"


@dataclass(frozen=True)
class Space:
    """One train space as drawn: its centre and rotation in degrees."""

    x: float
    y: float
    angle: float


@dataclass(frozen=True)
class Place:
    name: str
    x: float
    y: float
    aliases: tuple[str, ...] = ()
    country: str | None = None  # set on Switzerland's border points
    lat: float | None = None
    lon: float | None = None


@dataclass(frozen=True)
class Route:
    id: int  # position in the board's route list; stable across the project
    a: str
    b: str
    length: int
    color: str
    double_index: int | None
    ferries: int  # spaces that must be paid with a wild
    tunnel: bool
    cart: bool  # Amsterdam: carries a merchandise cart symbol
    spaces: tuple[Space, ...]
    track: int | None = None  # 1 or 2 on a double whose two tracks look alike (so the label tells them apart)

    @property
    def ends(self) -> tuple[str, str]:
        return (self.a, self.b)

    def other_end(self, place: str) -> str:
        return self.b if place == self.a else self.a

    def kind(self) -> tuple[str, int, bool, int, bool]:
        """What makes two parallel routes differ for a player."""
        return (self.color, self.length, self.tunnel, self.ferries, self.cart)

    def label(self) -> str:
        extra = []
        if self.tunnel:
            extra.append("tunnel")
        if self.ferries:
            extra.append(f"ferry x{self.ferries}")
        if self.track is not None:
            extra.append(f"track {self.track}/2")
        tail = f", {', '.join(extra)}" if extra else ""
        return f"{self.a} - {self.b} ({self.color}, {self.length}{tail})"


@dataclass(frozen=True)
class Target:
    """One destination of a ticket: a place or a country, and its value."""

    name: str
    points: int


@dataclass(frozen=True)
class Ticket:
    """A ticket from `origin` to one of its targets.

    A plain ticket has one target; a Switzerland country ticket lists several
    and scores the best connection made, or loses the lowest value.
    """

    id: int
    origin: str
    targets: tuple[Target, ...]

    @property
    def is_country_ticket(self) -> bool:
        return len(self.targets) > 1

    @property
    def key(self) -> tuple[str, frozenset[str]]:
        """Equal keys name interchangeable ticket cards."""
        if self.is_country_ticket:
            return (self.origin, frozenset(t.name for t in self.targets))
        return ("", frozenset((self.origin, self.targets[0].name)))

    @property
    def best(self) -> int:
        return max(t.points for t in self.targets)

    @property
    def worst(self) -> int:
        return min(t.points for t in self.targets)

    def label(self) -> str:
        if self.is_country_ticket:
            dests = ", ".join(f"{t.name} {t.points}" for t in self.targets)
            return f"{self.origin} to {dests}"
        return f"{self.origin} - {self.targets[0].name} ({self.targets[0].points})"

    def ref(self) -> list[object]:
        """The ticket reference used in game records."""
        if self.is_country_ticket:
            return [self.origin, [t.name for t in self.targets]]
        return [self.origin, self.targets[0].name]


@dataclass(frozen=True)
class MerchandiseRules:
    cards: int
    bonus: dict[int, tuple[int, ...]]  # player count -> points by rank


@dataclass(frozen=True)
class TouristRules:
    stack_size: dict[int, int]  # player count -> tokens per stack
    bonus: dict[int, int]  # distinct symbols owned -> points
    symbols: tuple[tuple[str, str | None], ...]  # (symbol, fixed home or None)

    @property
    def fixed(self) -> tuple[tuple[str, str], ...]:
        return tuple((s, h) for s, h in self.symbols if h is not None)

    @property
    def placed(self) -> tuple[str, ...]:
        return tuple(s for s, h in self.symbols if h is None)


@dataclass(frozen=True)
class Rules:
    name: str  # the map's id (one of MAP_NAMES), as the board's
    title: str
    min_players: int
    max_players: int
    trains: int
    piece_name: str
    both_doubles_from: int
    colors: tuple[str, ...]
    per_color: int
    wilds: int
    wild_name: str
    starting_hand: int
    initial_deal: int
    initial_keep: int
    draw_tickets: int
    draw_keep: int
    returned_tickets_removed: bool
    route_points: dict[int, int]
    longest_bonus: int
    end_game_trains: int
    faceup_wild_ends_draw: bool
    wilds_only_on_tunnels: bool
    ticket_name: str = "ticket"
    longest_name: str = "longest continuous path"
    mandala_bonus: dict[int, int] | None = None
    merchandise: MerchandiseRules | None = None
    tourists: TouristRules | None = None

    def deck(self) -> list[str]:
        """The whole train-card deck in a canonical order."""
        cards = [c for c in self.colors for _ in range(self.per_color)]
        return cards + [WILD] * self.wilds

    def mandala_points(self, qualifying: int) -> int:
        if not self.mandala_bonus or qualifying <= 0:
            return 0
        top = max(self.mandala_bonus)
        return self.mandala_bonus[min(qualifying, top)]


@dataclass(frozen=True)
class Board:
    name: str
    rules: Rules
    places: dict[str, Place]
    routes: tuple[Route, ...]
    tickets: tuple[Ticket, ...]
    countries: dict[str, tuple[str, ...]] = field(default_factory=dict)  # country -> border points
    aliases: dict[str, str] = field(default_factory=dict)  # alias (and name) -> name
    designed: bool = False  # the project's own board, not a published one
    width: int = 1744  # the canvas the drawing positions are given on
    height: int = 1125

    _by_pair: dict[frozenset[str], tuple[Route, ...]] = field(init=False, repr=False, compare=False)
    _parallel: dict[int, tuple[Route, ...]] = field(init=False, repr=False, compare=False)
    _folded: dict[str, tuple[str, ...]] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        by_pair: dict[frozenset[str], list[Route]] = {}
        for r in self.routes:
            by_pair.setdefault(frozenset(r.ends), []).append(r)
        # frozen dataclass: the indexes are computed once, here
        object.__setattr__(self, "_by_pair", {k: tuple(v) for k, v in by_pair.items()})
        object.__setattr__(
            self,
            "_parallel",
            {r.id: tuple(o for o in by_pair[frozenset(r.ends)] if o.id != r.id) for r in self.routes},
        )
        folded: dict[str, list[str]] = {}
        for written, name in [*self.aliases.items(), *((c, c) for c in self.countries)]:
            names = folded.setdefault(fold(written), [])
            if name not in names:
                names.append(name)
        object.__setattr__(self, "_folded", {k: tuple(v) for k, v in folded.items()})

    def resolve_place(self, name: str) -> str | None:
        """The place or country that `name` or one of its declared aliases names, or None."""
        if name in self.aliases:
            return self.aliases[name]
        if name in self.countries:
            return name
        return None

    def find_place(self, name: str) -> str | None:
        """Like resolve_place, but forgiving about case, accents and punctuation (for people typing);
        None also when the text could name several places (`place_candidates` lists them)."""
        found = self.place_candidates(name)
        return found[0] if len(found) == 1 else None

    def place_candidates(self, name: str) -> tuple[str, ...]:
        """The places or countries a typed name may mean: its exact name or alias; else every name or alias
        equal to it once folded (accents, case and punctuation ignored); else every one it begins (3+ letters)."""
        exact = self.resolve_place(name)
        if exact is not None:
            return (exact,)
        typed = fold(name)
        if not typed:
            return ()
        if typed in self._folded:
            return self._folded[typed]
        if len(typed) < 3:
            return ()
        found: list[str] = []
        for written, names in self._folded.items():
            if written.startswith(typed):
                found += [n for n in names if n not in found]
        return tuple(found)

    def routes_between(self, a: str, b: str) -> list[Route]:
        return list(self._by_pair.get(frozenset((a, b)), ()))

    def parallel(self, route: Route) -> tuple[Route, ...]:
        return self._parallel[route.id]

    def nodes_of(self, name: str) -> tuple[str, ...]:
        """The board places a ticket end stands for (a country: its border points)."""
        if name in self.countries:
            return self.countries[name]
        return (name,)
