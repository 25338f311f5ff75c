"""Forms for table opens, tie-breaks and round results. Each calls one service in `apply`."""

from __future__ import annotations

from typing import Any

from django import forms
from django.core.exceptions import ValidationError
from django.utils.translation import gettext, pgettext_lazy
from django.utils.translation import gettext_lazy as _

from games.score_sheet import ENDING_LABELS, MAX_MINUTES, MAX_SCORE, Ending
from players.models import Player
from players.types import User
from tantrix_site.http.forms import apply_service_errors
from tournaments.formats import tiebreaks
from tournaments.forms import ServiceForm
from tournaments.models import Championship, Entry, Event, Round
from tournaments.opens.services.score_sheets import TableResultsError, table_results_enter
from tournaments.opens.services.table_disputes import (
    table_result_dispute,
    table_result_reopen,
    table_result_rule,
)
from tournaments.opens.services.table_opens import (
    SYSTEM_LABELS,
    entry_drop,
    entry_late_add,
    table_open_create,
    table_open_start,
)
from tournaments.services.tiebreaks import event_tiebreaks_set
from tournaments.standings import Table, event_criteria, player_named

# The pure tie-break module holds English labels; they are translated when a form shows them.
CRITERION_CHOICES = [(c.key, _(c.label)) for c in tiebreaks.CRITERIA.values()]
MAX_TIEBREAKS = 6


class TieBreakFields(forms.Form):
    """The ordered list as up to six choices, "first", "then", ... (blanks are skipped)."""

    def add_criteria_fields(self, initial: tuple[str, ...]) -> None:
        for i in range(MAX_TIEBREAKS):
            self.fields[f"tiebreak_{i}"] = forms.ChoiceField(
                choices=[("", "—")] + CRITERION_CHOICES,
                required=i == 0,
                label=_("Ranked first on") if i == 0 else _("then on"),
                initial=initial[i] if i < len(initial) else "",
            )

    def criteria(self) -> list[str]:
        keys = [self.cleaned_data.get(f"tiebreak_{i}") for i in range(MAX_TIEBREAKS)]
        return [k for k in keys if k]


