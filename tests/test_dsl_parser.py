"""Parsing: the AST keeps positions, and known mistakes get plain advice."""

from __future__ import annotations

import pytest

from exlibris.dsl import DslError, ast, parse_expression, parse_program, parse_rule, parse_trigger
from exlibris.dsl.parser import MAX_BLOCK_DEPTH, MAX_SOURCE_CHARS


def test_program_statements_and_positions() -> None:
    program = parse_program(
        "gone = discard(any, from: hand)\n"
        "drawn = draw(count(gone) + 1)\n"
        "shelve(up to 1, from: drawn)\n"
    )
    first, second, third = program.body
    assert isinstance(first, ast.Assign) and first.name == "gone"
    call = first.value
    assert isinstance(call, ast.Call) and call.func == "discard"
    assert (call.line, call.col) == (1, 8)
    assert call.args[0].value == ast.Amount("any")
    assert call.keywords()["from"] == ast.Name("hand")
    assert isinstance(second, ast.Assign) and second.line == 2
    assert isinstance(third, ast.Do)
    amount = third.call.args[0].value
    assert amount == ast.Amount("up_to", ast.Num(1))


def test_blocks_choices_and_comments() -> None:
    program = parse_program(
        "# a comment\n"
        "choose one by visitor:\n"
        '  option "give" if count(visitor.hand) > 0:\n'
        "    as visitor:\n"
        "      gift = give(1, from: hand, to: owner, random: true)\n"
        '  option "refuse": both_home_actions()  # trailing comment\n'
        "for each p in opponents_of(me):\n"
        "  may discard(1, from: hand | shelf, to: area)\n"
        "repeat 2 times:\n"
        "  may:\n"
        "    home_action()\n"
        "if x == 1:\n  stop\nelif not y:\n  require z\nelse:\n  stop\n"
    )
    choose, loop, repeat, cond = program.body
    assert isinstance(choose, ast.Choose) and choose.line == 2
    assert [o.label for o in choose.options] == ["give", "refuse"]
    assert choose.options[0].guard is not None
    assert isinstance(loop, ast.ForEach) and loop.var == "p"
    assert isinstance(loop.body[0], ast.May)
    assert isinstance(repeat, ast.Repeat)
    assert isinstance(cond, ast.If) and len(cond.branches) == 2 and cond.orelse


def test_an_option_may_say_what_cards_it_is_about() -> None:
    program = parse_program(
        "choose one:\n"
        '  option "keep it" about card if x:\n'
        "    stop\n"
        '  option "keep these" about shown | first(hand): stop\n'
        '  option "neither": stop\n'
    )
    keep, these, neither = program.body[0].options  # type: ignore[attr-defined]
    assert keep.about == ast.Name("card") and keep.guard == ast.Name("x")
    assert isinstance(these.about, ast.BinOp) and these.about.op == "|"
    assert these.guard is None and neither.about is None
    # the guard follows; `A if C else B` after about reads as the guard, so it is refused
    with pytest.raises(DslError):
        parse_program('choose one:\n  option "a" about x if y else z: stop\n')


def test_operator_precedence() -> None:
    expr = parse_expression("1 + 2 * 3 > 4 and not a or b")
    assert isinstance(expr, ast.BinOp) and expr.op == "or"
    left = expr.left
    assert isinstance(left, ast.BinOp) and left.op == "and"
    assert isinstance(left.left, ast.BinOp) and left.left.op == ">"
    where = parse_expression("hand where it.letter == card.letter")
    assert isinstance(where, ast.Where)
    assert parse_expression("-x") == ast.Neg(ast.Name("x"))
    assert parse_expression("@monster-manuals") == ast.Ref("monster-manuals")


def test_trigger_forms() -> None:
    t = parse_trigger("after draw by me once per turn during placement if count(hand) > 0")
    assert (t.mode, t.event, t.subject, t.once_per == "turn", t.during) == (
        "after", "draw", "me", True, "placement")
    assert t.condition is not None
    t = parse_trigger("instead of shelve by this")
    assert (t.mode, t.event, t.subject) == ("instead", "shelve", "this")
    t = parse_trigger("placed at location")
    assert (t.mode, t.event, t.place) == ("on", "placed", "location")
    assert parse_trigger("after visit by me at @diviners-hut").place == "@diviners-hut"


def test_rules() -> None:
    rule = parse_rule("deny if placing == this and target == @diviners-hut")
    assert rule.kind == "deny"


@pytest.mark.parametrize(
    ("source", "hint", "line", "col"),
    [
        ("if x = 1:\n  stop\n", "compares with '=='", 1, 6),
        ("if x\n  stop\n", "must end with ':'", 1, 5),
        ("if x:\n  stop\nelse if y:\n  stop\n", "elif", 3, 6),
        ("choose one:\n  draw(1)\n", "option", 2, 3),
        ("choose one:\n  option take:\n    stop\n", "double quotes", 2, 10),
        ("draw(1\n", "not closed", 1, 7),
        ("discard(1, from=hand)\n", "name: value", 1, 16),
        ("for p in players:\n  stop\n", "for each NAME in", 1, 5),
        ("discard(upto 2, from: hand)\n", "up to N", 1, 14),
    ],
)
def test_known_mistakes(source: str, hint: str, line: int, col: int) -> None:
    with pytest.raises(DslError) as info:
        parse_program(source)
    error = info.value
    assert error.code == "dsl/syntax"
    assert hint in error.message
    assert (error.line, error.col) == (line, col)
    assert "^" in error.context


