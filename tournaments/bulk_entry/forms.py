"""The two steps of a bulk entry: the list (pasted or a CSV file), then the choices."""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext

from tournaments.bulk_entry.matching import MAX_LINES, Line, TooManyLines, parse_csv, parse_pasted
from tournaments.bulk_entry.selectors import country_codes
from tournaments.bulk_entry.services import Choice

CSV_MAX_BYTES = 200_000


class ListForm(forms.Form):
    names = forms.CharField(
        required=False,
        widget=forms.Textarea(attrs={"rows": 10}),
        label=_("Names, one a line"),
        help_text=_('Optionally a comma and the country code after the name: "Ana Kovač, HR".'),
    )
    csv_file = forms.FileField(
        required=False,
        label=_("Or a CSV file"),
        help_text=_('A "name" column and optionally a "country" column (or the first two).'),
    )

    def clean(self):
        data = super().clean()
        upload = data.get("csv_file")
        try:
            if upload is not None:
                if upload.size > CSV_MAX_BYTES:
                    raise forms.ValidationError(
                        _("The file is too large (up to 200 KB)."), code="too_large"
                    )
                try:
                    text = upload.read().decode("utf-8-sig")
                except UnicodeDecodeError:
                    raise forms.ValidationError(
                        _("The file is not UTF-8 text: save it as CSV (UTF-8) and try again."),
                        code="encoding",
                    ) from None
                lines = parse_csv(text)
            else:
                lines = parse_pasted(data.get("names") or "", country_codes())
        except TooManyLines:
            raise forms.ValidationError(
                ngettext(
                    "Up to %(count)s line at once.", "Up to %(count)s lines at once.", MAX_LINES
                )
                % {"count": MAX_LINES},
                code="too_many",
            ) from None
        if not lines:
            raise forms.ValidationError(_("Paste some names or choose a CSV file."), code="empty")
        data["lines"] = lines
        return data


def choices_posted(post) -> tuple[list[Line], list[Choice], dict[int, str], dict[int, list[str]]]:
    """The confirmation page's rows: the lines, the organiser's choices, what each row had
    chosen (to show it again) and the rows left unanswered."""
    try:
        count = min(int(post.get("count", "0")), MAX_LINES)
    except ValueError:
        count = 0
    lines, choices, chosen, missing = [], [], {}, {}
    for i in range(count):
        try:
            number = int(post.get(f"line_{i}", ""))
        except ValueError:
            continue
        name = " ".join(post.get(f"name_{i}", "").split())[:40]
        country = post.get(f"country_{i}", "").strip().upper()[:2]
        choice = post.get(f"choice_{i}", "")
        line = Line(number, name, country)
        lines.append(line)
        chosen[number] = choice
        if choice == "skip":
            choices.append(Choice(line=number, name=name, country=country))
        elif choice == "new":
            choices.append(Choice(line=number, name=name, country=country, create=True))
        elif choice.startswith("p") and choice[1:].isdigit():
            choices.append(Choice(line=number, name=name, player_id=int(choice[1:])))
        else:
            missing[number] = [
                str(_("Choose a player for this line, a new player, or leave it out."))
            ]
    return lines, choices, chosen, missing
