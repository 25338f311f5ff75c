"""A notice names what it is about; its link is built when it is shown (players.notices.links),
so the services that send notices build no address."""

from __future__ import annotations

import pytest
from django.core import mail
from django.db import connection
from django.db.migrations.executor import MigrationExecutor
from django.urls import reverse

from players.models import Notice
from players.notices.links import notice_link, register_notice_page
from players.notices.services import notice_send
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db


def test_a_notice_about_a_registered_kind_links_to_its_page(django_capture_on_commit_callbacks):
    user = UserFactory(email="tomas@example.org")
    with django_capture_on_commit_callbacks(execute=True):
        notice = notice_send(user=user, text="Look.", about="reported_game", about_id=7)
    assert (notice.about, notice.about_id) == ("reported_game", 7)
    assert notice_link(notice) == reverse("reported-game-detail", args=[7])
    assert mail.outbox[0].body == "Look.\n\n" + reverse("reported-game-detail", args=[7])


def test_a_notice_about_nothing_has_no_link_and_its_email_is_the_text(
    django_capture_on_commit_callbacks,
):
    user = UserFactory(email="tomas@example.org")
    with django_capture_on_commit_callbacks(execute=True):
        notice = notice_send(user=user, text="Just so you know.")
    assert notice_link(notice) == ""
    assert mail.outbox[0].body == "Just so you know."


def test_a_kind_no_app_registered_is_refused_and_nothing_is_stored():
    with pytest.raises(ValueError, match="no page"):
        notice_send(user=UserFactory(), text="?", about="no_such_kind", about_id=1)
    assert not Notice.objects.exists()


def test_a_kind_links_to_one_page():
    register_notice_page("reported_game", "reported-game-detail")  # the same again: fine
    with pytest.raises(ValueError, match="already link"):
        register_notice_page("reported_game", "record-detail")


LAST_WITH_URL = [("players", "0010_api_tokens")]


@pytest.mark.django_db(transaction=True)
def test_stored_addresses_become_what_their_notices_are_about():
    user = UserFactory()
    executor = MigrationExecutor(connection)
    executor.migrate(LAST_WITH_URL)
    old = executor.loader.project_state(LAST_WITH_URL).apps.get_model("players", "Notice")
    for url in ("/games/reports/12/", "/championships/tables/34/", "/players/", ""):
        old.objects.create(user_id=user.pk, text=url or "nothing", url=url)

    executor = MigrationExecutor(connection)
    executor.migrate(executor.loader.graph.leaf_nodes())

    about = dict(Notice.objects.values_list("text", "about"))
    assert about == {
        "/games/reports/12/": "reported_game",
        "/championships/tables/34/": "open_table",
        "/players/": "",
        "nothing": "",
    }
    links = {notice.text: notice_link(notice) for notice in Notice.objects.all()}
    assert links["/games/reports/12/"] == "/games/reports/12/"
    assert links["/championships/tables/34/"] == "/championships/tables/34/"
    assert links["/players/"] == links["nothing"] == ""