@pytest.mark.parametrize(
    ("source", "words"),
    [
        ("x = 'a'\n", "double quotes"),
        ("draw(1)\n  draw(2)\n", "unexpected indentation"),
        ("x = 1 +\n", "ends too early"),
    ],
)
def test_other_syntax_errors(source: str, words: str) -> None:
    with pytest.raises(DslError) as info:
        parse_program(source)
    assert words in info.value.message


def test_limits() -> None:
    with pytest.raises(DslError) as info:
        parse_program("draw(1)\n" * (MAX_SOURCE_CHARS // 8 + 1))
    assert info.value.code == "dsl/too-long"
    deep = "".join("  " * i + "may:\n" for i in range(MAX_BLOCK_DEPTH + 1))
    deep += "  " * (MAX_BLOCK_DEPTH + 1) + "stop\n"
    with pytest.raises(DslError) as info:
        parse_program(deep)
    assert info.value.code == "dsl/too-deep"
    with pytest.raises(DslError) as info:
        parse_expression("1" + " + 1" * 1900)
    assert info.value.code == "dsl/too-deep"
    # redundant parentheses add no depth to the tree
    assert parse_expression("(" * 2000 + "1" + ")" * 2000) == ast.Num(1)


@pytest.mark.parametrize(
    ("source", "line", "col", "hint"),
    [
        ("discard(up too 1, from: hand)\n", 1, 9, "did you mean `up to 1`?"),
        ("x = 1\nshelve(at lest 2, from: hand)\n", 2, 8, "did you mean `at least 2`?"),
        ("for eech c in hand:\n  stop\n", 1, 1, "did you mean `for each`?"),
    ],
)
def test_misspelled_phrases_get_a_hint(source: str, line: int, col: int, hint: str) -> None:
    with pytest.raises(DslError) as caught:
        parse_program(source)
    assert (caught.value.line, caught.value.col) == (line, col)
    assert caught.value.message == f"syntax error: {hint}"


def test_named_where_and_category_codes_parse() -> None:
    where = parse_expression("shelf where c: c.letter == \"A\"")
    assert isinstance(where, ast.Where) and where.name == "c"
    assert parse_expression("@M") == ast.Ref("M")
    call = parse_expression("players(from: me)")
    assert isinstance(call, ast.Call) and call.args[0].name == "from"


def test_the_kept_grammar_tables_are_those_of_the_grammar() -> None:
    """grammar_tables.json was written from this grammar (run
    scripts/write_grammar_tables.py after changing it); with the Lark it names, the
    parser made from it gives the trees of a parser built from the grammar, on every
    effect, trigger, placement rule and score of the shipped content. (Lark numbers
    its states differently from one process to the next, so the tables themselves
    are compared by what they parse.)"""
    import json
    from importlib import resources

    from lark import __version__ as lark_version

    from exlibris import paths
    from exlibris.dsl import grammar_tables
    from exlibris.dsl.parser import _build, _grammar, _parser, grammar_digest
    from exlibris.yamlsafe import load_yaml_file

    text = resources.files("exlibris.dsl").joinpath(grammar_tables.FILE).read_text("utf-8")
    kept = json.loads(text, object_hook=grammar_tables._decode)
    assert kept["grammar_sha256"] == grammar_digest(_grammar()), \
        "grammar.lark changed: run python scripts/write_grammar_tables.py"
    if kept["lark"] != lark_version:
        pytest.skip(f"the kept tables are Lark {kept['lark']}'s; this is Lark {lark_version}")
    assert grammar_tables.load(lark_version, grammar_digest(_grammar())) is not None
    built = _build(_grammar())
    starts = {"effect": "program", "when": "trigger", "score": "expression"}
    sources: list[tuple[str, str]] = []

    def walk(value: object) -> None:
        if isinstance(value, dict):
            for key, item in value.items():
                if key in starts and isinstance(item, str):
                    sources.append((starts[key], item))
                elif key == "placement" and isinstance(item, list):
                    sources.extend(("rule", r) for r in item if isinstance(r, str))
                else:
                    walk(item)
        elif isinstance(value, list):
            for item in value:
                walk(item)

    for path in sorted(paths.content_dir().rglob("*.yaml")):
        walk(load_yaml_file(path).data)
    assert len(sources) > 100
    for start, source in sources:
        assert _parser().parse(source, start=start) == built.parse(source, start=start)


def test_tables_of_another_grammar_or_lark_are_not_used() -> None:
    from lark import __version__ as lark_version

    from exlibris.dsl import grammar_tables
    from exlibris.dsl.parser import _grammar, grammar_digest

    assert grammar_tables.load(lark_version, "0" * 64) is None
    assert grammar_tables.load("0.0.1", grammar_digest(_grammar())) is None