class TableOpenForm(ServiceForm, TieBreakFields):
    name = forms.CharField(
        max_length=120,
        initial=_("Table Open"),
        label=pgettext_lazy("the name of a championship, an event or a team", "Name"),
    )
    stage = forms.IntegerField(min_value=1, max_value=100, initial=1, label=_("Stage"))
    system = forms.ChoiceField(
        choices=list(SYSTEM_LABELS.items()),
        label=_("System"),
        help_text=_("Swiss rounds for large fields; a round robin for small ones."),
    )
    swiss_rounds = forms.IntegerField(
        min_value=0, max_value=50, initial=7, required=False, label=_("Swiss rounds")
    )

    def __init__(self, *args: Any, championship: Championship, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.championship = championship
        self.add_criteria_fields(tiebreaks.DEFAULT_CRITERIA)

    def apply(self, *, actor: User) -> Event | None:
        data = self.cleaned_data
        return self._call(
            table_open_create,
            actor=actor,
            championship=self.championship,
            name=data["name"],
            stage=data["stage"],
            system=data["system"],
            swiss_rounds=data.get("swiss_rounds") or 0,
            tiebreak_list=self.criteria(),
        )


class StartForm(ServiceForm):
    draw_seed = forms.IntegerField(
        required=False,
        min_value=0,
        max_value=2**62,
        label=_("Draw seed"),
        help_text=_("Optional: repeats a draw."),
    )

    def apply(self, *, actor: User, event: Event) -> Event | None:
        return self._call(
            table_open_start, actor=actor, event=event, draw_seed=self.cleaned_data["draw_seed"]
        )


class TieBreaksForm(ServiceForm, TieBreakFields):
    confirm = forms.BooleanField(
        required=False,
        label=_("Change them although the event has started"),
        help_text=_(
            "The players were told the tie-breaks before the start; the change is audited."
        ),
    )
    reason = forms.CharField(required=False, max_length=500, label=_("Reason"))

    def __init__(self, *args: Any, event: Event, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.event = event
        self.add_criteria_fields(event_criteria(event))

    def apply(self, *, actor: User) -> Event | None:
        try:
            return event_tiebreaks_set(
                actor=actor,
                event=self.event,
                criteria=self.criteria(),
                confirm=self.cleaned_data["confirm"],
                reason=self.cleaned_data["reason"],
            )
        except ValidationError as exc:
            apply_service_errors(self, exc, fields={"tiebreaks": "tiebreak_0"})
            return None


class LateEntryForm(ServiceForm):
    player = forms.CharField(max_length=40, label=_("Player (name or id)"))

    def clean_player(self) -> Player:
        text = self.cleaned_data["player"].strip()
        player = player_named(text)
        if player is None:
            raise ValidationError(gettext("No player is named %(name)s.") % {"name": repr(text)})
        return player

    def apply(self, *, actor: User, event: Event) -> Entry | None:
        return self._call(
            entry_late_add, actor=actor, event=event, player=self.cleaned_data["player"]
        )


class DropForm(ServiceForm):
    reason = forms.CharField(required=False, max_length=500, label=_("Reason"))

    def apply(self, *, actor: User, entry: Entry) -> Entry | None:
        return self._call(entry_drop, actor=actor, entry=entry, reason=self.cleaned_data["reason"])


class SheetFields(forms.Form):
    """A score sheet's fields, all optional: blank means "not entered" (or, in a ruling, "the
    typed result stands")."""

    score_a = forms.CharField(required=False, max_length=6, label=_("Score A"))
    score_b = forms.CharField(required=False, max_length=6, label=_("Score B"))
    ending = forms.ChoiceField(
        required=False, choices=[(e.value, ENDING_LABELS[e]) for e in Ending], label=_("Ending")
    )
    conceded_by = forms.ChoiceField(
        required=False,
        # "A" and "B" name the sheet's columns (Player A, Player B): letters, not words.
        choices=[("", "—"), ("a", "A"), ("b", "B")],
        label=_("Resigned or lost on time"),
    )
    minutes_a = forms.CharField(required=False, max_length=6, label=_("Minutes A"))
    minutes_b = forms.CharField(required=False, max_length=6, label=_("Minutes B"))

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        for name in ("score_a", "score_b"):
            self.fields[name].widget.attrs.update(inputmode="numeric", size=3, max=MAX_SCORE)
        for name in ("minutes_a", "minutes_b"):
            self.fields[name].widget.attrs.update(inputmode="numeric", size=3, max=MAX_MINUTES)

    def sheet(self) -> dict[str, Any] | None:
        fields = {k: self.cleaned_data.get(k) for k in SheetFields.base_fields}
        data = {k: v for k, v in fields.items() if v not in ("", None)}
        if not data.keys() - {"ending"}:
            return None
        return fields


class SheetForm(SheetFields):
    """One table's score sheet on a round's results page."""

    def __init__(self, *args: Any, table: Table, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.table = table


class DisputeForm(ServiceForm):
    reason = forms.CharField(
        max_length=2000,
        widget=forms.Textarea(attrs={"rows": 3}),
        label=_("Reason"),
        help_text=_("What the signed sheet says, and what was typed."),
    )

    def apply(self, *, actor: User, match_id: int) -> Any:
        return self._call(
            table_result_dispute, actor=actor, match_id=match_id, reason=self.cleaned_data["reason"]
        )


class RuleForm(SheetFields, ServiceForm):
    """A controller's ruling: the reason, and the corrected sheet (blank: the result stands)."""

    reason = forms.CharField(
        max_length=2000, widget=forms.Textarea(attrs={"rows": 3}), label=_("Reason")
    )

    def apply(self, *, actor: User, match_id: int) -> Any:
        return self._call(
            table_result_rule,
            actor=actor,
            match_id=match_id,
            reason=self.cleaned_data["reason"],
            sheet=self.sheet(),
        )


class ReopenForm(ServiceForm):
    reason = forms.CharField(
        max_length=2000, widget=forms.Textarea(attrs={"rows": 3}), label=_("Reason")
    )

    def apply(self, *, actor: User, match_id: int) -> Any:
        return self._call(
            table_result_reopen, actor=actor, match_id=match_id, reason=self.cleaned_data["reason"]
        )


def sheet_forms(data: Any, tables: list[Table]) -> list[SheetForm]:
    forms_ = []
    for table in tables:
        if table.match.is_bye:
            continue
        initial = {}
        if table.result is not None:
            r = table.result
            initial = {
                "score_a": r.score_a,
                "score_b": r.score_b,
                "ending": r.ending,
                "conceded_by": ("a", "b")[r.conceded_by] if r.conceded_by is not None else "",
                "minutes_a": r.minutes_a,
                "minutes_b": r.minutes_b,
            }
        forms_.append(SheetForm(data, table=table, prefix=f"t{table.number}", initial=initial))
    return forms_


def round_results_apply(*, actor: User, round_: Round, forms_: list[SheetForm]) -> bool:
    """Enter every filled-in table at once; on refusal put each table's messages on its form."""
    if not all(f.is_valid() for f in forms_):
        return False
    sheets = {f.table.number: s for f in forms_ if (s := f.sheet()) is not None}
    by_table = {str(f.table.number): f for f in forms_}
    try:
        table_results_enter(actor=actor, round_=round_, sheets=sheets)
    except TableResultsError as exc:
        for table, errors in exc.errors.items():
            form = by_table.get(table) or (forms_[0] if forms_ else None)
            if form is None:
                continue
            if isinstance(errors, dict):
                for field, messages in errors.items():
                    form.add_error(field if field in form.fields else None, messages)
            else:
                form.add_error(None, errors)
        return False
    return True
