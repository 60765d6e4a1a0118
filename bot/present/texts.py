"""The words of the bot's messages, built from the service's views. Pure functions, no Discord calls."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from bot.present.cards import card_name, format_cards
from bot.present.clock import clock_summary
from bot.service.models import GameInfo
from bot.service.stages import StageView
from maps import WILD, Board, Rules, load_board

MESSAGE_LIMIT = 2000


def clip(text: str, limit: int = MESSAGE_LIMIT) -> str:
    """A text cut to Discord's limit, marked where it was cut."""
    return text if len(text) <= limit else text[: limit - 1].rstrip() + "…"


def mention(user_id: int | None) -> str:
    """A member's mention; autopilot players (negative ids) are never mentioned."""
    if user_id is None:
        return "someone"
    return f"<@{user_id}>" if user_id > 0 else "the autopilot"


def player_label(info: GameInfo, player: str | None) -> str:
    """How texts name a seat: its player name, "alice (autopilot)" while the autopilot plays a member's seat.

    Autopilot players are called "Autopilot k" already.
    """
    seat = next((s for s in info.seats if s.player is not None and s.player == player), None)
    if seat is None:
        return player or "someone"
    if seat.autopilot and not seat.bot:
        return f"{player} (autopilot)"
    return str(player)


def who(info: GameInfo, player: str | None) -> str:
    """A seat in a public message that pings its member: "<@123> (alice)"; the autopilot is never mentioned."""
    seat = next((s for s in info.seats if s.player is not None and s.player == player), None)
    if seat is None or seat.autopilot or seat.user_id <= 0:
        return player_label(info, player)
    return f"{mention(seat.user_id)} ({player})"


def seat_labels(info: GameInfo) -> dict[int, str]:
    """Seat number -> label, for the board's panel and the status."""
    return {s.seat: player_label(info, s.player) for s in info.seats if s.seat is not None}


def plural(n: int, word: str) -> str:
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


# ----- the lobby -------------------------------------------------------------------


def lobby_text(info: GameInfo) -> str:
    names = ", ".join(s.display_name for s in info.seats)
    rules = f", {info.trains} trains each (house rule)" if info.trains is not None else ""
    return (
        f"**{info.title}** game #{info.id}: {len(info.seats)}/{info.max_players} seated ({names}){rules}. "
        f"Clock: {clock_summary(info.clock)}. Join with `/ttr join`; the host starts with `/ttr start`."
    )


# ----- turn messages ---------------------------------------------------------------


def must_text(rules: Rules, must: str) -> str:
    return {
        "turn": f"draw cards, claim a route or draw {rules.ticket_name}s",
        "draw": "draw a second card",
        "keep": f"choose {rules.ticket_name}s to keep",
        "tunnel": "pay for the tunnel or give it up",
        "place": "place a tourist stack",
    }.get(must, must)


def recap_text(lines: Sequence[str]) -> str:
    return "**Last turn:** " + " ".join(lines) if lines else ""


def clip_head(head: str, limit: int) -> str:
    """The end of a text that is too long (the newest lines matter most), marked where it was cut."""
    if len(head) <= limit:
        return head
    if limit <= 1:
        return ""
    return "…" + head[len(head) - limit + 1 :]


def _with_head(head: str, tail: str) -> str:
    if not head:
        return clip(tail)
    room = MESSAGE_LIMIT - len(tail) - 1
    return clip(clip_head(head, room) + "\n" + tail)


def turn_content(view: StageView, head: str, clock: str = "") -> str:
    """A turn message: what happened since the last one (`head`), whose turn it is (with a mention), the clock."""
    info = view.info
    rules = load_board(info.map).rules
    parts = []
    if view.to_move is not None:
        line = (
            f"**{info.title} · game #{info.id} · turn {view.turn + 1}:** {who(info, view.to_move)}, "
            f"your turn: {must_text(rules, 'turn')}."
        )
        if view.final_turns is not None:
            line += f" **Final round:** {plural(view.final_turns, 'turn')} left in the game."
        parts.append(line)
        parts.append(
            "Use the buttons below or `/ttr draw`, `/ttr claim`, `/ttr tickets`; `/ttr hand` shows your cards."
        )
    if clock:
        parts.append(clock)
    return _with_head(head, "\n".join(parts))


