"""Rules help in our own words, per edition, and the action notation, as HTML pages.

The texts are Markdown files shipped in this package: `core.md` (what every edition shares), one
file per edition (its own cards and rules; lists of its Races, Classes, Houses... are filled in
from the card data, so they never go stale) and `notation.md` (a copy of docs/notation.md).
"""

from __future__ import annotations

import html
import re
from functools import cache, lru_cache
from importlib import resources

from markdown_it import MarkdownIt

from munchkin.cards.loader import load_set, set_dirs, when_sets_change
from munchkin.webpage import site_page

__all__ = ["EDITIONS", "HelpNotFound", "help_page", "not_found_page", "rules_markdown"]

# set id -> the file of that edition's own rules; the order of the help index
EDITIONS: dict[str, str] = {
    "deluxe": "deluxe.md",
    "star": "star.md",
    "good-bad": "good-bad.md",
    "harry-potter": "harry-potter.md",
}
NOTATION = "notation"
MAX_EDITIONS_IN_PATH = len(EDITIONS)

_PLACEHOLDER = re.compile(r"\{\{(cards:[a-z_]+|houses)\}\}")
_HEADING = re.compile(r"<(h[1-6])>(.*?)</\1>", re.S)


class HelpNotFound(LookupError):
    """A help page that does not exist; the message says what does."""


def _text(name: str) -> str:
    return (resources.files(__name__) / name).read_text(encoding="utf-8")


@cache
def _edition_markdown(edition: str) -> str:
    """An edition's own file with its card lists filled in from the card data."""
    cards = load_set(edition)

    def fill(m: re.Match[str]) -> str:
        what = m.group(1)
        if what == "houses":
            return "\n".join(f"  - **{h.name}:** {h.text.removeprefix('House. ')}" for h in cards.houses)
        kind = what.split(":", 1)[1]
        names = sorted({c.name for c in cards.cards if c.kind == kind})
        return ", ".join(names) if names else "none"

    return _PLACEHOLDER.sub(fill, _text(EDITIONS[edition]))


def edition_title(edition: str) -> str:
    """The edition's name, from the first line of its help file."""
    first = _text(EDITIONS[edition]).splitlines()[0]
    return first.removeprefix("# ").strip()


def rules_markdown(editions: list[str]) -> str:
    """The rules for a game with these editions: the shared core, then what each edition adds."""
    parts = ["## How to use this help", _INTRO, _text("core.md")]
    for e in editions:
        own = _edition_markdown(e)
        # the edition's title becomes a section, its sections subsections
        own = re.sub(r"^(#+) ", lambda m: "#" + m.group(1) + " ", own, flags=re.M)
        own = own.replace(f"## {edition_title(e)}", f"## What {edition_title(e)} adds", 1)
        parts.append(own)
    return "\n\n".join(parts)


_INTRO = (
    "A summary of the rules in our own words; the printed rulebooks are the reference. When a card "
    "says something different from these rules, the card wins. Any card name on the table opens the "
    "card's full text. The moves you may make right now are always listed under *Your moves*, and a ✓ on a "
    "card means one of them uses it. Moves can also be typed, in the words of the "
    "[action notation](/help/notation)."
)


@cache
def _md() -> MarkdownIt:
    return MarkdownIt("commonmark", {"html": False, "typographer": False}).enable("table")


def _with_ids(body: str, prefix: str) -> tuple[str, list[tuple[str, str]]]:
    """Give every h2/h3 an id (for links); returns the HTML and the (id, text) of each h2."""
    seen: dict[str, int] = {}
    toc: list[tuple[str, str]] = []

    def name(m: re.Match[str]) -> str:
        tag, inner = m.group(1), m.group(2)
        if tag not in ("h2", "h3"):
            return m.group(0)
        plain = re.sub(r"<[^>]+>", "", inner)
        slug = prefix + (re.sub(r"[^a-z0-9]+", "-", html.unescape(plain).lower()).strip("-") or "section")
        seen[slug] = seen.get(slug, 0) + 1
        if seen[slug] > 1:
            slug = f"{slug}-{seen[slug]}"
        if tag == "h2":
            toc.append((slug, plain))
        return f'<{tag} id="{slug}">{inner}</{tag}>'

    return _HEADING.sub(name, body), toc


def _wrap_tables(body: str) -> str:
    """Tables scroll sideways inside their own box on a narrow screen instead of widening the page."""
    return body.replace("<table>", '<div class="table-scroll" tabindex="0"><table>').replace(
        "</table>", "</table></div>"
    )


