"""The live page: a Flask app factory handed the session, SSE updates, a JSON API."""
