"""The click command-line interface; each command group has its own module."""
