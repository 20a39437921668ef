"""exlibris: a declarative rules engine for Ex Libris and Expanded Archives."""

__version__ = "0.1.0"
