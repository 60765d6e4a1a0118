"""Copy the reference boards from ../shared into maps/data with one rules schema.

The reference files describe each map's rules in slightly different shapes
(USA lacks its starting hand, India its deck); the engine wants one shape, so
this tool writes the boards unchanged and the rule numbers completed from
RULES.md. Run it again whenever the reference data changes.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
CLASSIC_COLOURS = ["pink", "white", "blue", "yellow", "orange", "black", "red", "green"]
CLASSIC_POINTS = {"1": 1, "2": 2, "3": 4, "4": 7, "5": 10, "6": 15, "7": 18, "8": 21}

RULES: dict[str, dict[str, Any]] = {
    "usa": {
        "title": "USA",
        "players": {"min": 2, "max": 5},
        "trains_per_player": 45,
        "piece_name": "trains",
        "double_routes_both_usable_from_players": 4,
        "train_cards": {"colors": CLASSIC_COLOURS, "per_color": 12, "locomotives": 14, "total": 110},
        "wild_name": "locomotive",
        "starting_hand": 4,
        "initial_tickets": {"deal": 3, "keep_min": 2},
        "draw_tickets": {"draw": 3, "keep_min": 1},
        "returned_tickets": "bottom",
        "route_points": CLASSIC_POINTS,
        "longest_path_bonus": 10,
        "end_game_trains": 2,
        "faceup_wild_ends_draw": True,
        "wilds_only_on_tunnels": False,
    },
    "india": {
        "title": "India",
        "players": {"min": 2, "max": 4},
        "trains_per_player": 45,
        "piece_name": "trains",
        "double_routes_both_usable_from_players": 4,
        "train_cards": {"colors": CLASSIC_COLOURS, "per_color": 12, "locomotives": 14, "total": 110},
        "wild_name": "locomotive",
        "starting_hand": 4,
        "initial_tickets": {"deal": 4, "keep_min": 2},
        "draw_tickets": {"draw": 3, "keep_min": 1},
        "returned_tickets": "bottom",
        "route_points": CLASSIC_POINTS,
        "longest_path_bonus": 10,
        "longest_path_name": "Indian Express",
        "mandala_bonus": {"1": 5, "2": 10, "3": 20, "4": 30, "5": 40},
        "end_game_trains": 2,
        "faceup_wild_ends_draw": True,
        "wilds_only_on_tunnels": False,
    },
    "switzerland": {
        "title": "Switzerland",
        "players": {"min": 2, "max": 3},
        "trains_per_player": 40,
        "piece_name": "trains",
        "double_routes_both_usable_from_players": 3,
        "train_cards": {"colors": CLASSIC_COLOURS, "per_color": 12, "locomotives": 14, "total": 110},
        "wild_name": "locomotive",
        "starting_hand": 4,
        "initial_tickets": {"deal": 5, "keep_min": 2},
        "draw_tickets": {"draw": 3, "keep_min": 1},
        "returned_tickets": "removed",
        "route_points": CLASSIC_POINTS,
        "longest_path_bonus": 10,
        "end_game_trains": 2,
        "faceup_wild_ends_draw": False,
        "wilds_only_on_tunnels": True,
    },
    "amsterdam": {
        "title": "Amsterdam",
        "players": {"min": 2, "max": 4},
        "trains_per_player": 16,
        "piece_name": "carts",
        "double_routes_both_usable_from_players": 3,
        "train_cards": {
            "colors": ["pink", "blue", "green", "black", "red", "orange"],
            "per_color": 6,
            "locomotives": 8,
            "total": 44,
        },
        "wild_name": "joker",
        "ticket_name": "contract",
        "starting_hand": 2,
        "initial_tickets": {"deal": 2, "keep_min": 1},
        "draw_tickets": {"draw": 2, "keep_min": 1},
        "returned_tickets": "bottom",
        "route_points": {"1": 1, "2": 2, "3": 4, "4": 7},
        "longest_path_bonus": 0,
        "merchandise": {"cards": 16, "bonus": {"2": [8, 4], "3": [8, 5, 2], "4": [8, 6, 4, 2]}},
        "end_game_trains": 2,
        "faceup_wild_ends_draw": True,
        "wilds_only_on_tunnels": False,
    },
    "san_francisco": {
        "title": "San Francisco",
        "players": {"min": 2, "max": 4},
        "trains_per_player": 20,
        "piece_name": "cable cars",
        "double_routes_both_usable_from_players": 3,
        "train_cards": {
            "colors": ["blue", "green", "black", "purple", "red", "orange"],
            "per_color": 6,
            "locomotives": 8,
            "total": 44,
        },
        "wild_name": "ferry card",
        "starting_hand": 2,
        "initial_tickets": {"deal": 2, "keep_min": 1},
        "draw_tickets": {"draw": 2, "keep_min": 1},
        "returned_tickets": "bottom",
        "route_points": {"1": 1, "2": 2, "3": 4, "4": 7, "5": 10},
        "longest_path_bonus": 0,
        "tourists": {
            "stack_size": {"2": 2, "3": 2, "4": 3},
            "bonus": {"0": 0, "1": 0, "2": 1, "3": 2, "4": 4, "5": 6, "6": 9, "7": 12},
        },
        "end_game_trains": 2,
        "faceup_wild_ends_draw": True,
        "wilds_only_on_tunnels": False,
    },
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
    main(Path(sys.argv[1]) if len(sys.argv) > 1 else ROOT.parent / "shared" / "reference" / "maps")
