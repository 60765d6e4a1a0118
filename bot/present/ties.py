"""How a tie on points was broken, in one sentence for the final message and the final image alike."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from bot.present.bonus_words import longest_name
from bot.present.i18n import _
from bot.present.words import tickets_counted
from engine import TieBreak, TieRule
from maps import Rules


def _and(items: Sequence[str]) -> str:
    if len(items) <= 2:
        return _(" and ").join(items)
    return ", ".join(items[:-1]) + _(" and ") + items[-1]


def tie_sentence(tie: TieBreak, rules: Rules, name: Callable[[str], str]) -> str:
    """Like "alice and bob 83; alice wins on 4 tickets done to 3". `name` words a player's name."""
    tied = _and([name(p) for p in tie.tied])
    done = dict(zip(tie.tied, tie.completed, strict=True))
    most = max(tie.completed)
    leaders = [p for p in tie.tied if done[p] == most]
    if tie.rule is TieRule.TICKETS:
        winner = tie.winners[0]
        others = _and([str(c) for c in sorted((done[p] for p in tie.tied if p != winner), reverse=True)])
        return _("{tied} {points}; {winner} wins on {tickets} done to {others}.").format(
            tied=tied, points=tie.points, winner=name(winner), tickets=tickets_counted(rules, most), others=others
        )
    if len(leaders) == len(tie.tied):
        head = _("{tied} {points} with {tickets} done each").format(
            tied=tied, points=tie.points, tickets=tickets_counted(rules, most)
        )
    else:
        head = _("{tied} {points}; {leaders} {tickets} done each").format(
            tied=tied,
            points=tie.points,
            leaders=_and([name(p) for p in leaders]),
            tickets=tickets_counted(rules, most),
        )
    if tie.rule is TieRule.LONGEST:
        return _("{head}; {winner} wins with the {longest} bonus.").format(
            head=head, winner=name(tie.winners[0]), longest=longest_name(rules)
        )
    winners = _and([name(p) for p in tie.winners])
    if rules.longest_bonus:
        return _("{head}, and the {longest} bonus does not part them: {winners} share the victory.").format(
            head=head, longest=longest_name(rules), winners=winners
        )
    return _("{head}: {winners} share the victory.").format(head=head, winners=winners)
