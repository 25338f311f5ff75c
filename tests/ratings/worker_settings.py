"""Settings for Celery workers started by the ratings' concurrency tests: the project's, plus a
fault-injection delay between reading ratings and writing them, so that duplicate deliveries of
one game really overlap. Not a production setting (see ratings.services.apply)."""

from tantrix_site.settings import *  # noqa: F403

RATINGS_APPLY_DELAY_SECONDS = 1.0
