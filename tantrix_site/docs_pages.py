"""Project documents served as site pages (the record format, the rules as implemented).

The documents live in docs/ as Markdown and stay the one source. This renders the subset of
Markdown they use (headings, paragraphs, lists, tables, fenced code, inline code, bold, italic,
links) to HTML, escaping everything else, so the site needs no Markdown library at run time.
Links between served documents become links between their pages; other relative links (to code
or to files outside docs/) are shown as plain text, since the site does not serve them.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from html import escape
from pathlib import Path

DOCS_DIR = Path(__file__).resolve().parent.parent / "docs"


@dataclass(frozen=True)
class DocPage:
    slug: str
    file: str


# slug (the page address) -> the Markdown file in docs/
PAGES = {
    "record-format": DocPage("record-format", "game-records.md"),
    "rules": DocPage("rules", "rules.md"),
}
_BY_FILE = {page.file: page.slug for page in PAGES.values()}

_INLINE = re.compile(
    r"`(?P<code>[^`]+)`"
    r"|\*\*(?P<bold>.+?)\*\*"
    r"|(?<![\w*])\*(?P<em>[^*\s][^*]*?)\*(?![\w*])"
    r"|\[(?P<text>[^\]]+)\]\((?P<href>[^)\s]+)\)"
)


def _link(href: str, text: str, page_url) -> str:
    if href.startswith(("http://", "https://")):
        return f'<a href="{escape(href)}">{text}</a>'
    target, _, anchor = href.partition("#")
    slug = _BY_FILE.get(target) if target else None
    if slug is not None:
        return (
            f'<a href="{escape(page_url(slug))}{"#" + escape(anchor) if anchor else ""}">{text}</a>'
        )
    if not target and anchor:
        return f'<a href="#{escape(anchor)}">{text}</a>'
    return text


def inline(text: str, page_url=lambda slug: f"../{slug}/") -> str:
    """One line of Markdown text to HTML (escaped)."""
    out, last = [], 0
    for match in _INLINE.finditer(text):
        out.append(escape(text[last : match.start()]))
        if match["code"] is not None:
            out.append(f"<code>{escape(match['code'])}</code>")
        elif match["bold"] is not None:
            out.append(f"<strong>{inline(match['bold'], page_url)}</strong>")
        elif match["em"] is not None:
            out.append(f"<em>{inline(match['em'], page_url)}</em>")
        else:
            out.append(_link(match["href"], inline(match["text"], page_url), page_url))
        last = match.end()
    out.append(escape(text[last:]))
    return "".join(out)


def _anchor(title: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", title.lower().replace("`", "")).strip("-")


def _cells(row: str) -> list[str]:
    return [cell.strip() for cell in row.strip().strip("|").split("|")]


def render(markdown: str, page_url=lambda slug: f"../{slug}/") -> tuple[str, str]:
    """(title, HTML) of a document; the title is its first heading."""
    lines = markdown.splitlines()
    html: list[str] = []
    title = ""
    para: list[str] = []
    items: list[str] = []
    list_tag = ""

    def flush() -> None:
        nonlocal list_tag
        if para:
            html.append(f"<p>{inline(' '.join(para), page_url)}</p>")
            para.clear()
        if items:
            html.append(
                f"<{list_tag}>" + "".join(f"<li>{i}</li>" for i in items) + f"</{list_tag}>"
            )
            items.clear()
            list_tag = ""

    i = 0
    while i < len(lines):
        line = lines[i]
        stripped = line.strip()
        if stripped.startswith("```"):
            flush()
            language = stripped[3:].strip()
            code = []
            i += 1
            while i < len(lines) and not lines[i].strip().startswith("```"):
                code.append(lines[i])
                i += 1
            css = f' class="language-{escape(language)}"' if language else ""
            html.append(f'<pre class="json"><code{css}>{escape(chr(10).join(code))}</code></pre>')
        elif heading := re.match(r"^(#{1,6})\s+(.*)$", line):
            flush()
            level = len(heading[1])
            text = heading[2].strip()
            title = title or re.sub(r"`", "", text)
            html.append(f'<h{level} id="{_anchor(text)}">{inline(text, page_url)}</h{level}>')
        elif (
            stripped.startswith("|")
            and i + 1 < len(lines)
            and re.match(r"^\s*\|[\s:|-]+\|\s*$", lines[i + 1])
        ):
            flush()
            head = _cells(line)
            rows = []
            i += 2
            while i < len(lines) and lines[i].strip().startswith("|"):
                rows.append(_cells(lines[i]))
                i += 1
            i -= 1
            html.append(
                '<div class="table-wrap"><table class="table"><thead><tr>'
                + "".join(f"<th>{inline(c, page_url)}</th>" for c in head)
                + "</tr></thead><tbody>"
                + "".join(
                    "<tr>" + "".join(f"<td>{inline(c, page_url)}</td>" for c in row) + "</tr>"
                    for row in rows
                )
                + "</tbody></table></div>"
            )
        elif item := re.match(r"^(-|\*|\d+\.)\s+(.*)$", line):
            tag = "ol" if item[1][0].isdigit() else "ul"
            if para or (items and tag != list_tag):
                flush()
            list_tag = tag
            text = [item[2]]
            while i + 1 < len(lines) and lines[i + 1].startswith("  ") and lines[i + 1].strip():
                i += 1
                text.append(lines[i].strip())
            items.append(inline(" ".join(text), page_url))
        elif not stripped:
            flush()
        else:
            if items:
                flush()
            para.append(stripped)
        i += 1
    flush()
    return title, "\n".join(html)


def page(slug: str, page_url) -> tuple[str, str] | None:
    """(title, HTML) of a served document, None for an unknown slug."""
    doc = PAGES.get(slug)
    if doc is None:
        return None
    return render((DOCS_DIR / doc.file).read_text(encoding="utf-8"), page_url)
