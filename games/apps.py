from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class GamesConfig(AppConfig):
    name = "games"
    verbose_name = _("Games")
    default_auto_field = "django.db.models.BigAutoField"
    # The reports waiting for the player, shown to that player on their page; their latest games.
    player_page_sections = ["games/_player_reports.html", "games/_player_games.html"]

    def ready(self) -> None:
        from games.records import selectors as records
        from games.reports import access
        from games.reports.notify import NOTICE_ABOUT
        from games.verdict_reviews import selectors as verdict_reviews
        from players.notices.links import register_notice_page
        from tantrix_site.http.permissions import register_permission

        register_notice_page(NOTICE_ABOUT, "reported-game-detail")
        # The named rules views declare and pages ask (reports/access.py, records, verdict_reviews).
        for name, (test, refusal) in (access.RULES | records.RULES | verdict_reviews.RULES).items():
            register_permission(name, test, refusal=refusal)
