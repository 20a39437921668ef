"""Write exlibris/dsl/grammar_tables.json from grammar.lark (after a grammar change or a
Lark upgrade; tests/test_dsl_parser.py fails while the file is out of date).

    PYTHONPATH=. python scripts/write_grammar_tables.py   # or installed: python scripts/...
"""

from exlibris.dsl.parser import write_tables

if __name__ == "__main__":
    print(f"wrote {write_tables()}")