def start_text(view: StageView) -> str:
    info = view.info
    return f"**The {info.title} game #{info.id} starts!** Seat order: {', '.join(view.names)}."


def setup_content(view: StageView, head: str = "", clock: str = "") -> str:
    """The message of the ticket choice at the start: who is still choosing."""
    info = view.info
    waiting = ", ".join(who(info, n) for n in view.waiting_for)
    ticket = load_board(info.map).rules.ticket_name
    text = (
        f"{start_text(view)}\nEveryone chooses starting {ticket}s at the same time: click **Choose my {ticket}s** "
        f"(or use `/ttr tickets`). Still choosing: {waiting or 'nobody'}."
    )
    if clock:
        text += "\n" + clock
    return _with_head(head, text)


def place_content(view: StageView, head: str, clock: str = "") -> str:
    """The message of a tourist-stack placement: who places one, and which are left."""
    info = view.info
    assert view.to_move is not None
    left = ", ".join(s.replace("_", " ") for s in view.unplaced)
    line = (
        f"**{info.title} · game #{info.id}:** {who(info, view.to_move)}, place a tourist stack "
        f"({left} left to place): click **Place a stack**."
    )
    if clock:
        line += "\n" + clock
    return _with_head(head, line)


def final_content(info: GameInfo, head: str, scores: Mapping[str, Any], *, early: bool = False) -> str:
    """The last message: final scores and winners. `early`: a moderator ended the game, scored as it stood."""
    ranking = sorted(scores["scores"], key=lambda r: -int(r["total"]))
    winners = list(scores["winners"])
    line = ", ".join(f"{r['player']} {r['total']}" for r in ranking)
    verb = "win" if len(winners) > 1 else "wins"
    how = " (ended by a moderator, scored as it stood)" if early else ""
    text = f"**{info.title} · game #{info.id} is over{how}.** Final scores: {line}. **{' and '.join(winners)} {verb}!**"
    text += " `/ttr export` gives the game record."
    return _with_head(head, text)


def breakdown_lines(board: Board, scores: Mapping[str, Any]) -> list[str]:
    """The score of each player, item by item, with their tickets (revealed at the end)."""
    rules = board.rules
    lines = ["**Score breakdown**"]
    for r in sorted(scores["scores"], key=lambda r: -int(r["total"])):
        t = r["tickets"]
        bonus = ", ".join(f"{name} +{points}" for name, points in r["bonus"].items() if points)
        parts = [
            f"routes {r['routes']}",
            f"{rules.ticket_name}s {t['points']:+d} ({t['completed']} done, {t['failed']} failed)",
        ]
        if bonus:
            parts.append(bonus)
        if rules.longest_bonus:
            parts.append(f"longest path {r['longest']}")
        user = r["user_id"]
        member = f" ({mention(user)})" if isinstance(user, int) and user > 0 else ""
        lines.append(f"**{r['player']}**{member}: {r['total']} = " + "; ".join(parts))
        for ticket in r["ticket_results"]:
            mark = "\N{WHITE HEAVY CHECK MARK}" if ticket["done"] else "\N{CROSS MARK}"
            lines.append(f"  {mark} {ticket['label']}: {ticket['points']:+d}")
    return lines


def chunks(lines: Sequence[str], limit: int = MESSAGE_LIMIT) -> list[str]:
    """Lines packed into as few messages as fit."""
    out: list[str] = []
    current = ""
    for line in lines:
        line = clip(line, limit)
        if current and len(current) + 1 + len(line) > limit:
            out.append(current)
            current = line
        else:
            current = f"{current}\n{line}" if current else line
    if current:
        out.append(current)
    return out


# ----- private views ---------------------------------------------------------------


