"""Settings for tantrix-tournaments, read from the environment.

Defaults give a working local setup (SQLite file, Celery eager); production sets DATABASE_URL,
CELERY_BROKER_URL, SECRET_KEY and ALLOWED_HOSTS. Every bad value stops start-up with a message.
"""

from __future__ import annotations

from pathlib import Path

from django.core.exceptions import ImproperlyConfigured

from tantrix_site.beat_schedule import beat_schedule
from tantrix_site.env import (
    env_bool,
    env_broker_url,
    env_database_url,
    env_float,
    env_int,
    env_list,
    env_str,
    env_timezone,
)

BASE_DIR = Path(__file__).resolve().parent.parent

DEBUG = env_bool("DEBUG", False)

_DEV_SECRET_KEY = "django-insecure-development-only-key-never-use-in-production"
SECRET_KEY = env_str("SECRET_KEY", "")
if not SECRET_KEY:
    if not DEBUG:
        raise ImproperlyConfigured(
            "SECRET_KEY is not set. Set SECRET_KEY in the environment, or DEBUG=1 for a local run."
        )
    SECRET_KEY = _DEV_SECRET_KEY

ALLOWED_HOSTS = env_list("ALLOWED_HOSTS", ["127.0.0.1", "localhost", "[::1]", "testserver"])
CSRF_TRUSTED_ORIGINS = env_list("CSRF_TRUSTED_ORIGINS", [])

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "whitenoise.runserver_nostatic",
    "django.contrib.staticfiles",
    "rest_framework",
    "drf_spectacular",
    # Swagger UI and Redoc served from our static files (pinned), so /api/docs/ works offline.
    "drf_spectacular_sidecar",
    "django_filters",
    # Country names in the reader's language (its catalogues load only as an installed app).
    "django_countries",
    "players",
    "games",
    "tournaments",
    "ratings",
    # The first answers to requests with an Idempotency-Key (its own table, so an app).
    "tantrix_site.idempotency",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    # Hungarian articles and number suffixes chosen from the words that fill each sentence
    # (tantrix_site/i18n/grammar.py); outside LocaleMiddleware, so it reads Content-Language.
    "tantrix_site.i18n.grammar.GrammarMiddleware",
    # The reader's language: the language cookie (the header's switcher), else Accept-Language.
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    "tantrix_site.http.middleware.RequestSizeLimitMiddleware",
    "tantrix_site.http.middleware.ServiceBusyMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    # Times in the signed-in player's own zone (their profile), else TIME_ZONE; their profile's
    # language, when they chose one, over the cookie and Accept-Language.
    "players.preferences.middleware.TimezoneMiddleware",
    "players.preferences.middleware.LanguageMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    # Innermost: a view that opts in runs in one transaction with the keeping of its answer.
    "tantrix_site.idempotency.middleware.IdempotencyMiddleware",
]

ROOT_URLCONF = "tantrix_site.urls"
WSGI_APPLICATION = "tantrix_site.wsgi.application"
ASGI_APPLICATION = "tantrix_site.asgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                # LANGUAGES as settings lists them: the switcher names each language in itself.
                "django.template.context_processors.i18n",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                "players.context_processors.roles",
            ],
            # `lower` by the reader's language (Turkish İ/I), in every template.
            "builtins": ["tantrix_site.i18n.template_grammar"],
        },
    },
]

DATABASES = {
    "default": env_database_url("DATABASE_URL", f"sqlite:///{BASE_DIR / 'db.sqlite3'}"),
}
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

_cache_url = env_str("CACHE_URL", "")
if _cache_url:
    if not _cache_url.startswith(("redis://", "rediss://")):
        raise ImproperlyConfigured(f"CACHE_URL={_cache_url!r}: only redis:// URLs are supported")
    CACHES = {
        "default": {
            "BACKEND": "tantrix_site.cache.RedisCache",
            "LOCATION": _cache_url,
        }
    }
else:
    CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
    {"NAME": "players.passwords.MaximumLengthValidator"},
]
# The longest password anyone may set (sign-up, password change, admin) or send for an API
# token; the token endpoint's body limit is made to fit it (players/passwords.py).
PASSWORD_MAX_LENGTH = 4096
# API tokens (docs/api-tokens.md): how long one lasts, and how many one user may hold at once
# (the oldest is revoked to make room for a new one).
API_TOKEN_TTL_DAYS = env_int("API_TOKEN_TTL_DAYS", 30, minimum=1, maximum=365)
API_TOKENS_PER_USER = env_int("API_TOKENS_PER_USER", 20, minimum=1, maximum=1000)

LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "home"
LOGOUT_REDIRECT_URL = "home"

LANGUAGE_CODE = "en-gb"
# The five languages of the site (docs/translations.md). Each name is written in its own
# language, as the switcher shows it.
LANGUAGES = [
    ("en-gb", "English"),
    ("ru", "Русский"),
    ("hu", "Magyar"),
    ("cs", "Čeština"),
    ("tr", "Türkçe"),
]
# The catalogues are in the repository, compiled (.mo) as well, so a fresh clone serves every
# language with no gettext tools installed.
# django-countries ships its Turkish names as tr_TR, which a reader asking for "tr" never gets:
# a copy under the plain code (locale/django-countries/README.md).
LOCALE_PATHS = [BASE_DIR / "locale", BASE_DIR / "locale" / "django-countries"]
TIME_ZONE = env_timezone("TIME_ZONE", "UTC")
USE_I18N = True
USE_TZ = True
# One way of writing dates everywhere, with the time zone
# (tantrix_site/i18n/formats/en/formats.py).
FORMAT_MODULE_PATH = ["tantrix_site.i18n.formats"]

STATIC_URL = "static/"
# Where collectstatic gathers the files WhiteNoise serves when DEBUG is off.
STATIC_ROOT = Path(env_str("STATIC_ROOT", str(BASE_DIR / "staticfiles")))
STATICFILES_DIRS = [BASE_DIR / "static"]
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        "BACKEND": (
            "django.contrib.staticfiles.storage.StaticFilesStorage"
            if DEBUG
            else "whitenoise.storage.CompressedStaticFilesStorage"
        )
    },
}

WHITENOISE_AUTOREFRESH = DEBUG
WHITENOISE_USE_FINDERS = DEBUG

# Security: on unless debugging locally over plain HTTP.
SESSION_COOKIE_SECURE = not DEBUG
CSRF_COOKIE_SECURE = not DEBUG
SECURE_SSL_REDIRECT = env_bool("SECURE_SSL_REDIRECT", False)
SECURE_CONTENT_TYPE_NOSNIFF = True
SECURE_REFERRER_POLICY = "same-origin"
X_FRAME_OPTIONS = "DENY"
# A TLS-terminating proxy in front: trust its X-Forwarded-Proto (and its last X-Forwarded-For
# hop for the login limits, see tantrix_site/http/login_limits.py).
BEHIND_TLS_PROXY = env_bool("BEHIND_TLS_PROXY", False)
if BEHIND_TLS_PROXY:
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
# HSTS only where the site is served over HTTPS. SecurityMiddleware sends the header on secure
# requests only, and without a proxy or a redirect no request here is secure: the setting says so.
_hsts_seconds = env_int("SECURE_HSTS_SECONDS", 31536000, minimum=0)
_served_over_https = (BEHIND_TLS_PROXY or SECURE_SSL_REDIRECT) and not DEBUG
SECURE_HSTS_SECONDS = _hsts_seconds if _served_over_https else 0
SECURE_HSTS_INCLUDE_SUBDOMAINS = SECURE_HSTS_SECONDS > 0
# Browsers' preload lists are hard to leave: opt in only, and only with a year's max-age.
SECURE_HSTS_PRELOAD = env_bool("SECURE_HSTS_PRELOAD", False)
if SECURE_HSTS_PRELOAD and 0 < SECURE_HSTS_SECONDS < 31536000:
    raise ImproperlyConfigured(
        f"SECURE_HSTS_PRELOAD=1 needs SECURE_HSTS_SECONDS of at least 31536000 (one year), "
        f"not {SECURE_HSTS_SECONDS}"
    )

