import os

from django.core.wsgi import get_wsgi_application
from django.urls import get_resolver

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "tantrix_site.settings")
application = get_wsgi_application()
# Django imports the URL conf (every view, serializer and the API schema's modules) on the first
# request, about a second of CPU that the first visitor of each web worker would wait for. Done
# here, it is paid as the worker starts (or once, before forking, under gunicorn --preload).
get_resolver().url_patterns  # noqa: B018 - the import is the point
