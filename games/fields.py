"""Model fields of the games app."""

from __future__ import annotations

from django.db import models


class DocumentField(models.JSONField):
    """A JSON column holding a large document (a whole game's placements).

    On PostgreSQL Django inserts many rows at once through UNNEST of typed arrays, and psycopg
    writes a jsonb[] array by escaping every quote of every document in Python: about a
    millisecond for one game's placements, more than the rest of its row. A field with its own
    placeholder keeps such inserts on plain VALUES, where each document is dumped by the JSON
    encoder at C speed. The column is an ordinary jsonb either way.
    """

    def get_placeholder(self, value, compiler, connection) -> str:
        return "%s"