# --- Login limits and Content-Security-Policy ---
# Failed logins (web, API token, admin) are counted in the default cache per user name and per
# client address; CACHE_URL (Redis) shares the counts between processes, the default local
# memory cache counts per process. tantrix_site/http/login_limits.py explains the rules.
LOGIN_FAILURES_PER_USERNAME = env_int("LOGIN_FAILURES_PER_USERNAME", 10, minimum=1)
LOGIN_FAILURES_PER_ADDRESS = env_int("LOGIN_FAILURES_PER_ADDRESS", 30, minimum=1)
LOGIN_FAILURE_WINDOW_SECONDS = env_int("LOGIN_FAILURE_WINDOW_SECONDS", 900, minimum=1)
AUTHENTICATION_BACKENDS = [
    "tantrix_site.http.login_limits.LoginLimitedModelBackend",
    # Kept for the sessions it made (sign-up logs in with it); never asked for a password, since
    # the backend above ends authentication itself.
    "django.contrib.auth.backends.ModelBackend",
]
# Right after SecurityMiddleware, so every response, even one a later middleware answers,
# carries the policy.
MIDDLEWARE.insert(
    MIDDLEWARE.index("django.middleware.security.SecurityMiddleware") + 1,
    "csp.middleware.CSPMiddleware",
)
CONTENT_SECURITY_POLICY = {
    # Swagger UI (/api/docs/) and Redoc (/api/redoc/) are served from static files with their
    # start scripts as files (templates/drf_spectacular/), so they run under the policy; Redoc's
    # page widens it for the style elements Redoc injects (tantrix_site/urls.py).
    "DIRECTIVES": {
        "default-src": ["'self'"],
        # No inline scripts or styles: page scripts are files under static/js/.
        "script-src": ["'self'"],
        "style-src": ["'self'"],
        "img-src": ["'self'", "data:"],
        "object-src": ["'none'"],
        "base-uri": ["'self'"],
        "frame-ancestors": ["'none'"],
        "form-action": ["'self'"],
    },
}

# Raw game records are stored as submitted; the API refuses bodies above this (413).
GAME_RECORD_MAX_BYTES = env_int("GAME_RECORD_MAX_BYTES", 256 * 1024, minimum=1024)
# A record's played_at may lie at most this many days back (a late game is replayed into the
# ratings from its place: docs/ratings.md §10), unless an organiser or controller enters it for
# an event.
GAME_RECORD_MAX_AGE_DAYS = env_int("GAME_RECORD_MAX_AGE_DAYS", 30, minimum=1)
DATA_UPLOAD_MAX_MEMORY_SIZE = max(GAME_RECORD_MAX_BYTES * 2, 2_621_440)
# No request body larger than this is read by anything: other views answer 413 before parsing;
# the record submission views store the first GAME_RECORD_MAX_BYTES with the declared size.
REQUEST_MAX_BYTES = env_int(
    "REQUEST_MAX_BYTES", max(8 * 1024 * 1024, GAME_RECORD_MAX_BYTES * 4), minimum=1024
)
if REQUEST_MAX_BYTES < GAME_RECORD_MAX_BYTES:
    raise ImproperlyConfigured("REQUEST_MAX_BYTES must be at least GAME_RECORD_MAX_BYTES")
FILE_UPLOAD_MAX_MEMORY_SIZE = DATA_UPLOAD_MAX_MEMORY_SIZE
# Records pending or processing longer than this are re-enqueued by the sweep.
GAME_RECORD_STALE_SECONDS = env_int("GAME_RECORD_STALE_SECONDS", 120, minimum=1)
# One adjudication task claims and judges at most this many pending records per transaction
# (games/adjudication/services.py): fewer round trips and commits per record while records
# queue up.
GAME_ADJUDICATION_BATCH = env_int("GAME_ADJUDICATION_BATCH", 20, minimum=1, maximum=1000)
# Fault injection for the worker-kill tests only: seconds a worker waits after claiming.
GAME_ADJUDICATION_DELAY_SECONDS = env_float("GAME_ADJUDICATION_DELAY_SECONDS", 0.0, minimum=0.0)
# A report nobody answers stands after this many hours (docs/game-records.md, "Reports").
GAME_REPORT_CONFIRM_HOURS = env_float("GAME_REPORT_CONFIRM_HOURS", 48.0, minimum=0.0)
# Notices also go out by email; the console backend prints them until a mail server is set.
EMAIL_BACKEND = env_str("EMAIL_BACKEND", "django.core.mail.backends.console.EmailBackend")
DEFAULT_FROM_EMAIL = env_str("DEFAULT_FROM_EMAIL", "tantrix-tournaments@localhost")

