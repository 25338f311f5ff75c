from django.apps import AppConfig


class RatingsConfig(AppConfig):
    name = "ratings"
    default_auto_field = "django.db.models.BigAutoField"
    # Rendered on the player page with `player` in the context (players.views).
    player_page_sections = ["ratings/_player_ratings.html"]

    def ready(self) -> None:
        from games.signals import game_adjudicated
        from ratings import receivers
        from ratings.params import check_settings

        check_settings()
        game_adjudicated.connect(
            receivers.rate_adjudicated_game, dispatch_uid="ratings.rate_adjudicated_game"
        )
