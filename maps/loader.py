"""Load a board from its data file and say precisely what is wrong with it."""

from __future__ import annotations

import json
from collections import Counter
from dataclasses import replace
from functools import cache
from importlib import resources
from pathlib import Path
from typing import Any

from maps.board import (
    GRAY,
    WILD,
    Board,
    MerchandiseRules,
    Place,
    Route,
    Rules,
    Space,
    Target,
    Ticket,
    TouristRules,
)
from maps.names import fold

MAP_NAMES = ("usa", "india", "switzerland", "amsterdam", "san_francisco")


class MapError(ValueError):
    """A board file that cannot be played; `problems` lists every fault found."""

    def __init__(self, name: str, problems: list[str]) -> None:
        self.name = name
        self.problems = problems
        super().__init__(f"{name}: " + "; ".join(problems))


def _int_keys(table: dict[str, Any]) -> dict[int, Any]:
    return {int(k): v for k, v in table.items()}


def _rules(name: str, raw: dict[str, Any], data: dict[str, Any]) -> Rules:
    cards = raw["train_cards"]
    merchandise = None
    if "merchandise" in raw:
        m = raw["merchandise"]
        merchandise = MerchandiseRules(
            cards=int(m["cards"]),
            bonus={int(k): tuple(int(x) for x in v) for k, v in m["bonus"].items()},
        )
    tourists = None
    if "tourists" in raw:
        t = raw["tourists"]
        tourists = TouristRules(
            stack_size=_int_keys(t["stack_size"]),
            bonus=_int_keys(t["bonus"]),
            symbols=tuple((s["symbol"], s["home"]) for s in data.get("tourist_symbols", [])),
        )
    mandala = raw.get("mandala_bonus")
    return Rules(
        name=name,
        title=raw["title"],
        min_players=int(raw["players"]["min"]),
        max_players=int(raw["players"]["max"]),
        trains=int(raw["trains_per_player"]),
        piece_name=raw["piece_name"],
        both_doubles_from=int(raw["double_routes_both_usable_from_players"]),
        colors=tuple(cards["colors"]),
        per_color=int(cards["per_color"]),
        wilds=int(cards["locomotives"]),
        wild_name=raw["wild_name"],
        starting_hand=int(raw["starting_hand"]),
        initial_deal=int(raw["initial_tickets"]["deal"]),
        initial_keep=int(raw["initial_tickets"]["keep_min"]),
        draw_tickets=int(raw["draw_tickets"]["draw"]),
        draw_keep=int(raw["draw_tickets"]["keep_min"]),
        returned_tickets_removed=raw["returned_tickets"] == "removed",
        route_points=_int_keys(raw["route_points"]),
        longest_bonus=int(raw["longest_path_bonus"]),
        end_game_trains=int(raw["end_game_trains"]),
        faceup_wild_ends_draw=bool(raw["faceup_wild_ends_draw"]),
        wilds_only_on_tunnels=bool(raw["wilds_only_on_tunnels"]),
        ticket_name=raw.get("ticket_name", "ticket"),
        longest_name=raw.get("longest_path_name", "longest continuous path"),
        mandala_bonus=_int_keys(mandala) if mandala else None,
        merchandise=merchandise,
        tourists=tourists,
    )


def _check_deck(raw: dict[str, Any], problems: list[str]) -> None:
    cards = raw.get("train_cards", {})
    colors = cards.get("colors", [])
    if len(set(colors)) != len(colors):
        problems.append(f"deck: a colour is listed twice in {colors}")
    if WILD in colors or GRAY in colors:
        problems.append(f"deck: '{WILD}' and '{GRAY}' cannot be card colours")
    total = len(colors) * int(cards.get("per_color", 0)) + int(cards.get("locomotives", 0))
    if "total" in cards and total != cards["total"]:
        problems.append(
            f"deck: {len(colors)} colours x {cards.get('per_color')} + "
            f"{cards.get('locomotives')} wilds = {total} cards, but the map says {cards['total']}"
        )
    if total <= 0:
        problems.append("deck: the train-card deck is empty")


