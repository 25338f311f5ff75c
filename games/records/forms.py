from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy as _

from games.records.envelope import ReceivedBody, body_receive


class RecordSubmitForm(forms.Form):
    record = forms.CharField(
        required=False,
        label=_("Record"),
        widget=forms.Textarea(
            attrs={"rows": 14, "placeholder": '{"format": "tantrix-game/1", ...}'}
        ),
        help_text=_("Paste the game record (JSON), or upload the file below."),
    )
    record_file = forms.FileField(required=False, label=_("Record file"))
    match = forms.IntegerField(
        required=False,
        widget=forms.HiddenInput,
        help_text=_("The tournament match this game is for."),
    )

    def clean(self):
        data = super().clean()
        if not data.get("record") and not data.get("record_file"):
            raise forms.ValidationError(_("Paste a game record or choose a record file."))
        return data

    def record_body(self) -> ReceivedBody:
        upload = self.cleaned_data.get("record_file")
        if upload is not None:
            return body_receive(upload, declared_size=upload.size)
        return ReceivedBody.of(self.cleaned_data["record"].encode("utf-8"))
