"""The pages: the live table, and the camera view for setting up."""

from __future__ import annotations

from flask import Blueprint, Response, jsonify, render_template, url_for

from .context import web_table

bp = Blueprint("pages", __name__)


@bp.get("/")
def table() -> str:
    # The present state goes into the page itself, so a phone shows it before the stream opens.
    return render_template("table.html", state=web_table().live.state())


@bp.get("/setup")
def setup() -> str:
    table = web_table()
    status = table.camera.status() if table.camera is not None else None
    return render_template("setup.html", status=status)


@bp.get("/manifest.webmanifest")
def manifest() -> Response:
    """So that a phone can keep the table on its home screen."""
    reply = jsonify({
        "name": "Pinochle table", "short_name": "Pinochle", "start_url": "./",
        "scope": "./", "display": "standalone", "background_color": "#0c1510",
        "theme_color": "#0c1510",
        "icons": [{"src": url_for("static", filename="icon.svg"), "sizes": "any",
                   "type": "image/svg+xml"}]})
    reply.mimetype = "application/manifest+json"
    return reply
