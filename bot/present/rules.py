"""A map's rules in short, as the bot plays them (`/ttr rules`)."""

from __future__ import annotations

from bot.present.layout import clip
from bot.present.words import card_name
from maps import WILD, Board


def rules_text(board: Board) -> str:
    """The map's rules in short, as the bot plays them."""
    r = board.rules
    colours = ", ".join(r.colors)
    returned = "are removed from the game" if r.returned_tickets_removed else "go to the bottom of the deck"
    points = ", ".join(f"{length}: {pts}" for length, pts in sorted(r.route_points.items()))
    lines = [f"**{r.title}** · {r.min_players}-{r.max_players} players, {r.trains} {r.piece_name} each."]
    if board.designed:
        lines.append(
            f"*This {r.title} board is Conductor's own, built on the city's real geography for the "
            f"{r.title} rules; it is not the published board.*"
        )
    lines += [
        f"**Cards:** {r.per_color} each of {colours} and {r.wilds} {card_name(r, WILD)}s (wild). "
        f"Everyone starts with {r.starting_hand} cards.",
        f"**{r.ticket_name.capitalize()}s:** {r.initial_deal} dealt at the start, keep at least {r.initial_keep}; "
        f"a draw gives {r.draw_tickets}, keep at least {r.draw_keep}. Returned {r.ticket_name}s {returned}.",
        f"**A turn** is one of: draw two cards (a face-up {card_name(r, WILD)} "
        + ("counts as both" if r.faceup_wild_ends_draw else "is an ordinary draw")
        + f"), claim one route, or draw {r.ticket_name}s.",
        f"**Route points** by length: {points}.",
        f"**Double routes:** both tracks are used from {r.both_doubles_from} players on; nobody owns both.",
        f"**The end:** when someone has {r.end_game_trains} or fewer {r.piece_name} left, everyone gets one last turn.",
    ]
    if r.longest_bonus:
        lines.append(f"**Bonus:** +{r.longest_bonus} for the {r.longest_name}.")
    if r.wilds_only_on_tunnels:
        lines.append(
            "**Tunnels:** after you lay the cards, three cards are revealed; each of your colour or a "
            f"{card_name(r, WILD)} asks one more card. "
            f"{card_name(r, WILD).capitalize()}s may be played only on tunnels."
        )
    if any(route.ferries for route in board.routes):
        lines.append(f"**Ferries:** each ferry space must be paid with a {card_name(r, WILD)}.")
    if r.mandala_bonus:
        table = ", ".join(f"{k}: {v}" for k, v in sorted(r.mandala_bonus.items()))
        lines.append(f"**Grand Tour:** completed tickets joined by two separate paths score a bonus ({table}).")
    if r.merchandise:
        lines.append("**Merchandise:** routes with a cart symbol give a merchandise card; most cards score a bonus.")
    if r.tourists:
        lines.append(
            "**Tourists:** claiming a route next to a tourist token you lack gives you one; "
            "distinct souvenirs score a bonus at the end."
        )
    lines.append("Commands: `/ttr draw`, `/ttr claim`, `/ttr tickets`, `/ttr hand`, `/ttr board`, `/ttr status`.")
    return clip("\n".join(lines))
