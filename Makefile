# The README's commands. Everything a fresh machine needs is installed from here.
SHELL := /bin/bash
PYTHON ?= $(shell command -v python3.11 || command -v python3)
VENV := .venv
BIN := $(VENV)/bin
PORT ?= 8000
TEST_DATABASE_URL ?= postgres://postgres@127.0.0.1:5432/tantrix
TEST_BROKER_URL ?= redis://127.0.0.1:6379/15
PYTEST_ARGS ?=

.PHONY: run test test-fast bench fuzz load lint messages gettext serve worker beat migrate install install-dev browser clean

$(VENV)/.installed: requirements.txt
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install -q --upgrade pip
	$(BIN)/python -m pip install -q -r requirements.txt
	touch $@

$(VENV)/.dev-installed: $(VENV)/.installed requirements-dev.txt
	$(BIN)/python -m pip install -q -r requirements-dev.txt
	touch $@

install: $(VENV)/.installed
install-dev: $(VENV)/.dev-installed

# Debian packages the tests need and pip cannot give: installed when missing (as root), else
# the run stops naming the command. $(call debian_package,file it provides,package,for what)
define debian_package
	@if [ ! -x $(1) ]; then \
		if [ "$$(id -u)" = 0 ]; then \
			echo "Installing Debian's $(2) for $(3)"; \
			(apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $(2)) >/dev/null; \
		else \
			echo "$(3) need $(1): sudo apt-get install $(2)" >&2; exit 1; \
		fi; \
	fi
endef

# Browser tests drive Debian's chromium (Playwright's own browser download does not work here).
browser:
	$(call debian_package,/usr/bin/chromium,chromium,the browser tests)

# The catalogue test extracts the marked strings with xgettext, and `make messages` compiles with
# msgfmt; serving the site needs neither (the compiled catalogues are committed).
gettext:
	$(call debian_package,/usr/bin/xgettext,gettext,the translation catalogue checks)

## make run: a zero-setup local site on SQLite with Celery eager, with the living demo (about
## a minute to load the first time, with a progress bar; nothing the next), then the demo's
## sign-ins. `PORT=8001 make run` serves on another port.
run: $(VENV)/.installed
	@DEBUG=1 $(BIN)/python manage.py migrate --noinput -v 0
	@DEBUG=1 $(BIN)/python manage.py load_demo --url http://127.0.0.1:$(PORT)/
	@DEBUG=1 $(BIN)/python manage.py runserver 127.0.0.1:$(PORT)

## make test: the whole suite against PostgreSQL, Redis and real Celery worker processes.
test: $(VENV)/.dev-installed browser gettext
	DEBUG=1 DATABASE_URL=$(TEST_DATABASE_URL) CELERY_BROKER_URL=$(TEST_BROKER_URL) \
		TEST_DATABASE_URL=$(TEST_DATABASE_URL) TEST_BROKER_URL=$(TEST_BROKER_URL) \
		$(BIN)/python -m pytest $(PYTEST_ARGS)

## make test-fast: the pure suites (rules engine, tournament formats, rating systems) in seconds,
## with no database, broker or browser. Without pytest-django and the shared conftest nothing
## imports Django, so a test that reaches for the database or an app fails instead of skipping.
FAST_TESTS := tests/engine tests/tournaments/formats tests/ratings/systems
test-fast: $(VENV)/.dev-installed
	$(BIN)/python -m pytest -p no:django --noconftest \
		-W "ignore:Unknown config option:pytest.PytestConfigWarning" $(FAST_TESTS) $(PYTEST_ARGS)

bench: $(VENV)/.dev-installed
	DEBUG=1 DATABASE_URL=$(TEST_DATABASE_URL) CELERY_BROKER_URL=$(TEST_BROKER_URL) \
		$(BIN)/python -m bench

## make fuzz: the long Schemathesis and record fuzz (make test runs a bounded version of it).
fuzz: $(VENV)/.dev-installed
	DEBUG=1 DATABASE_URL=$(TEST_DATABASE_URL) CELERY_BROKER_URL=$(TEST_BROKER_URL) \
		TEST_DATABASE_URL=$(TEST_DATABASE_URL) TEST_BROKER_URL=$(TEST_BROKER_URL) \
		FUZZ_MAX_EXAMPLES=$${FUZZ_MAX_EXAMPLES:-100} $(BIN)/python -m pytest tests/fuzz -q $(PYTEST_ARGS)

## make load: locust (headless) against gunicorn + Celery workers on PostgreSQL; prints figures.
load: $(VENV)/.dev-installed
	DEBUG=1 DATABASE_URL=$(TEST_DATABASE_URL) CELERY_BROKER_URL=$(TEST_BROKER_URL) \
		$(BIN)/python -m bench.load $(LOAD_ARGS)

## make messages: brings locale/<language>/LC_MESSAGES/django.po up to date with the marked strings
## and compiles the .mo files (both are committed; needs gettext: apt-get install gettext).
messages: $(VENV)/.dev-installed gettext
	$(BIN)/python -m tantrix_site.i18n.lint --extract

lint: $(VENV)/.dev-installed
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/python -m tantrix_site.i18n.lint

## Production-style pieces, configured by the environment (see README).
migrate: $(VENV)/.installed
	$(BIN)/python manage.py migrate --noinput

serve: $(VENV)/.installed
	$(BIN)/python manage.py collectstatic --noinput -v 0
	$(BIN)/gunicorn tantrix_site.wsgi:application --bind 0.0.0.0:$(PORT) --workers $${WEB_CONCURRENCY:-3} --access-logfile -

# Consumes every queue in CELERY_TASK_QUEUES (tasks are routed to a queue named after their app).
worker: $(VENV)/.installed
	$(BIN)/celery -A tantrix_site worker --loglevel INFO

beat: $(VENV)/.installed
	$(BIN)/celery -A tantrix_site beat --loglevel INFO

clean:
	rm -rf $(VENV) staticfiles .pytest_cache .ruff_cache
