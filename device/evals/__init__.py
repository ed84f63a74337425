"""One module per `tilewatch eval NAME` evaluation, each with `register(subparsers)`
that sets `func` on its parser."""
