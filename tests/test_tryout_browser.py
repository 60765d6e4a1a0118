"""The try-out in a real browser: `python -m bot try` opened in headless Chromium and played from its page.

The page is SimCord's preview of the simulated Discord the try-out runs the
real bot in. The test starts `python -m bot try` as a person would, reads the
address it prints, opens it in Debian's Chromium (driven by Playwright, never
a downloaded browser), opens a game with the page's slash-command composer,
has a friend join with the lobby's button ("Viewing as"), starts it, chooses
tickets, takes a card with a button and sees the new board image. It writes
the screenshots in docs/ (docs/tryout-*.png) on the way.

Chromium: scripts/test.sh installs Debian's `chromium` where it is missing;
CONDUCTOR_CHROMIUM names another executable.
"""

from __future__ import annotations

import os
import re
import shutil
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from helpers.tryout_process import URL, TryOutProcess
from playwright.sync_api import Browser, Locator, Page, sync_playwright
from playwright.sync_api import TimeoutError as PlaywrightTimeout

from bot.present.decisions import draw_deck_label
from bot.present.i18n import speaking
from bot.service.kinds import Language

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs"
CHROMIUM = os.environ.get("CONDUCTOR_CHROMIUM") or shutil.which("chromium") or "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
START_SECONDS = 120  # generous: the machine running the tests may be busy
STEP_MS = 60_000  # each step in the page (an action answered and shown)


@pytest.fixture
def browser() -> Iterator[Browser]:
    if not Path(CHROMIUM).exists():
        pytest.fail(
            f"no Chromium at {CHROMIUM}: install Debian's chromium (scripts/test.sh does) or set CONDUCTOR_CHROMIUM"
        )
    with sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS, timeout=STEP_MS)
        yield launched
        launched.close()


def settled(page: Page) -> None:
    """Wait until the page has shown the answer of the last action (SimCord's own readiness flag)."""
    page.wait_for_function(
        "() => Boolean(window.simcordPreview && window.simcordPreview.ready)",
        timeout=STEP_MS,
    )


def view_as(page: Page, name: str) -> None:
    page.select_option("#viewer-picker", label=name)
    page.wait_for_function(
        """name => {
            const picker = document.querySelector('#viewer-picker');
            const chosen = picker && picker.selectedOptions.length ? picker.selectedOptions[0].textContent : '';
            return chosen.includes(name) && Boolean(window.simcordPreview && window.simcordPreview.ready);
        }""",
        arg=name,
        timeout=STEP_MS,
    )


def press(page: Page, label: str) -> None:
    """Click the newest button with this label (a message's button, as a member clicks it)."""
    button = page.locator("button.component-button", has_text=label).last
    button.wait_for(timeout=STEP_MS)
    button.click()
    settled(page)


def board_images(page: Page) -> list[str]:
    """The sources of the board images shown in the channel (loaded ones), oldest first."""
    sources: list[str] = page.eval_on_selector_all(
        "#channel-message-list img",
        "images => images.filter(i => i.complete && i.naturalWidth > 400).map(i => i.currentSrc || i.src)",
    )
    return sources


def keep_all_tickets(page: Page) -> None:
    """Choose my tickets: the private menu, every ticket ticked, applied."""
    press(page, "Choose my tickets")
    trigger = page.locator("button.select-trigger").last
    trigger.wait_for(timeout=STEP_MS)
    trigger.click()
    options = page.locator("[role=listbox] [role=option]:visible")
    options.first.wait_for(timeout=STEP_MS)
    for index in range(options.count()):
        option = options.nth(index)
        if option.get_attribute("aria-selected") != "true":
            option.click()
    page.locator("button.select-apply:visible").click()
    settled(page)


