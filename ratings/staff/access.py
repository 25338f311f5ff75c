"""The ratings' named rule (issue 27: permissions declared once).

Admins (staff) review ratings: the queue, its items, adjustments, titles, the audit page and
the staff tools. RatingsConfig.ready registers `RULES` (`tantrix_site.http.permissions`); the
staff pages declare it (`admin_required`), the API's permission classes (`IsRatingsAdmin`) ask
the same registry. The ratings' services take the admin's word (they are called by the staff
pages, tasks and commands only), so the declaration is the check.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.utils.translation import gettext_lazy

from players.roles import is_admin
from players.types import User

# name -> (who may, on an object; the words of the refusal)
RULES: dict[str, tuple[Callable[[User, Any], bool], Any]] = {
    "review_ratings": (
        lambda user, _obj: is_admin(user),
        gettext_lazy("Only admins review ratings."),
    ),
}
