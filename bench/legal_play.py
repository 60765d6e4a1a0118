"""One engine's side of `bench.engine --baseline`: random games over `legal_moves()`, timed, on request.

Run as a script by `bench.engine`, once for the engine of a given checkout
and once for this one: `python bench/legal_play.py ROOT` puts ROOT first on
the import path, so `engine` and `maps` are that checkout's. It then reads
requests from stdin, one a line, `legal SEED`, `strong SEED` or `expert SEED`,
each optionally followed by a map and a number of players (four-player USA
when not given), and for each plays one game: `legal` with the random player
as it was before the engine listed moves lazily (it asks `legal_moves()` for
every move, groups them by kind, picks a kind, then a move), `strong` with the
strong autopilot in every seat and the final scoring (what the expert
autopilot's rollouts do), `expert` the first 40 moves of strong and then three
decisions of the expert's search (8 worlds, bounded by work, not time), each
game from a fresh deal. It answers one line of JSON: the seconds the game
took (dealing included) and a digest of its moves, so the two engines' games
can be told the same. It uses only the engine's public API and
the autopilots' `choose_strong`, `choose_expert` and `Search`, the same in both.
"""

from __future__ import annotations

import hashlib
import json
import os
import random
import sys
import time
from typing import Any


def random_move(game: Any, rng: random.Random, keep: Any, tunnel_pay: Any) -> Any:
    """The random player of `engine.random_play` before it listed moves lazily (commit 4246064)."""
    waiting = game.waiting_for()
    if not waiting:
        return None
    moves = game.legal_moves(rng.choice(waiting))
    kinds: dict[str, list[Any]] = {}
    for m in moves:
        kinds.setdefault(type(m).__name__, []).append(m)
    weights = {"Claim": 6, "DrawCard": 3, "DrawTickets": 1}
    names = sorted(kinds)
    kind = rng.choices(names, [weights.get(k, 1) for k in names])[0]
    choice = kinds[kind]
    if kind == "Keep":
        # keep few tickets most of the time, like cautious players do
        fewest = min(len(m.tickets) for m in choice if isinstance(m, keep))
        few = [m for m in choice if isinstance(m, keep) and len(m.tickets) == fewest]
        return rng.choice(few if rng.random() < 0.7 else choice)
    if kind == "TunnelPay" and rng.random() < 0.2:
        return tunnel_pay(choice[0].player, None)
    return rng.choice(choice)


def serve(root: str) -> None:
    sys.path.insert(0, root)
    import engine
    from engine import Game, Keep, TunnelPay
    from engine.moves import move_to_json
    from maps import load_board

    here = os.path.realpath(engine.__file__)
    if not here.startswith(os.path.join(os.path.realpath(root), "")):
        raise SystemExit(f"the engine imported is {here}, not the one under {root}")
    from engine.expert import Search, choose_expert
    from engine.strong import choose_strong

    for line in sys.stdin:
        mode, seed_text, *where = line.split()
        seed = int(seed_text)
        map_name, count = (where[0], int(where[1])) if where else ("usa", 4)
        board = load_board(map_name)
        players = [f"p{i}" for i in range(count)]
        start = time.perf_counter()
        game = Game(board, players, seed)
        if mode == "legal":
            rng = random.Random(seed)
            for _ in range(5000):
                move = random_move(game, rng, Keep, TunnelPay)
                if move is None:
                    break
                game.apply(move)
        elif mode == "strong":  # the strong autopilot in every seat, as the expert's rollouts play
            for _ in range(5000):
                waiting = game.waiting_for()
                if not waiting:
                    break
                game.apply(choose_strong(game, waiting[0]))
            game.score()
        else:  # "expert": strong for 40 moves, then the expert's search at its next 3 decisions
            # the search as both engines have it: without the later inference (a field the older one lacks)
            plain: dict[str, Any] = {"infer": None} if "infer" in getattr(Search, "__dataclass_fields__", {}) else {}
            search = Search(worlds=8, work=800, time_limit=None, **plain)
            for _ in range(40):
                game.apply(choose_strong(game, game.waiting_for()[0]))
            searched = 0
            while searched < 3 and not game.finished:
                to_move = game.to_move()
                assert to_move is not None
                who = to_move.player
                if to_move.must in ("keep", "turn"):
                    game.apply(choose_expert(game, who, search))
                    searched += 1
                else:
                    game.apply(choose_strong(game, who))
        elapsed = time.perf_counter() - start
        text = json.dumps([move_to_json(m) for m in game.moves], sort_keys=True)
        digest = hashlib.sha256(text.encode()).hexdigest()
        print(json.dumps({"seconds": elapsed, "moves": len(game.moves), "digest": digest}), flush=True)


if __name__ == "__main__":
    serve(sys.argv[1])
