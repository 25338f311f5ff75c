"""Errors shared by every app that the site turns into one kind of HTTP answer."""

from __future__ import annotations


class ServiceBusy(Exception):
    """A write could not get its turn in time (a lock held by a long job): try again later.

    Answered with 503 and Retry-After by `tantrix_site.http.middleware.ServiceBusyMiddleware`.
    """

    def __init__(self, message: str, *, retry_after: int = 30):
        super().__init__(message)
        self.retry_after = retry_after
