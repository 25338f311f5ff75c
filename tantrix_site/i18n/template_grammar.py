"""Template filters that follow the reader's language where Django's do not (a builtin library,
settings.TEMPLATES: no {% load %} needed).

`lower` replaces Django's own filter of that name everywhere: a Turkish word starting with "İ"
must lower to "i", not to "i" with a second dot (tantrix_site.i18n.grammar.lowercase)."""

from __future__ import annotations

from django import template
from django.template.defaultfilters import stringfilter

from tantrix_site.i18n.grammar import lowercase

register = template.Library()


@register.filter(is_safe=True)
@stringfilter
def lower(value: str) -> str:
    """The value in lower case, by the active language's rules."""
    return lowercase(value)