def test_a_game_played_from_the_page(tmp_path: Path, browser: Browser) -> None:
    tryout = TryOutProcess(tmp_path / "tryout", "--name", "Alex", "--friends", "1")
    page: Page | None = None
    try:
        url = tryout.wait_for(URL, START_SECONDS)
        context = browser.new_context(viewport={"width": 1280, "height": 900}, bypass_csp=True)
        page = context.new_page()
        page.set_default_timeout(STEP_MS)
        page.goto(url)  # the start page: #games, or a member's direct messages
        page.locator("button.place", has_text="#games").click()
        page.wait_for_url(re.compile(r"http://127\.0\.0\.1:\d+/#.+"), timeout=STEP_MS)
        settled(page)
        assert page.locator("#channel-name").inner_text() == "games"

        # /ttr new map:usa, typed in the page's composer
        composer = page.locator("#channel-composer-input")
        composer.click()
        composer.type("/ttr new")
        page.locator(".command-entry", has_text="/ttr new").first.wait_for()
        page.keyboard.press("Enter")
        page.locator(".command-suggestion[data-value=usa]").click()
        page.locator("#send-message").click()
        settled(page)
        page.locator("#channel-message-list", has_text="opens a USA game").wait_for()

        # a friend joins with the lobby message's button, the host starts
        view_as(page, "Robin")
        press(page, "Join")
        view_as(page, "Alex")
        press(page, "Start")
        page.get_by_text("Choose my tickets").first.wait_for()

        keep_all_tickets(page)
        view_as(page, "Robin")
        keep_all_tickets(page)

        # whoever's turn it is takes a card from the deck, twice: the turn passes and the table shows the new board
        page.locator("#channel-message-list", has_text="Draw from deck").wait_for()
        before = board_images(page)
        assert before, "no board image shown after the tickets were chosen"
        text = page.locator("#channel-message-list").inner_text()
        turns = re.findall(r"@(Alex|Robin) \(\1\), your turn", text)
        assert turns, f"no turn message naming whose turn it is: {text[-600:]!r}"
        turn_of = turns[-1]
        view_as(page, turn_of)
        page.screenshot(path=str(DOCS / "tryout-game.png"))
        press(page, "Draw from deck")
        # the first card's answer is shown (and the table edited) before the second tap, which a re-drawn table
        # could otherwise swallow
        page.locator("#channel-message-list", has_text="You drew").first.wait_for(timeout=STEP_MS)
        settled(page)
        press(page, "Draw from deck")
        page.wait_for_function(
            "old => { const shown = Array.from(document.querySelectorAll('#channel-message-list img'))"
            ".filter(i => i.complete && i.naturalWidth > 400);"
            " const last = shown[shown.length - 1];"
            " return last !== undefined && (last.currentSrc || last.src) !== old; }",
            arg=before[-1],
            timeout=STEP_MS,
        )
        after = board_images(page)
        assert after[-1] not in before, "the new turn's board image is the old one"
        page.set_viewport_size({"width": 1280, "height": 1160})
        page.locator("#channel-message-list img").last.scroll_into_view_if_needed()
        settled(page)
        page.screenshot(path=str(DOCS / "tryout-turn.png"))

        # the player whose turn it is now is told by one short notice in the channel that mentions them
        other = "Robin" if turn_of == "Alex" else "Alex"
        page.locator("#channel-message-list", has_text=f"{other}, your turn in game").wait_for(timeout=STEP_MS)
        context.close()
    except Exception:
        if page is not None:  # what the page showed when it failed, for whoever reads the failure
            page.screenshot(path=str(tmp_path / "failed.png"))
            print(f"the page at the failure: {tmp_path / 'failed.png'}")
        raise
    finally:
        status = tryout.stop()
    assert status == 0, "".join(tryout.seen)


def last_action(page: Page) -> str:
    """The request id of the page's last action answered (empty before any)."""
    found: str = page.evaluate("() => String(window.simcordPreview?.lastAction?.requestId || '')")
    return found


def tap(page: Page, button: Locator) -> float:
    """Click a button as a member taps it; the seconds until the page shows the answer (SimCord's own flags)."""
    page.wait_for_function("() => Boolean(window.simcordPreview && window.simcordPreview.ready)", timeout=STEP_MS)
    before = last_action(page)
    started = time.monotonic()
    button.click()
    try:
        page.wait_for_function(
            """before => {
            const preview = window.simcordPreview;
            const last = preview && preview.lastAction;
            return Boolean(preview && preview.ready && last && String(last.requestId || '') !== before);
        }""",
            arg=before,
            timeout=STEP_MS,
        )
    except PlaywrightTimeout:
        status = page.evaluate(
            "() => { const p = window.simcordPreview; return JSON.stringify("
            "{last: p?.lastAction, pending: p?.pendingAction, ready: p?.ready, transport: p?.transport}); }"
        )
        raise AssertionError(f"no answer shown within {STEP_MS / 1000:.0f} s; the page: {status}") from None
    return time.monotonic() - started


def commands_named(text: str) -> set[str]:
    """The slash commands the messages name: "/ttr bygg", "/ttr inställningar", "/ttrmod ångra"."""
    return {f"/{root} {sub}" for root, sub in re.findall(r"/(ttr\w*) ([\w-]+)", text)}


