"""Project documents served as site pages (the record format, the rules as implemented).

The documents live in docs/ as Markdown and stay the one source. markdown-it-py renders them
(CommonMark with tables), with raw HTML off: an HTML tag in a document is shown as text, never
passed through. On top of it, three project rules: links between served documents become links
between their pages, other relative links (to code or to files outside docs/, or any scheme but
http and https) are shown as plain text, since the site does not serve them; headings carry an
id to link to; tables and fenced code wear the site's classes.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from markdown_it import MarkdownIt
from markdown_it.common.utils import escapeHtml
from markdown_it.rules_core import StateCore
from markdown_it.token import Token

DOCS_DIR = Path(__file__).resolve().parent.parent / "docs"

PageUrl = Callable[[str], str]


@dataclass(frozen=True)
class DocPage:
    slug: str
    file: str


# slug (the page address) -> the Markdown file in docs/
PAGES = {
    "record-format": DocPage("record-format", "game-records.md"),
    "rules": DocPage("rules", "rules.md"),
    "ratings": DocPage("ratings", "ratings.md"),
    "arranging": DocPage("arranging", "arranging.md"),
}
_BY_FILE = {page.file: page.slug for page in PAGES.values()}


def _relative_page(slug: str) -> str:
    return f"../{slug}/"


def _link_target(href: str, page_url: PageUrl) -> str | None:
    """Where a link of a document leads on the site, or None for a link shown as its text."""
    if href.startswith(("http://", "https://")):
        return href
    target, _, anchor = href.partition("#")
    slug = _BY_FILE.get(target) if target else None
    if slug is not None:
        return page_url(slug) + (f"#{anchor}" if anchor else "")
    if not target and anchor:
        return f"#{anchor}"
    return None


def _links(state: StateCore) -> None:
    """Every link goes where `_link_target` says, or becomes its text (the link tokens drop)."""
    page_url = state.env.get("page_url", _relative_page)
    for block in state.tokens:
        if block.type != "inline" or not block.children:
            continue
        kept: list[Token] = []
        dropped_closes: list[bool] = []  # per open link, innermost last: was it dropped?
        for token in block.children:
            if token.type == "link_open":
                target = _link_target(str(token.attrGet("href") or ""), page_url)
                dropped_closes.append(target is None)
                if target is None:
                    continue
                token.attrSet("href", target)
            elif token.type == "link_close" and dropped_closes.pop():
                continue
            kept.append(token)
        block.children = kept


def _anchor(title: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", title.lower().replace("`", "")).strip("-")


def _heading_ids(state: StateCore) -> None:
    """A heading's id is its text in lower case, words joined by hyphens."""
    for index, token in enumerate(state.tokens):
        if token.type == "heading_open":
            token.attrSet("id", _anchor(state.tokens[index + 1].content))


def _table_open(self, tokens, idx, options, env) -> str:
    return '<div class="table-wrap"><table class="table">\n'


def _table_close(self, tokens, idx, options, env) -> str:
    return "</table></div>\n"


def _fence(self, tokens, idx, options, env) -> str:
    token = tokens[idx]
    language = token.info.strip().split(maxsplit=1)[0] if token.info.strip() else ""
    css = f' class="language-{escapeHtml(language)}"' if language else ""
    code = token.content[:-1] if token.content.endswith("\n") else token.content
    return f'<pre class="json"><code{css}>{escapeHtml(code)}</code></pre>\n'


def _markdown() -> MarkdownIt:
    md = MarkdownIt("commonmark", {"html": False}).enable("table").disable("image")
    # Every link is judged by `_links` (a list of what may be a link), after parsing: the
    # parser's own check would leave a refused link as its bracketed source instead of its text.
    md.validateLink = lambda url: True
    md.core.ruler.push("tantrix_links", _links)
    md.core.ruler.push("tantrix_heading_ids", _heading_ids)
    md.add_render_rule("table_open", _table_open)
    md.add_render_rule("table_close", _table_close)
    md.add_render_rule("fence", _fence)
    return md


_MD = _markdown()


def inline(text: str, page_url: PageUrl = _relative_page) -> str:
    """One line of Markdown text to HTML (escaped)."""
    return _MD.renderInline(text, {"page_url": page_url})


def render(markdown: str, page_url: PageUrl = _relative_page) -> tuple[str, str]:
    """(title, HTML) of a document; the title is its first heading."""
    env = {"page_url": page_url}
    tokens = _MD.parse(markdown, env)
    title = next(
        (
            tokens[index + 1].content.replace("`", "")
            for index, token in enumerate(tokens)
            if token.type == "heading_open"
        ),
        "",
    )
    return title, _MD.renderer.render(tokens, _MD.options, env)


def page(slug: str, page_url: PageUrl) -> tuple[str, str] | None:
    """(title, HTML) of a served document, None for an unknown slug."""
    doc = PAGES.get(slug)
    if doc is None:
        return None
    return render((DOCS_DIR / doc.file).read_text(encoding="utf-8"), page_url)