def hand_text(rules: Rules, view: Mapping[str, Any]) -> str:
    """A player's own cards and tickets (done or not), from the service's private view."""
    ticket = rules.ticket_name
    hand = view["hand"]
    lines = [
        f"**Your cards** ({sum(hand.values())}): {format_cards(rules, hand)}",
        f"**{rules.piece_name.capitalize()} left:** {view['trains']}",
    ]
    tickets = view["tickets"]
    if tickets:
        lines.append(f"**Your {ticket}s:**")
        for t in tickets:
            if t["done"]:
                lines.append(f"\N{WHITE HEAVY CHECK MARK} {t['label']}: done, {t['points']:+d}")
            else:
                lines.append(f"\N{WHITE LARGE SQUARE} {t['label']}: not yet, {t['points']:+d} if the game ended now")
    else:
        lines.append(f"**Your {ticket}s:** none yet")
    offered = view.get("offered")
    if offered:
        numbered = "; ".join(f"{i}. {t['label']}" for i, t in enumerate(offered, start=1))
        lines.append(f"**To choose** (keep at least {view['keep_minimum']}): {numbered}")
    if view.get("your_move") and view.get("must"):
        lines.append(f"**Your move:** {must_text(rules, view['must'])}.")
    return clip("\n".join(lines))


def offered_text(rules: Rules, offered: Sequence[Mapping[str, Any]], least: int) -> str:
    numbered = "\n".join(f"{i}. {t['label']}" for i, t in enumerate(offered, start=1))
    return (
        f"Choose the {rules.ticket_name}s to keep (at least {least}) in the menu, "
        f"or with `/ttr keep` and their numbers:\n{numbered}"
    )


# ----- status and rules ------------------------------------------------------------


def status_text(info: GameInfo, view: Mapping[str, Any], rules: Rules, clock: Sequence[str] = ()) -> str:
    """`/ttr status`: `clock` are the clock's lines (bot/present/clock.py: status_lines)."""
    lines = [f"**{info.title} game #{info.id}** · {view['status']}"]
    if "phase" not in view:
        lines.append(lobby_text(info))
        return clip("\n".join(lines))
    for p in view["players"]:
        extra = ""
        if "merchandise" in p:
            extra += f", {p['merchandise']} merchandise"
        if "souvenirs" in p:
            extra += f", {len(p['souvenirs'])} souvenirs"
        user = p["user_id"]
        name = player_label(info, p["player"])
        member = f" ({mention(user)})" if isinstance(user, int) and user > 0 else ""
        lines.append(
            f"{name}{member}: {p['route_points']} route points, "
            f"{p['trains']} {rules.piece_name}, {plural(p['cards'], 'card')}, "
            f"{plural(p['tickets'], rules.ticket_name)}, {plural(len(p['routes']), 'route')}{extra}"
        )
    face_up = ", ".join(card_name(rules, c) if c else "(empty)" for c in view["face_up"])
    lines.append(f"Face up: {face_up}. Deck: {view['deck']} cards, discard pile: {view['discard']}.")
    lines.append(f"{rules.ticket_name.capitalize()}s left: {view['ticket_deck']}.")
    to_move = view.get("to_move")
    if view.get("finished"):
        lines.append("The game is over.")
    elif view["phase"] == "setup_keep":
        waiting = ", ".join(w["player"] for w in view["waiting_for"])
        lines.append(f"Choosing starting {rules.ticket_name}s: {waiting}.")
    elif to_move is not None:
        lines.append(f"To move: {player_label(info, to_move['player'])} ({must_text(rules, to_move['must'])}).")
    final = view.get("final_round")
    if final:
        lines.append(f"Final round: {plural(final['turns_left'], 'turn')} left.")
    if not view.get("finished"):
        lines.extend(clock)
    return clip("\n".join(lines))


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
            "**Tunnels:** after you lay the cards, three cards are revealed; each of your colour or a locomotive "
            "asks one more card. Locomotives may be played only on tunnels."
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
