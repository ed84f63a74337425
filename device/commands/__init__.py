"""One module per ``tilewatch`` subcommand, each with ``register(subparsers)``.

A command sets ``func`` on its parser (``parser.set_defaults(func=run)``);
``run(args) -> int`` returns the exit code and raises ``device.cli.CliError``
for a problem the user can fix.
"""
