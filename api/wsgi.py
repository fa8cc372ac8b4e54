"""The WSGI entry point for gunicorn: `api.wsgi:app`."""

from api import create_app

app = create_app()