def _parse_places(data: dict[str, Any], problems: list[str]) -> dict[str, Place]:
    places: dict[str, Place] = {}
    for entry in data.get("cities", []):
        name = entry.get("name")
        if not isinstance(name, str) or not name:
            problems.append(f"place without a name: {entry}")
            continue
        if name in places:
            problems.append(f"place '{name}' is listed twice")
            continue
        places[name] = Place(
            name=name,
            x=float(entry["x"]),
            y=float(entry["y"]),
            aliases=tuple(entry.get("aliases", [])),
            country=entry.get("country"),
            lat=entry.get("lat"),
            lon=entry.get("lon"),
        )
    return places


def _parse_routes(
    data: dict[str, Any], rules_raw: dict[str, Any], places: dict[str, Place], problems: list[str]
) -> tuple[Route, ...]:
    colours = set(rules_raw.get("train_cards", {}).get("colors", [])) | {GRAY}
    points = {int(k) for k in rules_raw.get("route_points", {})}
    routes: list[Route] = []
    tracks: Counter[frozenset[str]] = Counter()
    seen: set[tuple[frozenset[str], str, int | None]] = set()
    for i, r in enumerate(data.get("routes", [])):
        a, b = r.get("a"), r.get("b")
        label = f"route {i} ({a} - {b})"
        for end in (a, b):
            if end not in places:
                problems.append(f"{label}: unknown place '{end}'")
        if a == b:
            problems.append(f"{label}: a route must join two different places")
        length = r.get("length")
        if not isinstance(length, int) or length < 1:
            problems.append(f"{label}: length must be a whole number from 1, not {length!r}")
            continue
        if length not in points:
            problems.append(f"{label}: no route points for length {length}")
        if r.get("color") not in colours:
            problems.append(f"{label}: unknown colour '{r.get('color')}'")
        ferries = int(r.get("ferry_locomotives", 0))
        if ferries > length:
            problems.append(f"{label}: {ferries} ferry spaces on a route of {length}")
        if ferries and r.get("color") != GRAY:
            problems.append(f"{label}: a ferry must be gray")
        spaces = tuple(Space(float(s["x"]), float(s["y"]), float(s["angle"])) for s in r.get("spaces", []))
        if len(spaces) != length:
            problems.append(f"{label}: {len(spaces)} drawn spaces for a route of length {length}")
        pair = frozenset((str(a), str(b)))
        key = (pair, str(r.get("color")), r.get("double_index"))
        if key in seen:
            problems.append(f"{label}: duplicate route")
        seen.add(key)
        tracks[pair] += 1
        routes.append(
            Route(
                id=i,
                a=str(a),
                b=str(b),
                length=length,
                color=str(r.get("color")),
                double_index=r.get("double_index"),
                ferries=ferries,
                tunnel=bool(r.get("tunnel", False)),
                cart=bool(r.get("cart_symbol", False)),
                spaces=spaces,
            )
        )
    for pair, count in tracks.items():
        if count > 2:
            problems.append(f"{' - '.join(sorted(pair))}: a double route with {count} tracks")
    return _number_alike_tracks(routes)


def _number_alike_tracks(routes: list[Route]) -> tuple[Route, ...]:
    """Routes, with the two tracks of a double that look alike (same colour, length and kind) numbered 1 and 2."""
    by_pair: dict[frozenset[str], list[int]] = {}
    for i, r in enumerate(routes):
        by_pair.setdefault(frozenset(r.ends), []).append(i)
    for indexes in by_pair.values():
        if len(indexes) == 2 and routes[indexes[0]].kind() == routes[indexes[1]].kind():
            for track, i in enumerate(indexes, start=1):
                routes[i] = replace(routes[i], track=track)
    return tuple(routes)


