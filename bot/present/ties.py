"""How a tie on points was broken, in one sentence for the final message and the final image alike."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from bot.present.words import plural
from engine import TieBreak, TieRule
from maps import Rules


def _and(items: Sequence[str]) -> str:
    if len(items) <= 2:
        return " and ".join(items)
    return ", ".join(items[:-1]) + " and " + items[-1]


def tie_sentence(tie: TieBreak, rules: Rules, name: Callable[[str], str]) -> str:
    """Like "alice and bob 83; alice wins on 4 tickets done to 3". `name` words a player's name."""
    ticket = rules.ticket_name
    tied = _and([name(p) for p in tie.tied])
    done = dict(zip(tie.tied, tie.completed, strict=True))
    most = max(tie.completed)
    leaders = [p for p in tie.tied if done[p] == most]
    head = f"{tied} {tie.points}"
    if tie.rule is TieRule.TICKETS:
        winner = tie.winners[0]
        others = _and([str(c) for c in sorted((done[p] for p in tie.tied if p != winner), reverse=True)])
        return f"{head}; {name(winner)} wins on {plural(most, ticket)} done to {others}."
    if len(leaders) == len(tie.tied):
        head += f" with {plural(most, ticket)} done each"
    else:
        head += f"; {_and([name(p) for p in leaders])} {plural(most, ticket)} done each"
    if tie.rule is TieRule.LONGEST:
        return f"{head}; {name(tie.winners[0])} wins with the {rules.longest_name} bonus."
    unbroken = f", and the {rules.longest_name} bonus does not part them" if rules.longest_bonus else ""
    return f"{head}{unbroken}: {_and([name(p) for p in tie.winners])} share the victory."
