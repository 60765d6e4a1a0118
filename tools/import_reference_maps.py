"""Copy reference board files from a folder into maps/data with one rules schema.

The reference files describe each map's rules in slightly different shapes
(USA lacks its starting hand, India its deck); the engine wants one shape, so
this tool writes the boards unchanged and the rule numbers completed as
docs/rules.md states them. Run it again whenever the reference data changes.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
CLASSIC_COLOURS = ["pink", "white", "blue", "yellow", "orange", "black", "red", "green"]
CLASSIC_POINTS = {"1": 1, "2": 2, "3": 4, "4": 7, "5": 10, "6": 15, "7": 18, "8": 21}

# The order of the keys in each map's "rules" object, as written to maps/data.
KEY_ORDER = (
    "title",
    "players",
    "trains_per_player",
    "piece_name",
    "double_routes_both_usable_from_players",
    "train_cards",
    "wild_name",
    "ticket_name",
    "starting_hand",
    "initial_tickets",
    "draw_tickets",
    "returned_tickets",
    "route_points",
    "longest_path_bonus",
    "longest_path_name",
    "mandala_bonus",
    "merchandise",
    "tourists",
    "end_game_trains",
    "faceup_wild_ends_draw",
    "wilds_only_on_tunnels",
)

# What every map shares unless it says otherwise.
COMMON: dict[str, Any] = {
    "players": {"min": 2, "max": 4},
    "piece_name": "trains",
    "double_routes_both_usable_from_players": 3,
    "wild_name": "locomotive",
    "draw_tickets": {"draw": 3, "keep_min": 1},
    "returned_tickets": "bottom",
    "longest_path_bonus": 10,
    "end_game_trains": 2,
    "faceup_wild_ends_draw": True,
    "wilds_only_on_tunnels": False,
}

# The three maps played with the classic deck and point table.
CLASSIC: dict[str, Any] = {
    **COMMON,
    "trains_per_player": 45,
    "train_cards": {"colors": CLASSIC_COLOURS, "per_color": 12, "locomotives": 14, "total": 110},
    "starting_hand": 4,
    "route_points": CLASSIC_POINTS,
}

# The two city maps: 44 cards, two cards dealt, small tickets draws, no longest-path bonus.
CITY: dict[str, Any] = {
    **COMMON,
    "starting_hand": 2,
    "initial_tickets": {"deal": 2, "keep_min": 1},
    "draw_tickets": {"draw": 2, "keep_min": 1},
    "longest_path_bonus": 0,
}


def _city_cards(colours: list[str]) -> dict[str, Any]:
    return {"colors": colours, "per_color": 6, "locomotives": 8, "total": 44}


def rules_of(base: dict[str, Any], **own: Any) -> dict[str, Any]:
    """One map's rule numbers: the base completed by the map's own, keys in KEY_ORDER."""
    merged = {**base, **own}
    return {key: merged[key] for key in KEY_ORDER if key in merged}


RULES: dict[str, dict[str, Any]] = {
    "usa": rules_of(
        CLASSIC,
        title="USA",
        players={"min": 2, "max": 5},
        double_routes_both_usable_from_players=4,
        initial_tickets={"deal": 3, "keep_min": 2},
    ),
    "india": rules_of(
        CLASSIC,
        title="India",
        double_routes_both_usable_from_players=4,
        initial_tickets={"deal": 4, "keep_min": 2},
        longest_path_name="Indian Express",
        mandala_bonus={"1": 5, "2": 10, "3": 20, "4": 30, "5": 40},
    ),
    "switzerland": rules_of(
        CLASSIC,
        title="Switzerland",
        players={"min": 2, "max": 3},
        trains_per_player=40,
        initial_tickets={"deal": 5, "keep_min": 2},
        returned_tickets="removed",
        faceup_wild_ends_draw=False,
        wilds_only_on_tunnels=True,
    ),
    "amsterdam": rules_of(
        CITY,
        title="Amsterdam",
        trains_per_player=16,
        piece_name="carts",
        train_cards=_city_cards(["pink", "blue", "green", "black", "red", "orange"]),
        wild_name="joker",
        ticket_name="contract",
        route_points={"1": 1, "2": 2, "3": 4, "4": 7},
        merchandise={"cards": 16, "bonus": {"2": [8, 4], "3": [8, 5, 2], "4": [8, 6, 4, 2]}},
    ),
    "san_francisco": rules_of(
        CITY,
        title="San Francisco",
        trains_per_player=20,
        piece_name="cable cars",
        train_cards=_city_cards(["blue", "green", "black", "purple", "red", "orange"]),
        wild_name="ferry card",
        route_points={"1": 1, "2": 2, "3": 4, "4": 7, "5": 10},
        tourists={
            "stack_size": {"2": 2, "3": 2, "4": 3},
            "bonus": {"0": 0, "1": 0, "2": 1, "3": 2, "4": 4, "5": 6, "6": 9, "7": 12},
        },
    ),
}


def main(reference: Path) -> None:
    for name, rules in RULES.items():
        data = json.loads((reference / f"{name}.json").read_text(encoding="utf-8"))
        data["reference_rules"] = data.pop("rules")
        data["rules"] = rules
        # the drawing canvas of the positions: India's board is portrait
        data["canvas"] = {"width": 1125, "height": 1744} if name == "india" else {"width": 1744, "height": 1125}
        out = ROOT / "maps" / "data" / f"{name}.json"
        out.write_text(json.dumps(data, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
        print(f"wrote {out.relative_to(ROOT)}")


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit("usage: python tools/import_reference_maps.py FOLDER_OF_REFERENCE_BOARDS")
    main(Path(sys.argv[1]))