REST_FRAMEWORK = {
    "DEFAULT_AUTHENTICATION_CLASSES": [
        # Token first: an anonymous API call then gets 401 with WWW-Authenticate, not 403.
        "players.tokens.authentication.TokenAuthentication",
        "rest_framework.authentication.SessionAuthentication",
    ],
    "DEFAULT_PERMISSION_CLASSES": ["rest_framework.permissions.IsAuthenticatedOrReadOnly"],
    "DEFAULT_PAGINATION_CLASS": "rest_framework.pagination.PageNumberPagination",
    "PAGE_SIZE": env_int("API_PAGE_SIZE", 50, minimum=1, maximum=500),
    "DEFAULT_FILTER_BACKENDS": [
        "tantrix_site.http.filters.BoundedFilterBackend",
        "rest_framework.filters.SearchFilter",
        "rest_framework.filters.OrderingFilter",
    ],
    "DEFAULT_SCHEMA_CLASS": "drf_spectacular.openapi.AutoSchema",
    "DEFAULT_THROTTLE_CLASSES": [
        "tantrix_site.http.throttles.AnonRateThrottle",
        "tantrix_site.http.throttles.UserRateThrottle",
    ],
    "DEFAULT_THROTTLE_RATES": {
        "anon": env_str("API_THROTTLE_ANON", "120/minute"),
        "user": env_str("API_THROTTLE_USER", "1200/minute"),
    },
    "TEST_REQUEST_DEFAULT_FORMAT": "json",
    # Behind our one proxy, the client is the last X-Forwarded-For hop; with no proxy the header
    # is the client's own word and is ignored (otherwise it dodges the anonymous throttle).
    "NUM_PROXIES": 1 if BEHIND_TLS_PROXY else 0,
    "EXCEPTION_HANDLER": "tantrix_site.http.answers.exception_handler",
    # `?format=` is a filter on events (knockout, swiss, ...), not a renderer switch.
    "URL_FORMAT_OVERRIDE": None,
}

SPECTACULAR_SETTINGS = {
    "TITLE": "tantrix-tournaments API",
    "DESCRIPTION": "Championships, game records and ratings for Tantrix.",
    "VERSION": "1.0.0",
    "SERVE_INCLUDE_SCHEMA": False,
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    "REDOC_DIST": "SIDECAR",
    "COMPONENT_SPLIT_REQUEST": True,
    "POSTPROCESSING_HOOKS": [
        "drf_spectacular.hooks.postprocess_schema_enums",
        "tantrix_site.http.schema.add_error_responses",
    ],
    "ENUM_NAME_OVERRIDES": {
        "ColourEnum": "players.models.Colour",
        "RecordStatusEnum": "games.models.RecordStatus",
        "RecordSourceEnum": "games.models.RecordSource",
        "EntrySourceEnum": "tournaments.models.EntrySource",
        "EntryStatusEnum": "tournaments.models.EntryStatus",
        "EventStatusEnum": "tournaments.models.EventStatus",
        "MatchStatusEnum": "tournaments.models.MatchStatus",
    },
}

# Celery: an empty broker URL runs every task eagerly in-process (zero-setup local run).
CELERY_BROKER_URL = env_broker_url("CELERY_BROKER_URL")
CELERY_TASK_ALWAYS_EAGER = not CELERY_BROKER_URL
if CELERY_TASK_ALWAYS_EAGER:
    # Eager, Celery's apply_async still takes a producer from its pool (to learn the
    # serializer), and kombu, given no URL, assumes AMQP on localhost and warns "No hostname was
    # supplied" at the first task. The in-memory transport is the one an in-process app has:
    # nothing connects, nothing warns. CELERY_BROKER_URL stays empty: that is what says "eager"
    # to the rest of the site (health, caches).
    CELERY_BROKER_WRITE_URL = CELERY_BROKER_READ_URL = "memory://localhost/"
