"""The match page's arrangement panel (issue 30): `{% match_arrangement match %}` draws
`tournaments/_match_arrangement.html` for the reader, so the match page's template needs one
line (its other forms belong to other rooms)."""

from __future__ import annotations

from typing import Any

from django import template

from tournaments.arrangements.pages import arrangement_panel

register = template.Library()


@register.inclusion_tag("tournaments/_match_arrangement.html", takes_context=True)
def match_arrangement(context: template.Context, match: Any) -> dict[str, Any]:
    request = context.get("request")
    user = getattr(request, "user", None) or context.get("user")
    panel = arrangement_panel(user, match)
    panel["csrf_token"] = context.get("csrf_token")
    return panel
