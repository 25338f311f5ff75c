from django.apps import AppConfig


class IdempotencyConfig(AppConfig):
    name = "tantrix_site.idempotency"
    label = "idempotency"
    default_auto_field = "django.db.models.BigAutoField"
