"""`python -m bot check-maps`: validate every board's data file."""

from __future__ import annotations

import argparse

from maps import check_all, load_board

NAME = "check-maps"
HELP = "validate the data files of all boards and say precisely what is wrong"


def configure(parser: argparse.ArgumentParser) -> None:
    del parser  # no options


def run(args: argparse.Namespace) -> int:
    del args
    failed = 0
    for name, problem in check_all().items():
        if problem is None:
            board = load_board(name)
            print(
                f"ok    {name}: {len(board.places)} places, {len(board.routes)} routes, "
                f"{len(board.tickets)} {board.rules.ticket_name}s, {len(board.rules.deck())} cards"
            )
        else:
            failed += 1
            print(f"FAIL  {name}: {problem}")
    return 1 if failed else 0
