"""A map's rules in short, as the bot plays them (`/ttr rules`): one text per paragraph, in the reader's language."""

from __future__ import annotations

from bot.present.bonus_words import longest_name
from bot.present.i18n import _, map_
from bot.present.layout import clip
from bot.present.names import map_title
from bot.present.words import card_count, card_name, cards_counted, colour_name, piece_word, pieces_counted, wild_word
from maps import WILD, Board, Rules


def _contracts(rules: Rules) -> bool:
    """Amsterdam's tickets are contracts: their paragraphs are written apart, each language with its own word."""
    return rules.ticket_name == "contract"


def _tickets_paragraph(r: Rules) -> str:
    if _contracts(r):
        if r.returned_tickets_removed:
            text = _(
                "**Contracts:** {deal} dealt at the start, keep at least {keep}; a draw gives {draw}, keep at least "
                "{draw_keep}. Returned contracts are removed from the game."
            )
        else:
            text = _(
                "**Contracts:** {deal} dealt at the start, keep at least {keep}; a draw gives {draw}, keep at least "
                "{draw_keep}. Returned contracts go to the bottom of the deck."
            )
    elif r.returned_tickets_removed:
        text = _(
            "**Tickets:** {deal} dealt at the start, keep at least {keep}; a draw gives {draw}, keep at least "
            "{draw_keep}. Returned tickets are removed from the game."
        )
    else:
        text = _(
            "**Tickets:** {deal} dealt at the start, keep at least {keep}; a draw gives {draw}, keep at least "
            "{draw_keep}. Returned tickets go to the bottom of the deck."
        )
    return text.format(deal=r.initial_deal, keep=r.initial_keep, draw=r.draw_tickets, draw_keep=r.draw_keep)


def _turn_paragraph(r: Rules) -> str:
    wild = card_name(r, WILD)
    if r.faceup_wild_ends_draw:
        face_up = _("a face-up {wild} counts as both").format(wild=wild)
    else:
        face_up = _("a face-up {wild} is an ordinary draw").format(wild=wild)
    if _contracts(r):
        text = _("**A turn** is one of: draw two cards ({face_up}), claim one route, or draw contracts.")
    else:
        text = map_(r.name, "**A turn** is one of: draw two cards ({face_up}), claim one route, or draw tickets.")
    return text.format(face_up=face_up)


def rules_text(board: Board) -> str:
    """The map's rules in short, as the bot plays them."""
    r = board.rules
    title = map_title(r)
    colours = ", ".join(colour_name(c) for c in r.colors)
    points = ", ".join(f"{length}: {pts}" for length, pts in sorted(r.route_points.items()))
    lines = [
        _("**{title}** · {least}-{most} players, {pieces} each.").format(
            title=title, least=r.min_players, most=r.max_players, pieces=pieces_counted(r, r.trains)
        )
    ]
    if board.designed:
        lines.append(
            _(
                "*This {title} board is Conductor's own, built on the city's real geography for the "
                "{title} rules; it is not the published board.*"
            ).format(title=title)
        )
    lines += [
        _("**Cards:** {each} each of {colours} and {wilds} (wild). Everyone starts with {hand}.").format(
            each=r.per_color,
            colours=colours,
            wilds=card_count(r, WILD, r.wilds),
            hand=cards_counted(r.starting_hand),
        ),
        _tickets_paragraph(r),
        _turn_paragraph(r),
        map_(r.name, "**Route points** by length: {points}.").format(points=points),
        map_(r.name, "**Double routes:** both tracks are used from {players} players on; nobody owns both.").format(
            players=r.both_doubles_from
        ),
        _("**The end:** when someone has {count} or fewer {pieces} left, everyone gets one last turn.").format(
            count=r.end_game_trains, pieces=piece_word(r, 2)
        ),
    ]
    if r.longest_bonus:
        lines.append(
            _("**Bonus:** +{points} for the {longest}.").format(points=r.longest_bonus, longest=longest_name(r))
        )
    if r.wilds_only_on_tunnels:
        lines.append(
            _(
                "**Tunnels:** after you lay the cards, three cards are revealed; each of your colour or a "
                "{wild} asks one more card. {wilds} may be played only on tunnels."
            ).format(wild=card_name(r, WILD), wilds=wild_word(r, 2).capitalize())
        )
    if any(route.ferries for route in board.routes):
        lines.append(_("**Ferries:** each ferry space must be paid with a {wild}.").format(wild=card_name(r, WILD)))
    if r.mandala_bonus:
        table = ", ".join(f"{k}: {v}" for k, v in sorted(r.mandala_bonus.items()))
        lines.append(
            _("**Grand Tour:** completed tickets joined by two separate paths score a bonus ({table}).").format(
                table=table
            )
        )
    if r.merchandise:
        lines.append(_("**Merchandise:** routes with a cart symbol give a merchandise card; most cards score a bonus."))
    if r.tourists:
        lines.append(
            _(
                "**Tourists:** claiming a route next to a tourist token you lack gives you one; "
                "distinct souvenirs score a bonus at the end."
            )
        )
    lines.append(_("Commands: `/ttr draw`, `/ttr claim`, `/ttr tickets`, `/ttr hand`, `/ttr board`, `/ttr status`."))
    return clip("\n".join(lines))
