"""Query-string filters that answer 400, never 500, for values no database column can hold."""

from __future__ import annotations

from django.db import models
from django_filters import rest_framework as filters
from django_filters.filterset import FILTER_FOR_DBFIELD_DEFAULTS

# The largest value of a 64-bit primary key or integer column (PostgreSQL bigint, SQLite).
MAX_INTEGER = 2**63 - 1


def id_filter(**kwargs) -> filters.NumberFilter:
    """A filter on an id: a positive whole number a key column can hold."""
    return filters.NumberFilter(min_value=1, max_value=MAX_INTEGER, decimal_places=0, **kwargs)


def _bounded_number(field: models.Field) -> dict:
    return {"min_value": -MAX_INTEGER, "max_value": MAX_INTEGER}


# Foreign keys need nothing more: Django answers an out-of-range id as "no such object".
_BOUNDED_DEFAULTS = dict(FILTER_FOR_DBFIELD_DEFAULTS)
for _integer_field in (
    models.IntegerField,
    models.SmallIntegerField,
    models.BigIntegerField,
    models.PositiveIntegerField,
    models.PositiveSmallIntegerField,
    models.PositiveBigIntegerField,
    models.AutoField,
    models.BigAutoField,
):
    _BOUNDED_DEFAULTS[_integer_field] = {
        "filter_class": filters.NumberFilter,
        "extra": _bounded_number,
    }


class BoundedFilterSet(filters.FilterSet):
    FILTER_DEFAULTS = _BOUNDED_DEFAULTS


class BoundedFilterBackend(filters.DjangoFilterBackend):
    """The project's filter backend: generated filter sets use the bounded fields above."""

    filterset_base = BoundedFilterSet
