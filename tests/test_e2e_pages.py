"""Pages a new user met by mistake, in Chromium: a table address that does not exist is a page with the
way to the lobby; the lobby offers the House choice only with the Harry Potter set, laid out whole on a
laptop, a phone and the widths between (every seat choice wide enough for "at random"); a seat link
with a bad token stops trying to connect and says what to do instead.
Screenshots go to test-artifacts/e2e/ (pages-*.png)."""

from __future__ import annotations

import re

from playwright.sync_api import Page, ViewportSize, WebSocket, expect

from system import ensure_debian_packages
from test_e2e_browser import ARTIFACTS, Server, patient, post_table, server, watched_browser

__all__ = ["server"]  # the fixture, from the browser suite

LAPTOP: ViewportSize = {"width": 1280, "height": 800}
PHONE: ViewportSize = {"width": 390, "height": 844}

# Each House field as the page lays it out: shown or not, and whether its label and its choice fit
# whole (the label on one line, not clipped; the select wide enough for its longest option).
HOUSE_JS = """() => [...document.querySelectorAll('#seat-rows .house-field')].map((f) => {
  const label = f.querySelector('label'), sel = f.querySelector('select');
  const shown = !f.hidden && f.getClientRects().length > 0;
  if (!shown) return {shown};
  const cs = getComputedStyle(sel);
  const ctx = document.createElement('canvas').getContext('2d');
  ctx.font = cs.font;
  const longest = Math.max(...[...sel.options].map((o) => ctx.measureText(o.text).width));
  const need = longest + parseFloat(cs.paddingLeft) + parseFloat(cs.paddingRight) + 16;  // 16: the arrow
  const line = parseFloat(getComputedStyle(label).lineHeight) || 24;
  return {
    shown,
    labelText: label.textContent,
    labelClipped: label.scrollWidth > label.clientWidth + 1,
    labelLines: Math.round(label.getBoundingClientRect().height / line),
    selectWidth: sel.getBoundingClientRect().width,
    need,
  };
})"""


# Every choice in the seat rows: wide enough for its longest option ("at random" was cut at 600 px)
SELECTS_JS = """() => [...document.querySelectorAll('#seat-rows select')].filter((s) => s.getClientRects().length > 0)
  .map((sel) => {
    const cs = getComputedStyle(sel);
    const ctx = document.createElement('canvas').getContext('2d');
    ctx.font = cs.font;
    const longest = Math.max(...[...sel.options].map((o) => ctx.measureText(o.text).width));
    return {id: sel.id, width: sel.getBoundingClientRect().width,
            need: longest + parseFloat(cs.paddingLeft) + parseFloat(cs.paddingRight) + 16};
  })"""
WIDTHS = (720, 700, 600)  # between the phone's one column and the laptop's four


def cut_choices(page: Page) -> list[dict[str, object]]:
    """The seat rows' choices too narrow for their longest option."""
    shown: list[dict[str, object]] = page.evaluate(SELECTS_JS)
    assert len(shown) >= 10, shown  # four seats: who plays and sex, and two bots' strength (and House)
    return [s for s in shown if float(s["width"]) < float(s["need"])]  # type: ignore[arg-type]


def house_fields(page: Page) -> list[dict[str, object]]:
    fields: list[dict[str, object]] = page.evaluate(HOUSE_JS)
    assert len(fields) == 4, fields  # the lobby's four seats by default
    return fields


