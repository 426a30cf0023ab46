"""Small HTML pages a browser gets instead of raw JSON when an address leads nowhere."""

from __future__ import annotations

import html

from munchkin.webpage import site_page

MAX_SHOWN = 80  # an address is shown cut to this many characters: it comes from whoever typed it


def _shown(text: str) -> str:
    """A piece of an address, cut and escaped, to quote on a page."""
    cut = text if len(text) <= MAX_SHOWN else text[:MAX_SHOWN] + "…"
    return html.escape(cut)


def error_page(title: str, heading: str, message_html: str) -> str:
    """A page in the site's style (static/style.css) with one message and the way to the lobby."""
    return site_page(
        title,
        "error-page",
        f"""  <header class="site-header">
    <p class="site-title"><span class="logo" aria-hidden="true">⚔</span> Munchkin</p>
  </header>
  <main class="missing-page">
    <section class="panel" aria-labelledby="missing-heading">
      <h1 id="missing-heading">{html.escape(heading)}</h1>
      <p>{message_html}</p>
      <p><a class="button-link" id="to-lobby" href="/">Go to the lobby</a></p>
    </section>
  </main>""",
    )


def table_missing_page(table_id: str) -> str:
    """/table/ID for a table that does not exist (never created, mistyped, or expired)."""
    return error_page(
        "Munchkin — no such table",
        "This table does not exist",
        f"There is no table <code>{_shown(table_id)}</code> on this server. The link may be mistyped, or "
        "the table may have expired after standing idle. The lobby lists the tables there are, and you "
        "can create a new one there.",
    )


def page_missing_page(path: str) -> str:
    """Any other address that is not a page of this site."""
    return error_page(
        "Munchkin — no such page",
        "There is no such page",
        f"Nothing lives at <code>{_shown(path)}</code> on this server.",
    )


def page_error_page(status: int, detail: str) -> str:
    """A page for another refusal of a page address (the detail is the server's own words)."""
    return error_page(f"Munchkin — error {status}", f"That did not work (error {status})", _shown(detail))
