"""A notice names what it is about (a kind and an id) instead of storing an address: the link
is built when the notice is shown (players.notices.links). The addresses stored so far become
the kind and id their page shows."""

from urllib.parse import urlsplit

from django.db import migrations, models
from django.urls import NoReverseMatch, Resolver404, resolve, reverse

# The two pages notices linked to before: URL name -> kind (as games and tournaments register).
KINDS = {"reported-game-detail": "reported_game", "open-table-result": "open_table"}


def about_from_url(apps, schema_editor):
    Notice = apps.get_model("players", "Notice")
    for notice in Notice.objects.exclude(url="").only("pk", "url").iterator():
        try:
            page = resolve(urlsplit(notice.url).path)
        except Resolver404:
            continue  # an address no page answers: the notice keeps its text, without a link
        kind = KINDS.get(page.url_name)
        if kind is not None and "pk" in page.kwargs:
            Notice.objects.filter(pk=notice.pk).update(about=kind, about_id=page.kwargs["pk"])


def url_from_about(apps, schema_editor):
    Notice = apps.get_model("players", "Notice")
    names = {kind: name for name, kind in KINDS.items()}
    for notice in Notice.objects.exclude(about="").only("pk", "about", "about_id").iterator():
        if notice.about not in names or notice.about_id is None:
            continue
        try:
            url = reverse(names[notice.about], args=[notice.about_id])
        except NoReverseMatch:
            continue
        Notice.objects.filter(pk=notice.pk).update(url=url)


class Migration(migrations.Migration):
    dependencies = [("players", "0010_api_tokens")]

    operations = [
        migrations.AddField(
            model_name="notice",
            name="about",
            field=models.CharField(blank=True, max_length=40),
        ),
        migrations.AddField(
            model_name="notice",
            name="about_id",
            field=models.PositiveBigIntegerField(blank=True, null=True),
        ),
        migrations.RunPython(about_from_url, url_from_about),
        migrations.RemoveField(model_name="notice", name="url"),
    ]