CELERY_TASK_EAGER_PROPAGATES = True
CELERY_RESULT_BACKEND = None
CELERY_TASK_IGNORE_RESULT = True
CELERY_TASK_ACKS_LATE = True
CELERY_TASK_REJECT_ON_WORKER_LOST = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True
# A publish while Redis is down must fail quickly, not hang the request: the sweep recovers.
CELERY_BROKER_TRANSPORT_OPTIONS = {
    "socket_connect_timeout": env_float("CELERY_BROKER_CONNECT_TIMEOUT", 2.0, minimum=0.1),
    "socket_timeout": 5,
    "max_retries": 1,
    "visibility_timeout": env_int("CELERY_VISIBILITY_TIMEOUT", 3600, minimum=10),
}
CELERY_TASK_PUBLISH_RETRY = False
CELERY_TASK_DEFAULT_QUEUE = "default"
# Queues are named after the app that owns the task.
CELERY_TASK_ROUTES = {
    "games.*": {"queue": "games"},
    "tournaments.*": {"queue": "tournaments"},
    "ratings.*": {"queue": "ratings"},
}
# Every queue, declared as Celery would create it for a route (its own direct exchange): a
# worker started without -Q consumes all of them, and tests and bench read this one list.
CELERY_TASK_QUEUES = {
    name: {"exchange": name, "routing_key": name}
    for name in ("default", "games", "tournaments", "ratings")
}
# Beat keeps when each periodic task last ran in a file in the project's state folder (one per
# deployment, never shared through /tmp); a damaged file is replaced, not fatal. The file is
# written after every send, so a beat killed and started again neither repeats nor loses a send
# (docs/operations.md, "Beat": why this file and not a library's Redis or database schedule).
CELERY_BEAT_SCHEDULER = "tantrix_site.beat:SelfHealingScheduler"
CELERY_BEAT_SYNC_EVERY = 1
CELERY_BEAT_SCHEDULE_FILENAME = env_str(
    "CELERY_BEAT_SCHEDULE_FILENAME", str(BASE_DIR / "var" / "celerybeat-schedule")
)

# Every periodic task, how often (each interval from its own environment variable), in one
# place: tantrix_site/beat_schedule.py.
CELERY_BEAT_SCHEDULE = beat_schedule()

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "formatters": {"plain": {"format": "%(asctime)s %(levelname)s %(name)s %(message)s"}},
    "handlers": {"console": {"class": "logging.StreamHandler", "formatter": "plain"}},
    "root": {"handlers": ["console"], "level": env_str("LOG_LEVEL", "INFO")},
    # Eager (`make run`), every task run in-process would log a worker's "Task ... succeeded"
    # line at INFO: some 1,300 of them while the demo loads. Failures still log (ERROR).
    "loggers": ({"celery.app.trace": {"level": "WARNING"}} if CELERY_TASK_ALWAYS_EAGER else {}),
}

# --- Ratings settings ---
# Operational knobs only. The constants of the rating formulas are a versioned parameter set in
# code (ratings/params.py, docs/ratings.md §8), not settings; of the title rules only the cap is
# a setting here.
# At most this many Master titles are held at once (100 or 120, the federation's choice).
RATINGS_MASTER_CAP = env_int("RATINGS_MASTER_CAP", 120, minimum=0)
# Review flags: a change this large (lobby-style tables / Elo) is queued for an admin, and so is
# a pair of players with this many results the same way round within the window (win trading).
RATINGS_REVIEW_SWING_POINTS = env_float("RATINGS_REVIEW_SWING_POINTS", 15.0, minimum=0.0)
RATINGS_REVIEW_SWING_ELO = env_float("RATINGS_REVIEW_SWING_ELO", 150.0, minimum=0.0)
RATINGS_REVIEW_REPEAT_GAMES = env_int("RATINGS_REVIEW_REPEAT_GAMES", 6, minimum=2)
RATINGS_REVIEW_REPEAT_HOURS = env_int("RATINGS_REVIEW_REPEAT_HOURS", 24, minimum=1)
# Games played within this window and not yet rated are applied (in game order) by the sweep and
# before any later game; older unrated games only by their own task or a recompute.
RATINGS_SWEEP_WINDOW_HOURS = env_int("RATINGS_SWEEP_WINDOW_HOURS", 72, minimum=1)
# Public ranking tables show this many players.
RATINGS_RANKING_SIZE = env_int("RATINGS_RANKING_SIZE", 100, minimum=1, maximum=1000)
# Announced games are applied in batches: at most this many per transaction; while games keep
# arriving the next batch runs this long after the last (so they gather); the "one apply task
# queued or running" key on the broker expires after this many seconds if a worker dies.
RATINGS_APPLY_BATCH_GAMES = env_int("RATINGS_APPLY_BATCH_GAMES", 200, minimum=1)
RATINGS_APPLY_BATCH_SECONDS = env_float("RATINGS_APPLY_BATCH_SECONDS", 0.5, minimum=0.0)
RATINGS_APPLY_SCHEDULE_SECONDS = env_int("RATINGS_APPLY_SCHEDULE_SECONDS", 15, minimum=1)
# That key lives in the "ratings" cache, which every web and worker process must share: the
# default cache when it is Redis (CACHE_URL), else the broker's Redis. Without a broker tasks run
# eagerly in-process and no key is used.
# In production every process must share one cache (ratings scheduling, throttles, login limits,
# cached public pages), so a broker without CACHE_URL refuses to start; with DEBUG (make test,
# make bench) the broker's Redis stands in for the ratings key and the default cache stays local.
if CELERY_BROKER_URL and not _cache_url and not DEBUG:
    raise ImproperlyConfigured(
        "CACHE_URL is not set: with CELERY_BROKER_URL set, every web and worker process must "
        "share a Redis cache (use a database other than the broker's, e.g. redis://host:6379/1)"
    )
