from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class GamesConfig(AppConfig):
    name = "games"
    verbose_name = _("Games")
    default_auto_field = "django.db.models.BigAutoField"
    # The reports waiting for the player, shown to that player on their page; their latest games.
    player_page_sections = ["games/_player_reports.html", "games/_player_games.html"]

    def ready(self) -> None:
        from games.reports.notify import NOTICE_ABOUT
        from players.notices.links import register_notice_page

        register_notice_page(NOTICE_ABOUT, "reported-game-detail")
