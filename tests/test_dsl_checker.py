"""Static checks: did-you-mean for unknowns, argument kinds, triggers vs timing."""

from __future__ import annotations

import pytest

from exlibris.dsl import parse_expression, parse_program, parse_rule, parse_trigger
from exlibris.dsl.checker import (
    Catalog,
    check_program,
    check_rule,
    check_score,
    check_trigger,
    program_names,
)
from exlibris.dsl.vocabulary import EVENTS

CATALOG = Catalog({"monster-manuals": "category", "reference-texts": "category",
                   "diviners-hut": "location", "ghost": "assistant"})


def problems(source: str, *, location: bool = True, event: str | None = None) -> list[tuple]:
    names = program_names(location=location, event=EVENTS[event] if event else None)
    return [(e.code, e.line, e.col, e.message)
            for e in check_program(parse_program(source), names, CATALOG)]


def test_a_clean_program_has_no_problems() -> None:
    assert problems(
        "gone = discard(any, from: hand | shelf)\n"
        "n = books(gone, categories(area))\n"
        "drawn = draw(n / 2)\n"
        "shelve(up to 2, from: drawn)\n"
        "for each p in opponents_of(me):\n"
        "  as p:\n"
        "    paid = discard(1, from: hand | shelf, to: area)\n"
        "winner = best([claim(me, @monster-manuals)], by: books(area, it.category),\n"
        "              tiebreak: players(from: me, direction: \"counterclockwise\"))\n"
        "as winner.player:\n"
        "  take(all, from: area where has(it, winner.category))\n"
    ) == []


@pytest.mark.parametrize(
    ("source", "code", "fragment"),
    [
        ("drew(1)\n", "dsl/unknown-verb", "did you mean 'draw'"),
        ("shelve(1, from: hnad)\n", "dsl/unknown-name", "did you mean 'hand'"),
        ("x = has(first(hand), @monster-manual)\n", "dsl/unknown-id",
         "did you mean 'monster-manuals'"),
        ("x = count(hand where it.leter == \"A\")\n", "dsl/unknown-attribute",
         "did you mean 'letter'"),
        ("discard(1, form: hand)\n", "dsl/unknown-keyword", "did you mean 'from'"),
        ("draw(hand)\n", "dsl/arg-kind", "wants a number"),
        ("draw(any)\n", "dsl/amount-misplaced", "amount"),
        ("discard(1)\n", "dsl/missing-arg", "'from:'"),
        ("draw(1, 2)\n", "dsl/too-many-args", "1 positional argument"),
        ("if count(hand):\n  stop\n", "dsl/condition-type", "true or false"),
        ("as 3:\n  stop\n", "dsl/arg-kind", "'as' wants a player"),
        ("repeat hand times:\n  stop\n", "dsl/arg-kind", "number"),
        ("hand = 1\n", "dsl/reserved-name", "built-in"),
        ("choose one:\n  option \"a\": stop\n  option \"a\": stop\n",
         "dsl/duplicate-option", "labelled 'a'"),
        ("x = card\n", "dsl/unknown-name", "'card'"),
        ("choose one:\n  option \"a\" about 3: stop\n", "dsl/arg-kind",
         "an option's 'about' wants cards"),
        ("x = count(me.placed_this_round)\n", "dsl/arg-kind", "collection"),
        ("x = this.__class__\n", "dsl/private-attribute", "never attributes"),
    ],
)
def test_each_class_of_language_error(source: str, code: str, fragment: str) -> None:
    found = problems(source)
    assert found, source
    assert found[0][0] == code
    assert fragment in found[0][3]


def test_trigger_names_are_in_scope_only_with_their_event() -> None:
    assert problems("entomb(card)\n", event="shelve") == []
    assert problems("entomb(card)\n")[0][0] == "dsl/unknown-name"


def test_positions_point_at_the_offending_token() -> None:
    found = problems("draw(1)\nx = count(hnad)\n")
    assert found[0][1:3] == (2, 11)


def test_scores_are_pure_numbers() -> None:
    assert check_score(parse_expression("books(adjacent(this), @monster-manuals)"), CATALOG) == []
    errors = check_score(parse_expression("count(draw(1))"), CATALOG)
    assert errors[0].code == "dsl/verb-in-expression"
    errors = check_score(parse_expression("adjacent(this)"), CATALOG)
    assert errors[0].code == "dsl/score-type"


def test_placement_rules() -> None:
    rule = parse_rule("deny if placing == this and target == @diviners-hut")
    assert check_rule(rule, CATALOG) == []
    assert check_rule(parse_rule("deny if draw(1)"), CATALOG)[0].code == "dsl/verb-in-expression"