def offers(page: Page, command: str) -> bool:
    """Does the page's message box offer this command when it is typed?"""
    composer = page.locator("#channel-composer-input")
    composer.fill("")
    composer.type(command)
    entry = page.locator(".command-entry strong", has_text=re.compile(rf"^\s*{re.escape(command)}\s*$"))
    try:
        entry.first.wait_for(timeout=5_000)
    except PlaywrightTimeout:
        return False
    finally:
        page.keyboard.press("Escape")
        composer.fill("")
    return True


def test_thirty_taps_in_swedish_each_answer_within_3_s(tmp_path: Path, browser: Browser) -> None:
    """A game against the autopilot in Swedish, played from the page at a human pace: every tap answers within
    3 s (the figures printed), and the message box offers the commands the messages name (`/ttr bygg`)."""
    with speaking(Language.SV):
        draw = draw_deck_label()  # "Dra från högen"
    tryout = TryOutProcess(
        tmp_path / "tryout", "--language", "sv", "--friends", "0", "--bots", "1", "--level", "steady", "--map", "usa"
    )
    page: Page | None = None
    seconds: list[float] = []
    try:
        url = tryout.wait_for(URL, START_SECONDS)
        context = browser.new_context(viewport={"width": 1280, "height": 900}, bypass_csp=True)
        page = context.new_page()
        page.set_default_timeout(STEP_MS)
        page.goto(url)
        page.locator("button.place", has_text="#games").click()
        page.wait_for_url(re.compile(r"http://127\.0\.0\.1:\d+/#.+"), timeout=STEP_MS)
        settled(page)

        # the tickets: the private panel (a tap), every ticket ticked, applied (a tap)
        choose = page.locator("button.component-button", has_text=re.compile(r"^\s*Välj mina ")).last
        choose.wait_for()
        seconds.append(tap(page, choose))
        trigger = page.locator("button.select-trigger").last
        trigger.wait_for()
        trigger.click()
        options = page.locator("[role=listbox] [role=option]:visible")
        options.first.wait_for()
        for index in range(options.count()):
            if options.nth(index).get_attribute("aria-selected") != "true":
                options.nth(index).click()
        seconds.append(tap(page, page.locator("button.select-apply:visible")))

        # my turns: two cards from the deck each; the autopilot plays between them
        mine = re.compile(r"@Alex \(Alex\), din tur")
        named: set[str] = set()  # the commands the messages name, as the game goes
        while len(seconds) < 30:
            page.wait_for_function(
                """() => {
                    const text = document.querySelector('#channel-message-list')?.innerText || '';
                    const turns = [...text.matchAll(/@(\\S+) \\(\\1\\), din tur/g)];
                    return turns.length > 0 && turns[turns.length - 1][1] === 'Alex';
                }""",
                timeout=STEP_MS,
            )
            # the table is edited in place: what it names on the way (how to play, in the first turns) is read now
            named |= commands_named(page.locator("#channel-message-list").inner_text())
            time.sleep(1.5)  # a person reads the board before tapping
            seconds.append(tap(page, page.locator("button.component-button:enabled", has_text=draw).last))
            time.sleep(1.5)
            seconds.append(tap(page, page.locator("button.component-button:enabled", has_text=draw).last))
            page.wait_for_function("""() => window.simcordPreview && window.simcordPreview.ready""", timeout=STEP_MS)
            assert mine.search(page.locator("#channel-message-list").inner_text()) is not None
        page.screenshot(path=str(tmp_path / "swedish.png"))

        # the message box offers what the messages name (on the way and now), under the same names
        named |= commands_named(page.locator("#channel-message-list").inner_text())
        assert "/ttr bygg" in named or "/ttr dra" in named, named
        missing = sorted(command for command in named | {"/ttr bygg"} if not offers(page, command))
        assert not missing, f"the page does not offer {missing}, which its messages name"
        assert not offers(page, "/ttr claim")  # the Swedish page names the commands in Swedish only
        context.close()
    except Exception:
        if page is not None:
            page.screenshot(path=str(tmp_path / "failed.png"))
            print(f"the page at the failure: {tmp_path / 'failed.png'}")
        raise
    finally:
        status = tryout.stop()
        if seconds:
            ordered = sorted(seconds)
            print(f"taps: {len(seconds)}; seconds each: {' '.join(f'{s:.2f}' for s in seconds)}")
            print(f"max {ordered[-1]:.2f} s, p50 {ordered[len(ordered) // 2]:.2f} s")
    assert status == 0, "".join(tryout.seen)
    assert len(seconds) >= 30 and max(seconds) < 3, seconds
