from django.apps import AppConfig


class GamesConfig(AppConfig):
    name = "games"
    default_auto_field = "django.db.models.BigAutoField"
    # The reports waiting for the player, shown to that player on their page; their latest games.
    player_page_sections = ["games/_player_reports.html", "games/_player_games.html"]

    def ready(self) -> None:
        from games import http, services

        # The API layer decides how a submission is answered; the service stores that answer.
        services.first_answer_register(http.submission_answer)