@pytest.mark.parametrize(
    ("trigger", "timing", "code"),
    [
        ("placed at location", "on-placement", None),
        ("arrival by opponent", "reaction", None),
        ("instead of shelve by this", "ongoing", None),
        ("modify payment by owner at @diviners-hut", "ongoing", None),
        ("after draw by me once per turn during placement", "ongoing", None),
        ("placd", "on-placement", "dsl/unknown-event"),
        ("arrival by opponent", "on-placement", "dsl/trigger-timing"),
        ("placed", "ongoing", "dsl/trigger-timing"),
        ("instead of arrival", "ongoing", "dsl/trigger-mode"),
        ("modify shelve", "ongoing", "dsl/trigger-mode"),
        ("placed", "end-of-game", "dsl/trigger-timing"),
        ("arrival by opponnent", "reaction", "dsl/unknown-subject"),
        ("placed at hmoe", "on-placement", "dsl/unknown-place"),
        ("after draw during plaement", "ongoing", "dsl/unknown-phase"),
        ("after visit at @diviners-hat", "ongoing", "dsl/unknown-id"),
        ("after shelve if draw(1)", "ongoing", "dsl/verb-in-expression"),
    ],
)
def test_triggers_fit_their_timing(trigger: str, timing: str, code: str | None) -> None:
    errors = check_trigger(parse_trigger(trigger), timing, CATALOG)
    assert [e.code for e in errors][:1] == ([code] if code else [])


def test_setting_names_are_checked_against_the_rules() -> None:
    catalog = Catalog(CATALOG.ids, frozenset({"guild_move_is_visit", "mystery_shack_takes"}))
    names = program_names(location=True)
    ok = parse_program('x = setting("guild_move_is_visit")\n')
    assert check_program(ok, names, catalog) == []
    typo = check_program(parse_program('x = setting("guild_move_is_visti")\n'), names, catalog)
    assert typo[0].code == "dsl/unknown-setting"
    assert "did you mean 'guild_move_is_visit'" in typo[0].message
    bare = check_program(parse_program("x = setting(hand)\n"), names, catalog)
    assert bare[0].code == "dsl/arg-kind"


@pytest.mark.parametrize(
    ("source", "code", "words"),
    [
        ("n = sum(hand, it.order)\ndraw(n)\n", None, ""),
        ("n = sum(hand, it.nope)\n", "dsl/unknown-attribute", "'nope'"),
        ("n = count(shelf where c: count(adjacent(c) where d: d.letter == "
         "next_letter(c.letter)) > 0)\n", None, ""),
        ("n = count(shelf where me: true)\n", "dsl/reserved-name", "'me'"),
        ("n = letter_distance(\"A\", 3)\n", "dsl/arg-kind", "a string"),
        ("n = books(shelf, @M)\n", None, ""),
        ("n = books(shelf, M)\n", "dsl/unknown-name", "@M"),
        ("rearrange_shelf(only: \"swap\")\n", None, ""),
        ("rearrange_shelf(only: \"swop\")\n", "dsl/unknown-rearrangement", "'swap'"),
    ],
)
def test_language_additions_are_checked(source: str, code: str | None, words: str) -> None:
    found = problems(source)
    if code is None:
        assert found == []
    else:
        assert [p[0] for p in found] == [code], found
        assert words in found[0][3]


@pytest.mark.parametrize("limit", ["turn", "round", "game"])
def test_once_per_limits(limit: str) -> None:
    trigger = parse_trigger(f"after shelve by owner once per {limit}")
    assert trigger.once_per == limit
    assert check_trigger(trigger, "reaction", CATALOG) == []


def test_an_unknown_limit_says_which_to_write() -> None:
    errors = check_trigger(parse_trigger("after shelve once per rund"), "reaction", CATALOG)
    assert [e.code for e in errors] == ["dsl/unknown-limit"]
    assert "did you mean 'round'" in errors[0].message


@pytest.mark.parametrize(
    ("when", "holder", "words"),
    [
        ("after placed at location", "artifact", "never placed"),
        ("arrival by opponent at location", "artifact", "never placed and never arrives"),
        ("after shelve at home", "artifact", "stays on its shelf"),
        ("arrival by opponent at home", "assistant", "never at home"),
        ("after draw during preparation", "assistant", "during preparation"),
        ("modify payment during placement", "assistant", "resolution"),
    ],
)
def test_triggers_that_can_never_fire(when: str, holder: str, words: str) -> None:
    from exlibris.dsl.checker import check_reachable

    errors = check_reachable(parse_trigger(when), holder)
    assert [e.code for e in errors] == ["dsl/never-fires"]
    assert words in errors[0].message


@pytest.mark.parametrize("when", ["after shelve by owner", "arrival by opponent at location",
                                  "after draw during placement", "visit at home"])
def test_triggers_that_can_fire_are_left_alone(when: str) -> None:
    from exlibris.dsl.checker import check_reachable

    assert check_reachable(parse_trigger(when), "assistant") == []
