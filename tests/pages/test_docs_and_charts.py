"""The document pages' Markdown (markdown-it-py with the site's rules) and the rating chart's
geometry (no database)."""

from __future__ import annotations

from ratings.history.charts import line_chart, nice_step
from tantrix_site.docs_pages import PAGES, inline, page, render


def test_markdown_escapes_html_and_renders_the_documents_elements():
    title, html = render(
        "# Title `x`\n\nSome <b>text</b> with **bold**, *em* and `a<b>`.\n\n"
        "- one\n  continued\n- two\n\n1. first\n\n| a | b |\n|---|---|\n| `c` | d |\n\n"
        '```json\n{"k": "<v>"}\n```\n\n<div onclick="steal()">a block of HTML</div>\n'
    )
    assert title == "Title x"
    assert '<h1 id="title-x">Title <code>x</code></h1>' in html
    assert "&lt;b&gt;text&lt;/b&gt;" in html and "<strong>bold</strong>" in html
    assert "<em>em</em>" in html and "<code>a&lt;b&gt;</code>" in html
    assert "<ul>\n<li>one\ncontinued</li>\n<li>two</li>\n</ul>" in html
    assert "<ol>\n<li>first</li>\n</ol>" in html
    assert '<div class="table-wrap"><table class="table">' in html
    assert "<th>a</th>" in html and "<td><code>c</code></td>" in html
    assert (
        '<pre class="json"><code class="language-json">'
        "{&quot;k&quot;: &quot;&lt;v&gt;&quot;}</code></pre>" in html
    )
    # No HTML of the document passes through, inline or as a block.
    assert "<div onclick" not in html and "&lt;div onclick=&quot;steal()&quot;&gt;" in html


def test_links_to_served_documents_become_pages_and_others_text():
    url = lambda slug: f"/docs/{slug}/"  # noqa: E731
    assert inline("[rules](rules.md)", url) == '<a href="/docs/rules/">rules</a>'
    assert inline("[r](rules.md#r1)", url) == '<a href="/docs/rules/#r1">r</a>'
    assert inline("[here](#r1)", url) == '<a href="#r1">here</a>'
    assert inline("[code](../games/engine/board.py)", url) == "code"
    assert inline("[site](https://example.org/)", url) == '<a href="https://example.org/">site</a>'
    assert inline("[x](javascript:alert)", url) == "x"
    assert inline("[x](//elsewhere.example/)", url) == "x"
    assert inline("![a picture](board.png)", url) == "!a picture"


def test_the_served_documents_render_as_the_site_shows_them():
    for slug in PAGES:
        title, html = page(slug, lambda other: f"/docs/{other}/")
        assert title and html.startswith("<h1 id=")
        assert "<blockquote>" not in html  # a line that starts ">=" is text, not a quote
    _, record_format = page("record-format", lambda other: f"/docs/{other}/")
    assert '<a href="/docs/rules/">' in record_format


def test_nice_steps():
    assert nice_step(100) == 20
    assert nice_step(7) == 2
    assert nice_step(0.3) == 0.1
    assert nice_step(0) == 1.0


def test_chart_has_axes_ticks_and_a_dot_per_value():
    chart = line_chart([500, 512.5, 507.0], labels=["1 Jan 2026", "2 Jan 2026", "3 Jan 2026"])
    assert [t.label for t in chart.y_ticks] == ["500", "505", "510", "515"]
    assert chart.y_ticks[0].at == chart.bottom and chart.y_ticks[-1].at == chart.top
    assert [t.label for t in chart.x_ticks] == ["1 Jan 2026", "2 Jan 2026", "3 Jan 2026"]
    assert [d.label for d in chart.dots] == [
        "1 Jan 2026: 500.0",
        "2 Jan 2026: 512.5",
        "3 Jan 2026: 507.0",
    ]
    assert chart.dots[0].x == chart.left and chart.dots[-1].x == chart.right


def test_one_value_and_many_values():
    single = line_chart([500.0], labels=["1 Jan 2026"])
    assert single.count == 1 and len(single.dots) == 1 and len(single.y_ticks) >= 2
    assert line_chart([]) is None
    many = line_chart([float(i % 7) for i in range(1000)])
    assert len(many.x_ticks) == 5 and len(many.dots) <= 151
    assert many.dots[-1].label.startswith("1000:")
