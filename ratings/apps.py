from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class RatingsConfig(AppConfig):
    name = "ratings"
    default_auto_field = "django.db.models.BigAutoField"
    # Rendered on the player page with `player` in the context (players.views).
    player_page_sections = ["ratings/_player_ratings.html"]

    def ready(self) -> None:
        from games.signals import game_adjudicated, game_result_rewritten, games_adjudicated
        from players.audit.registry import register_audit_names, register_audit_reasons
        from ratings import receivers, selectors
        from ratings.notes import note_shown
        from ratings.params import check_settings

        # The module that declares the ratings' audit types, so any process can describe any
        # entry (ratings/staff/audit_words.py).
        from ratings.staff import audit_words  # noqa: F401
        from ratings.staff.access import RULES
        from tantrix_site.http.permissions import register_permission

        check_settings()
        # The named rule the staff pages declare and the API asks (ratings/staff/access.py).
        for name, (test, refusal) in RULES.items():
            register_permission(name, test, refusal=refusal)
        register_audit_names("rating_change_id", _("Rating change"), selectors.rating_change_names)
        register_audit_names("review_id", _("Review"), selectors.review_names)
        register_audit_names("title_id", _("Title"), selectors.title_names)
        register_audit_reasons(note_shown)
        game_adjudicated.connect(
            receivers.rate_adjudicated_game, dispatch_uid="ratings.rate_adjudicated_game"
        )
        games_adjudicated.connect(
            receivers.rate_adjudicated_games, dispatch_uid="ratings.rate_adjudicated_games"
        )
        game_result_rewritten.connect(
            receivers.replay_rewritten_game, dispatch_uid="ratings.replay_rewritten_game"
        )
