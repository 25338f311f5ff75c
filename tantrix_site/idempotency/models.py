from __future__ import annotations

from django.conf import settings
from django.db import models

KEY_MAX_LENGTH = 128
PATH_MAX_LENGTH = 512


class FirstAnswer(models.Model):
    """The first answer given to a request with an `Idempotency-Key`, kept byte for byte.

    One per user, key, method and path (the unique constraint settles two requests racing with
    one key: the second waits for the first and then replays its answer). Kept as long as the
    user: an answer is a few hundred bytes, and a record submitted with a key was always
    answered the same way, however late the repeat.
    """

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    key = models.CharField(max_length=KEY_MAX_LENGTH)
    method = models.CharField(max_length=8)
    path = models.CharField(max_length=PATH_MAX_LENGTH)
    status = models.PositiveSmallIntegerField()
    # The headers that say what the body is and where it points (Content-Type,
    # Content-Language, Location); the others are the site's and are added to every answer.
    headers = models.JSONField(default=dict)
    body = models.BinaryField()
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["user", "key", "method", "path"], name="first_answer_one_per_key"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.method} {self.path} [{self.key}] -> {self.status}"