def test_missing_table_lobby_house_choice_and_a_bad_seat_link(server: Server) -> None:
    ensure_debian_packages("chromium")
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    table = post_table(server, "Bad link", ("human", "bot", "bot"), bot_delay=0)["table"]
    # the missing page's own 404 is a console error in Chromium: that one is expected
    with watched_browser(server, expected="404 (Not Found)") as page:
        # 1. /table/doesnotexist: a page saying so, in the site's style, with the way to the lobby
        page.goto(server.url + "/table/doesnotexist")
        expect(page.locator("h1")).to_have_text("This table does not exist")
        expect(page.locator("main")).to_contain_text("doesnotexist")
        page.screenshot(path=str(ARTIFACTS / "pages-missing-table-laptop.png"))
        page.click("#to-lobby")
        page.wait_for_url(server.url + "/")

        # 2. the lobby: no House choice until Harry Potter is ticked, then one per seat, whole
        expect(page.locator("#set-harry-potter")).not_to_be_checked()
        assert all(not f["shown"] for f in house_fields(page))
        page.check("#set-harry-potter")
        for name, size in (("laptop", LAPTOP), ("phone", PHONE)):
            page.set_viewport_size(size)
            for f in house_fields(page):
                assert f["shown"] and f["labelText"] == "House (Harry Potter)", (name, f)
                assert not f["labelClipped"] and f["labelLines"] == 1, (name, f)
                assert float(f["selectWidth"]) >= float(f["need"]), (name, f)  # type: ignore[arg-type]
            page.locator("#seat-rows").screenshot(path=str(ARTIFACTS / f"pages-lobby-houses-{name}.png"))
        for width in WIDTHS:
            page.set_viewport_size({"width": width, "height": 800})
            assert cut_choices(page) == [], width
            assert all(f["labelLines"] == 1 and not f["labelClipped"] for f in house_fields(page)), width
        page.locator("#seat-rows").screenshot(path=str(ARTIFACTS / "pages-lobby-houses-600.png"))
        page.set_viewport_size(LAPTOP)
        page.uncheck("#set-harry-potter")
        assert all(not f["shown"] for f in house_fields(page))

        # 3. a seat link with a bad token: refused once, no more tries (the page's clock runs a minute
        # ahead, long past the old 5 s retry), and the banner says what to do instead
        sockets: list[WebSocket] = []
        page.on("websocket", lambda ws: sockets.append(ws) if "/ws/" in ws.url else None)
        page.clock.install()
        page.goto(f"{server.url}/table/{table['id']}?seat=0&token=not-a-token")
        banner = page.locator("#refused-text")
        expect(banner).to_contain_text("This seat link does not work")
        expect(banner).to_contain_text("that seat token is not valid at this table")
        expect(banner).to_contain_text("Ask the person who created the table")
        page.clock.run_for(60_000)
        assert len(sockets) == 1, f"the page tried again {len(sockets) - 1} times"
        expect(page.locator("#conn-status")).not_to_contain_text("Reconnecting")
        expect(page.locator("#retry-now")).to_have_count(0)
        expect(page.locator("#refused-watch")).to_have_attribute("href", f"/table/{table['id']}")
        expect(page.locator("#refused-lobby")).to_have_attribute("href", "/")
        page.screenshot(path=str(ARTIFACTS / "pages-bad-seat-link-laptop.png"))
        page.set_viewport_size(PHONE)
        page.screenshot(path=str(ARTIFACTS / "pages-bad-seat-link-phone.png"))
        page.click("#refused-watch")  # watching needs no token: the page connects as a spectator
        page.wait_for_url(f"{server.url}/table/{table['id']}")
        page.clock.run_for(1_000)
        expect(page.locator("#conn-status")).to_be_hidden()
        expect(page.locator("#you-name")).to_have_text("watching")


# every scrollIntoView's behaviour, recorded before the page's own scripts run
RECORD_SCROLLS = """(() => {
  window.scrolls = [];
  const scroll = Element.prototype.scrollIntoView;
  Element.prototype.scrollIntoView = function (o) {
    window.scrolls.push(o && o.behavior);
    return scroll.call(this, o);
  };
})()"""
# how a new line of the fight and the window's countdown bar would move
MOTION_JS = """() => {
  const panel = document.createElement('div'), fresh = document.createElement('div');
  const bar = document.createElement('span');
  panel.className = 'combat-panel'; fresh.className = 'fresh'; bar.className = 'countdown-fill';
  panel.append(fresh, bar); document.body.append(panel);
  const out = [getComputedStyle(fresh).animationName, getComputedStyle(bar).transitionDuration];
  panel.remove();
  return out;
}"""


def test_the_pages_honour_a_request_for_less_motion(server: Server) -> None:
    """With the system's "reduce motion" on, nothing flashes or slides: the fight's fresh lines do not
    flash, the countdown bar does not glide, and the lobby jumps to a new table's links rather than
    scrolling smoothly (a script's "smooth" would override the style sheet); without it, all three move."""
    from playwright.sync_api import sync_playwright

    from system import CHROMIUM, CHROMIUM_ARGS

    ensure_debian_packages("chromium")
    table = post_table(server, "Motion", ("human", "bot", "bot"), bot_delay=0)
    seat_link = server.url + table["links"][0]["url"]
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS, headless=True)
        try:
            for motion, scroll, moves in (
                ("reduce", "auto", ["none", "0s"]),
                ("no-preference", "smooth", ["look-fresh", "0.1s"]),
            ):
                context = browser.new_context(viewport={"width": 1280, "height": 500}, reduced_motion=motion)
                context.add_init_script(RECORD_SCROLLS)
                page = patient(context.new_page())
                page.goto(server.url + "/")
                expect(page.locator("#set-deluxe")).to_be_checked()  # the sets have come from the server
                page.fill("#table-name", f"Motion {motion}")
                page.click("#create-table")
                expect(page.locator("#created-links")).to_contain_text("is ready")
                assert page.evaluate("window.scrolls") == [scroll], motion
                page.goto(seat_link)
                if motion == "reduce":  # the fair table's cards are dealt once its person adds entropy
                    expect(page.locator("#fair-panel")).to_be_visible()
                    page.click("#entropy-send")
                expect(page.locator("#actions-panel")).to_be_visible()
                assert page.evaluate(MOTION_JS) == moves, motion
                context.close()
        finally:
            browser.close()


