"""The WSGI entry point for gunicorn: `cli.wsgi:app`, the API on the environment's
configuration (cli.compose)."""

from cli.compose import create_app

app = create_app()
