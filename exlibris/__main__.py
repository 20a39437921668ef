"""`python -m exlibris` runs the command-line interface."""

from exlibris.cli.main import cli

cli()