# every Content-Security-Policy violation, recorded before the page's own scripts run; and no
# asynchronous clipboard, so that the lobby's Copy button takes its fallback (a styled, hidden textarea)
RECORD_VIOLATIONS = """(() => {
  window.violations = [];
  document.addEventListener('securitypolicyviolation', (e) => window.violations.push(
    `${e.effectiveDirective} refused ${e.blockedURI || 'inline'} (${e.sourceFile || e.documentURI}:${e.lineNumber})`));
  Object.defineProperty(navigator, 'clipboard', {value: undefined});
})()"""
INLINE_SCRIPT_JS = """() => {
  const s = document.createElement('script');
  s.textContent = 'window.inlineRan = true';
  document.head.append(s);
}"""


def no_violations(page: Page, where: str) -> None:
    assert page.evaluate("window.violations") == [], where


def test_the_pages_work_under_their_content_security_policy(server: Server) -> None:
    """The lobby, a table page (its WebSocket, Level track colours, card faces and Rules dialog), a help
    page and the missing-table page, in Chromium under the server's policy (no inline script or style,
    nothing from elsewhere): no violation is reported, in the console or as an event, and each page does
    its work. Then an inline script added to a page is refused, so the policy is really enforced.
    Screenshots: pages-csp-*.png."""
    ensure_debian_packages("chromium")
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    table = post_table(server, "Policy", ("human", "bot", "bot"), bot_delay=0)
    seat_link = server.url + table["links"][0]["url"]
    with watched_browser(server, expected="404 (Not Found)") as page:  # a CSP violation is a console error
        page.context.add_init_script(RECORD_VIOLATIONS)

        # the lobby: sets and tables load, a table is created through the form, its link copied
        answer = page.goto(server.url + "/")
        assert answer is not None and "script-src 'self'" in answer.headers["content-security-policy"]
        expect(page.locator("#set-deluxe")).to_be_checked()
        expect(page.locator("#tables")).to_contain_text("Policy")
        page.fill("#table-name", "Made under the policy")
        page.click("#create-table")
        expect(page.locator("#created-links")).to_contain_text("is ready")
        page.locator("#created-links button.copy").first.click()
        expect(page.locator("#created-links .copy-status").first).not_to_be_empty()
        page.screenshot(path=str(ARTIFACTS / "pages-csp-lobby.png"), full_page=True)
        no_violations(page, "lobby")

        # a table page: the WebSocket to this host connects and plays; the Level track's markers have
        # their seats' colours (set through the style object, not a style attribute); the Rules load
        page.goto(seat_link)
        expect(page.locator("#conn-status")).to_be_hidden()
        expect(page.locator("#you-name")).to_have_text("Human 1")
        expect(page.locator("#entropy-input")).to_have_value(re.compile(r"^[0-9a-f]{64}$"))  # the browser's own
        page.screenshot(path=str(ARTIFACTS / "pages-csp-before-the-deal.png"))
        page.click("#entropy-send")  # the fair table's cards are dealt once its person adds entropy
        expect(page.locator("#fair-notice")).to_be_visible()
        expect(page.locator("#hand .hand-card").first).to_be_visible()
        expect(page.locator("#level-track-board .track-marker")).to_have_count(3)
        colours = page.evaluate(
            "() => [...document.querySelectorAll('#level-track-board .track-marker')]"
            ".map((m) => getComputedStyle(m).getPropertyValue('--seat-colour').trim())"
        )
        assert len(set(colours)) == 3 and "#555" not in colours, colours  # #555: the style sheet's fallback
        page.screenshot(path=str(ARTIFACTS / "pages-csp-table.png"))
        page.click("#rules-button")
        expect(page.locator("#help-body")).to_contain_text("Munchkin Deluxe")
        page.screenshot(path=str(ARTIFACTS / "pages-csp-rules.png"))
        page.keyboard.press("Escape")
        no_violations(page, "table page")

        # a help page and the missing-table page: the server's own HTML
        page.goto(server.url + "/help/deluxe")
        expect(page.locator("main h1")).to_contain_text("Deluxe")
        page.screenshot(path=str(ARTIFACTS / "pages-csp-help.png"))
        no_violations(page, "help page")
        page.goto(server.url + "/table/doesnotexist")
        expect(page.locator("h1")).to_have_text("This table does not exist")
        no_violations(page, "missing-table page")

        # the policy is enforced: on a page of its own (its console is not watched), an inline script
        # added by hand is refused and reported
        browser = page.context.browser
        assert browser is not None
        probe = patient(browser.new_page())
        probe.add_init_script(RECORD_VIOLATIONS)
        probe.goto(server.url + "/help")
        probe.evaluate(INLINE_SCRIPT_JS)
        probe.wait_for_function("window.violations.length > 0")
        assert probe.evaluate("window.inlineRan") is None
        assert probe.evaluate("window.violations")[0].startswith("script-src-elem refused inline")
        probe.close()