def _page(title: str, heading: str, article: str, toc: list[tuple[str, str]], current: str) -> str:
    links = (
        [("/help", "All editions", "")]
        + [(f"/help/{e}", edition_title(e), e) for e in EDITIONS]
        + [("/help/notation", "Action notation", NOTATION)]
    )
    here = ' aria-current="page"'
    nav = "".join(
        f'<li><a href="{href}"{here if key == current else ""}>{html.escape(text)}</a></li>'
        for href, text, key in links
    )
    contents = ""
    if len(toc) > 1:
        items = "".join(f'<li><a href="#{i}">{t}</a></li>' for i, t in toc)
        contents = f'<nav class="help-toc" aria-label="On this page"><h2>On this page</h2><ol>{items}</ol></nav>'
    return site_page(
        title,
        "help-page",
        f"""  <a class="skip-link" href="#help-main">Skip to the rules</a>
  <header class="site-header help-header">
    <p><a href="/" class="back-link">← Lobby</a></p>
    <nav aria-label="Rules help"><ul class="help-nav">{nav}</ul></nav>
  </header>
  <main id="help-main" class="help-main" tabindex="-1">
    <h1>{heading}</h1>
    {contents}
    <article class="help-doc">{article}</article>
  </main>""",
    )


def _index() -> str:
    items = "".join(f'<li><a href="/help/{e}">{html.escape(edition_title(e))}</a></li>' for e in EDITIONS)
    article = (
        "<p>Pick the edition you play. A table that mixes editions shows the shared rules once and "
        "then what each of its editions adds: the <strong>Rules</strong> button on the table opens exactly "
        "that.</p>"
        f'<ul class="help-editions">{items}</ul>'
        '<p>Typing moves instead of clicking them? The <a href="/help/notation">action notation</a> lists '
        "every form the game understands.</p>"
    )
    return _page("Munchkin — rules help", "Rules help", article, [], "")


@lru_cache(maxsize=128)  # a miss raises and is never cached; the hits are a few dozen pages
def help_page(path: str) -> str:
    """The page at /help/{path}: "" (the index), "notation", or editions joined by commas
    ("star,deluxe"); raises HelpNotFound for anything else."""
    path = path.strip().strip("/")
    if not path:
        return _index()
    if path == NOTATION:
        body, toc = _with_ids(_wrap_tables(_md().render(_text("notation.md"))), "")
        body = re.sub(r"<h1[^>]*>.*?</h1>", "", body, count=1, flags=re.S)  # the page has its own h1
        return _page("Munchkin — action notation", "The action notation", body, toc, NOTATION)
    editions = [e.strip() for e in path.split(",")]
    designed = [e for e in editions if e not in EDITIONS and e in set_dirs()]  # has no rules of its own here
    unknown = [e for e in editions if e not in EDITIONS and e not in designed]
    if unknown or len(editions) > MAX_EDITIONS_IN_PATH or len(set(editions)) != len(editions):
        shown = ", ".join(repr(e[:40]) for e in unknown) or repr(path[:80])
        raise HelpNotFound(
            f"there is no rules help for {shown}: the editions are {', '.join(EDITIONS)} "
            "(several may be joined with commas), and the notation is at /help/notation"
        )
    names = " + ".join(edition_title(e) if e in EDITIONS else load_set(e).title for e in editions)
    editions = [e for e in editions if e not in designed]  # a designer's own set: the shared rules
    body, toc = _with_ids(_md().render(rules_markdown(editions)), "")
    current = editions[0] if len(editions) == 1 and not designed else ""
    return _page(f"Munchkin — rules: {names}", f"Rules: {html.escape(names)}", body, toc, current)


def not_found_page(message: str) -> str:
    """A page for a help address that does not exist, with the way back."""
    article = f'<p class="alert" role="alert">{html.escape(message[:1].upper() + message[1:])}.</p>'
    return _page("Munchkin — no such rules page", "No such rules page", article + _index_links(), [], "")


def _index_links() -> str:
    return '<p><a href="/help">See every edition\'s rules</a> or go back to the <a href="/">lobby</a>.</p>'


# the pages list an edition's cards: a designer's set folder that replaces the edition changes them
when_sets_change(_edition_markdown.cache_clear)
when_sets_change(help_page.cache_clear)
