"""Every string a person reads is marked for translation, and every language's catalogue is
complete, compiled and up to date with the sources (issue 15). The lint itself is tested first on
small samples, so a lint that finds nothing cannot pass for a clean tree."""

from __future__ import annotations

from pathlib import Path

import pytest

from tantrix_site.i18n import lint


def _template(tmp_path: Path, text: str) -> list[str]:
    path = tmp_path / "templates" / "sample.html"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return [found.text for found in lint.unmarked_in_template(path)]


def _python(tmp_path: Path, text: str) -> list[str]:
    path = tmp_path / "sample.py"
    path.write_text(text, encoding="utf-8")
    return [found.text for found in lint.unmarked_in_python(path)]


def test_the_template_lint_finds_prose_and_readable_attributes_left_in_english(tmp_path):
    found = _template(
        tmp_path,
        '{% load i18n %}<h1>{% translate "Rankings" %}</h1>\n'
        "<p>The top {{ n }} players</p>\n"
        '<a title="Print the bracket" href="/x?a=b">{{ name }}</a>\n'
        '<input type="submit" value="Save"><button name="action" value="approve">'
        '{% translate "Approve" %}</button>\n'
        "{% blocktranslate with n=count %}Round {{ n }}{% endblocktranslate %}\n"
        "<script>const shown = 'not prose';</script><code>tantrix-game/1</code>"
        '<tr{% if won %} class="winner"{% endif %}><td>{{ tp }} TP</td></tr>'
        "{% comment %}Why this is here{% endcomment %}{# a note #}",
    )
    assert found == ["The top players", "Print the bracket", "Save"]


def test_the_python_lint_finds_bare_strings_where_a_reader_meets_them(tmp_path):
    found = _python(
        tmp_path,
        "from django.utils.translation import gettext_lazy as _\n"
        "raise ValidationError({'event': 'Registration is closed.', 'x': _('Marked.')})\n"
        "raise ValidationError(f'Match {n} is not yours.')\n"
        "raise ValidationError(_('Match %(n)s is not yours.') % {'n': n})\n"
        "messages.success(request, 'Saved.')\n"
        "Response({'detail': 'No such game.', 'code': 'NOT_FOUND'}, status=404)\n"
        "field = forms.CharField(label='Reason', help_text=_('Why.'), "
        "choices=[('a', 'Approve'), ('b', _('Reject'))])\n"
        "class Status(models.TextChoices):\n    DONE = 'done', 'Finished'\n"
        "    OPEN = 'open', _('Open')\n"
        "raise ValueError('an internal bug, not a reader\\'s message')\n"
        "logger.info('a log line')\n",
    )
    assert found == [
        "Registration is closed.",
        "f'Match {n} is not yours.'",
        "Saved.",
        "No such game.",
        "Reason",
        "Approve",
        "Finished",
    ]


def test_the_python_lint_finds_text_translated_once_at_import(tmp_path):
    found = _python(
        tmp_path,
        "from django.utils.translation import gettext as _, gettext_lazy\n"
        "HEADING = _('Rankings')\n"
        "class IsStaff:\n    message = _('Only staff.')\n    lazy = gettext_lazy('Fine.')\n"
        "def view():\n    return _('Fine at request time.')\n",
    )
    assert [text.split(": ", 1)[0] for text in found] == [
        "translated at import time (use gettext_lazy)"
    ] * 2


def test_every_string_a_person_reads_is_marked_for_translation():
    problems = [str(found) for found in lint.unmarked()]
    assert problems == [], "\n".join(problems[:50]) + f"\n({len(problems)} in all)"


def test_every_catalogue_is_complete_and_compiled():
    problems = lint.catalogue_problems()
    assert problems == [], "\n".join(problems[:50]) + f"\n({len(problems)} in all)"


@pytest.mark.django_db(databases=[])
def test_the_catalogues_hold_exactly_the_strings_marked_in_the_sources(tmp_path):
    """A string marked but not extracted (or extracted and since removed) is a catalogue out of
    date: `make messages` was not run after the change."""
    language = lint.translated_languages()[0]
    committed = lint.BASE_DIR / "locale" / language / "LC_MESSAGES" / "django.po"
    lint.extract(tmp_path, [language])
    fresh = tmp_path / language / "LC_MESSAGES" / "django.po"
    missing = lint.msgids(fresh) - lint.msgids(committed)
    stale = lint.msgids(committed) - lint.msgids(fresh)
    assert not missing and not stale, (
        f"run `make messages`: {len(missing)} new, e.g. {sorted(missing, key=str)[:5]}; "
        f"{len(stale)} no longer in the sources, e.g. {sorted(stale, key=str)[:5]}"
    )