if _cache_url:
    CACHES["ratings"] = {**CACHES["default"]}
elif CELERY_BROKER_URL:
    CACHES["ratings"] = {
        "BACKEND": "tantrix_site.cache.RedisCache",
        "LOCATION": CELERY_BROKER_URL,
        "OPTIONS": {"socket_connect_timeout": 2, "socket_timeout": 5},
    }
else:
    CACHES["ratings"] = {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}
# Cached public championship pages (tournaments/pages/cache.py): a worker that counts a result
# drops the fragments the web processes read, so they share a cache as the ratings key does.
CACHES["pages"] = {**CACHES["ratings"]}
# "A batch task is queued" keys (games.records.queueing): shared the same way.
CACHES["tasks"] = {**CACHES["ratings"]}
# How long a cached fragment lives at most (results drop it at once; player renames wait).
TOURNAMENTS_PAGE_CACHE_SECONDS = env_int("TOURNAMENTS_PAGE_CACHE_SECONDS", 300, minimum=0)
# How often an open bracket, table or match page asks for its fragment while the event runs.
TOURNAMENTS_LIVE_POLL_SECONDS = env_int("TOURNAMENTS_LIVE_POLL_SECONDS", 15, minimum=1)
# How long a rating write waits for the tables' advisory locks before giving up (the task is
# retried); a recompute, which holds them for its whole run, may wait longer for its turn.
RATINGS_LOCK_WAIT_SECONDS = env_float("RATINGS_LOCK_WAIT_SECONDS", 30.0, minimum=0.001)
RATINGS_RECOMPUTE_LOCK_WAIT_SECONDS = env_float(
    "RATINGS_RECOMPUTE_LOCK_WAIT_SECONDS", 600.0, minimum=0.001
)
# The API schema names the ratings' choice sets, so they do not collide with other apps'.
SPECTACULAR_SETTINGS["ENUM_NAME_OVERRIDES"].update(
    {
        "RatingSystemEnum": "ratings.models.RatingSystem",
        "RatingChangeReasonEnum": "ratings.models.ChangeReason",
        "RatingReviewKindEnum": "ratings.models.ReviewKind",
        "RatingReviewStatusEnum": "ratings.models.ReviewStatus",
        "RatingAuditActionEnum": "ratings.models.AuditAction",
        "TitleKindEnum": "ratings.models.Title.Kind",
        "TitleStatusEnum": "ratings.models.Title.Status",
    }
)
# --- Reminders (issue 30; docs/calendars.md) ---
# Both players of a match are reminded this long before its agreed time, and before their
# round's deadline while the match is not played; the beat task looks this often.
REMINDER_BEFORE_MATCH_HOURS = env_float("REMINDER_BEFORE_MATCH_HOURS", 24.0, minimum=0.0)
REMINDER_BEFORE_DEADLINE_HOURS = env_float("REMINDER_BEFORE_DEADLINE_HOURS", 48.0, minimum=0.0)
