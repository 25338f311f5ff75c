from django.apps import AppConfig


class PlayersConfig(AppConfig):
    name = "players"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from players.permissions import RULES
        from tantrix_site.http.permissions import register_permission

        # The named rules views declare and pages ask (players/permissions.py).
        for name, (test, refusal) in RULES.items():
            register_permission(name, test, refusal=refusal)
