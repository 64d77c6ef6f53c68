"""The pages: the live table, and the camera view for setting up."""

from __future__ import annotations

from flask import Blueprint, render_template

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
