"""The HTML shell every page the server writes itself shares (help, pages for addresses that lead
nowhere): one head, the site's style sheet, no favicon request."""

from __future__ import annotations

import html


def site_page(title: str, body_class: str, body: str) -> str:
    """A whole page: `body` (trusted HTML) in the site's head, titled `title` (escaped here)."""
    return f"""<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <title>{html.escape(title)}</title>
  <link rel="icon" href="data:,">
  <link rel="stylesheet" href="/static/style.css">
</head>
<body class="{html.escape(body_class)}">
{body}
</body>
</html>
"""