def _parse_tickets(
    data: dict[str, Any], places: dict[str, Place], countries: dict[str, tuple[str, ...]], problems: list[str]
) -> tuple[Ticket, ...]:
    known = set(places) | set(countries)
    tickets: list[Ticket] = []
    for i, t in enumerate(data.get("tickets", [])):
        if "from" in t:
            origin = t["from"]
            targets = tuple(Target(d["name"], int(d["points"])) for d in t["to"])
        else:
            origin = t.get("a")
            targets = (Target(t.get("b"), int(t.get("points", 0))),)
        for end in (origin, *(x.name for x in targets)):
            if end not in known:
                problems.append(f"ticket {i} ({origin}): unknown place '{end}'")
        if any(x.points <= 0 for x in targets):
            problems.append(f"ticket {i} ({origin}): values must be positive")
        tickets.append(Ticket(id=i, origin=origin, targets=targets))
    return tuple(tickets)


def parse_board(name: str, data: dict[str, Any]) -> Board:
    """Build a Board from a data file's JSON, or raise MapError listing every fault."""
    problems: list[str] = []
    rules_raw = data.get("rules")
    if not isinstance(rules_raw, dict):
        raise MapError(name, ["no 'rules' section"])
    _check_deck(rules_raw, problems)
    places = _parse_places(data, problems)
    countries: dict[str, list[str]] = {}
    for place in places.values():
        if place.country:
            countries.setdefault(place.country, []).append(place.name)
    for country in data.get("countries", {}):
        if country not in countries:
            problems.append(f"country '{country}' has no border point")
    country_points = {c: tuple(p) for c, p in countries.items()}
    routes = _parse_routes(data, rules_raw, places, problems)
    tickets = _parse_tickets(data, places, country_points, problems)
    aliases: dict[str, str] = {}
    for place in places.values():
        for alias in (place.name, *place.aliases):
            if alias in aliases and aliases[alias] != place.name:
                problems.append(f"alias '{alias}' names both '{aliases[alias]}' and '{place.name}'")
            aliases[alias] = place.name
    folded: dict[str, str] = {}
    for written, place_name in [*aliases.items(), *((c, c) for c in country_points)]:
        if folded.setdefault(fold(written), place_name) != place_name:
            problems.append(f"'{written}' reads like a name of '{folded[fold(written)]}' too")
    try:
        rules = _rules(name, rules_raw, data)
    except (KeyError, TypeError, ValueError) as exc:
        problems.append(f"rules: missing or malformed value ({exc})")
    if problems:
        raise MapError(name, problems)
    if rules.tourists:
        for symbol, home in rules.tourists.fixed:
            if home not in places:
                problems.append(f"tourist symbol '{symbol}': unknown home place '{home}'")
        if problems:
            raise MapError(name, problems)
    return Board(
        name=name,
        rules=rules,
        places=places,
        routes=routes,
        tickets=tickets,
        countries=country_points,
        aliases=aliases,
        designed=bool(data.get("designed", False)),
        width=int(data.get("canvas", {}).get("width", 1744)),
        height=int(data.get("canvas", {}).get("height", 1125)),
    )


def data_path(name: str) -> Path:
    return Path(str(resources.files("maps") / "data" / f"{name}.json"))


@cache
def load_board(name: str) -> Board:
    """The board called `name` (one of MAP_NAMES), loaded once per process."""
    if name not in MAP_NAMES:
        raise MapError(name, [f"unknown map; choose one of {', '.join(MAP_NAMES)}"])
    data = json.loads(data_path(name).read_text(encoding="utf-8"))
    return parse_board(name, data)


def check_all() -> dict[str, str | None]:
    """Validate every board: map name -> None when fine, else what is wrong."""
    result: dict[str, str | None] = {}
    for name in MAP_NAMES:
        try:
            data = json.loads(data_path(name).read_text(encoding="utf-8"))
            parse_board(name, data)
            result[name] = None
        except MapError as exc:
            result[name] = "; ".join(exc.problems)
        except (OSError, ValueError) as exc:
            result[name] = f"cannot read the data file: {exc}"
    return result
