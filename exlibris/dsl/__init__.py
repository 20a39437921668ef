"""The effect language: grammar, parser, AST, checker and compiler."""

from exlibris.dsl.errors import DslError
from exlibris.dsl.parser import parse_expression, parse_program, parse_rule, parse_trigger

__all__ = ["DslError", "parse_expression", "parse_program", "parse_rule", "parse_trigger"]
