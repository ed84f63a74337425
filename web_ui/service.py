"""The app's handle on the table (the one service interface, in ``device``)."""

from __future__ import annotations

from flask import current_app

from device.table import Table


def table() -> Table:
    t: Table = current_app.extensions["table"]
    return t
