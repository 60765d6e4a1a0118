"""The table's layout (bot/views/table_layout.py) without Discord: what it holds, in which order, within Discord's
limits (SimCord's validation of a components-v2 message)."""

from __future__ import annotations

from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st
from simcord.components import COMPONENTS_V2_FLAG, validate_message_state

from bot.views import panels
from bot.views.table_layout import TURN_ID, Board, TableTexts, table_layout
from maps import load_board

RULES = load_board("usa").rules
FACE_UP = ["red", "locomotive", None, "blue", "green"]


def wire(texts: TableTexts, **kwargs: Any) -> list[dict[str, Any]]:
    buttons = panels.turn_view(7, 3, RULES, FACE_UP, can_pass=True)
    layout = table_layout(texts, accent=0xD55E00, board=Board("board.png", "The USA board."), buttons=buttons, **kwargs)
    components: list[dict[str, Any]] = layout.to_components()
    validate_message_state(components, flags=COMPONENTS_V2_FLAG, content=None, embeds=[])
    return components


def test_the_layout_holds_the_words_the_board_and_the_buttons_in_their_rows() -> None:
    (container,) = wire(TableTexts(turn="alice, your turn", last="bob claims a route", players="alice: 3\nbob: 5"))
    assert container["type"] == 17 and container["accent_color"] == 0xD55E00
    parts = container["components"]
    assert [p["type"] for p in parts] == [10, 10, 12, 10, 14, 1, 1, 1]
    assert parts[0]["content"] == "bob claims a route"
    assert parts[1]["content"] == "alice, your turn" and parts[1]["id"] == TURN_ID
    assert parts[2]["items"] == [
        {"media": {"url": "attachment://board.png"}, "description": "The USA board.", "spoiler": False}
    ]
    assert parts[3]["content"] == "alice: 3\nbob: 5"
    rows = [[c["custom_id"].split(":")[1] for c in row["components"]] for row in parts[5:]]
    assert rows == [["draw"] * 5, ["draw", "claim", "tickets", "hand"], ["pass"]]  # as the turn view's rows


def test_without_a_last_move_the_turn_comes_first() -> None:
    (container,) = wire(TableTexts(turn="alice, your turn", last="", players="alice: 3"))
    assert [p["type"] for p in container["components"]][:3] == [10, 12, 10]


@settings(max_examples=30, deadline=None)
@given(last=st.integers(0, 20_000), turn=st.integers(1, 3000), players=st.integers(1, 3000))
def test_long_words_stay_within_discords_limits_keeping_the_newest_moves(last: int, turn: int, players: int) -> None:
    recap = "\n".join(f"move {i}" for i in range(last // 7 + 1))
    (container,) = wire(TableTexts(turn="t" * turn, last=recap, players="p" * players))  # validated: at most 4000
    texts = [p["content"] for p in container["components"] if p["type"] == 10]
    if len(texts) == 3:
        assert recap.endswith(texts[0].lstrip("…"))  # the newest moves kept
    assert sum(map(len, texts)) <= 4000
