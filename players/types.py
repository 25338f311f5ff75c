"""Type names shared by every app's services and selectors.

``User`` is whoever acts: a signed-in account, or the anonymous visitor a selector may be asked
about. Services that record who did something take ``User | None`` (None for a worker or a
management command).
"""

from typing import TypeAlias

from django.contrib.auth.models import AbstractBaseUser, AnonymousUser

User: TypeAlias = AbstractBaseUser | AnonymousUser
