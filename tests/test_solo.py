"""Solo mode: set-up, the five rounds, the end against the public library, the CLI."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import pytest
from click.testing import CliRunner

from exlibris.agents import GreedyAgent, RandomAgent
from exlibris.agents.greedy import feed_value
from exlibris.agents.view import player_view
from exlibris.catalog import load_catalog
from exlibris.cli.main import cli
from exlibris.engine.events import EventLog
from exlibris.engine.flow import new_game, play
from exlibris.engine.solo import parse_difficulty
from exlibris.model.cards import BookCard
from exlibris.validation import resolve_settings


@pytest.fixture(scope="module")
def catalog():  # type: ignore[no-untyped-def]
    return load_catalog()


def solo_settings(catalog, **solo):  # type: ignore[no-untyped-def]
    settings = resolve_settings("solo", catalog.variants)
    if solo:
        settings = settings.model_copy(update={"solo": settings.solo.model_copy(update=solo)})
    return settings


def solo_game(catalog, seed=1, agent=None, **solo):  # type: ignore[no-untyped-def]
    log = EventLog(enabled=True)
    game = new_game(catalog, solo_settings(catalog, **solo), [agent or RandomAgent(seed)],
                    seed=seed, log=log, views=player_view, variant="solo")
    return game, log


def events(log, kind):  # type: ignore[no-untyped-def]
    return [r for r in log.records if r["event"] == kind]


def test_set_up_uses_the_solo_tiles_libraries_and_hides_three_categories(catalog) -> None:
    for seed in range(5):
        game, _ = solo_game(catalog, seed)
        state = game.state
        solo_tiles = {loc.id for loc in catalog.locations.values()
                      if loc.solo and loc.module == "base"}
        assert len(state.in_play) == 6 and len(state.location_stack) == 4  # SOLO-03
        assert {loc.id for loc in state.in_play} | set(state.location_stack) == solo_tiles
        assert not any(loc.permanent for loc in state.in_play)
        player = state.players[0]
        assert catalog.libraries[player.library].solo  # SOLO-05
        kinds = Counter(a.kind for a in player.assistants)
        assert kinds == {"special": 1, "standard": 3}  # SOLO-06
        assert len(player.hand) == 6  # SOLO-08
        categories = [state.prominent, state.banned, game.solo.public_focus, player.focus,
                      *game.solo.form]
        assert sorted(categories) == list("CFHMRS")  # SOLO-07: all six, each once


def test_a_group_may_list_its_own_solo_tiles_and_libraries(catalog) -> None:
    tiles = ["wishing-well", "book-seller", "garbage-dump", "community-centre",
             "yard-sale", "mystery-shack", "donation-centre"]
    game, _ = solo_game(catalog, 3, locations=tiles,
                        libraries=["forest-repository", "igloo-of-information"])
    state = game.state
    assert {loc.id for loc in state.in_play} | set(state.location_stack) == set(tiles)
    assert len(state.location_stack) == 1
    assert state.players[0].library in ("forest-repository", "igloo-of-information")


@pytest.mark.parametrize("level", [1, 4, 7])
def test_a_whole_game_five_rounds_against_the_public_library(catalog, level: int) -> None:
    game, log = solo_game(catalog, 11, GreedyAgent(11), difficulty=level)
    deck_before = len(game.state.deck)
    outcome = play(game)
    state = game.state
    assert outcome.rounds == 5  # SOLO-01
    discards = events(log, "solo-discard")
    assert [len(r["cards"]) for r in discards] == [level] * 5  # SOLO-09
    assert [r["round"] for r in events(log, "round")] == [1, 2, 3, 4, 5]
    reveals = [i for i, r in enumerate(log.records) if r["event"] == "reveal-category"]
    rounds_at = [max(r["round"] for r in log.records[:i] if r["event"] == "round")
                 for i in reveals]
    assert rounds_at == [2, 4]  # SOLO-10
    assert len(events(log, "eliminate")) == 4 * 2 + 1  # SOLO-15, SOLO-16
    assert not events(log, "reshuffle") and not state.in_play and not state.location_stack
    assert len(state.players[0].hand) == 0  # SOLO-18
    assert len(state.deck) + len(state.discard) + state.players[0].shelf.card_count() \
        <= deck_before + 6
    library = outcome.inspection.public_library
    assert library is not None
    tally = Counter(b for c in state.discard.cards if isinstance(c, BookCard) for b in c.books)
    assert library.tally == {code: tally.get(code, 0) for code in "CFHMRS"}  # SOLO-19, 21
    assert library.focus == 2 * tally[game.solo.public_focus]  # SOLO-25
    assert library.stability == 0  # SOLO-22
    assert outcome.inspection.win == (outcome.inspection.forms[0].total > library.total)


def test_the_player_sees_only_the_top_of_the_public_library(catalog) -> None:
    game, _ = solo_game(catalog, 2)
    game.moves.deal_to(game.state.discard, 3)
    view = player_view(game, 0)
    assert view.discard == (game.state.discard.cards[-1],)  # SOLO-11
    assert view.solo is not None and view.solo.public_size == 3
    assert view.solo.top == game.state.discard.cards[-1]
    assert view.solo.hidden == 2 and view.solo.tiles_left == 4


def test_greedy_would_rather_feed_the_library_banned_books_than_prominent_ones(catalog) -> None:
    game, _ = solo_game(catalog, 2)
    view = player_view(game, 0)
    prominent = BookCard("A", 1, (view.prominent,) * 2)
    banned = BookCard("B", 1, (view.banned,) * 2)
    assert feed_value(view, prominent) > 0 > feed_value(view, banned)


def test_difficulty_names_and_numbers() -> None:
    assert parse_difficulty("impossible") == 7 and parse_difficulty("Very Difficult") == 5
    assert parse_difficulty("3") == 3
    with pytest.raises(ValueError, match="unknown difficulty"):
        parse_difficulty("8")


def invoke(*args: str, lines: str | None = None):  # type: ignore[no-untyped-def]
    return CliRunner().invoke(cli, list(args), input=lines)


@pytest.mark.parametrize(("level", "seed", "variant"), [
    ("1", "3", "solo"), ("challenging", "7", "solo"), ("7", "1", "solo"),
    ("4", "2", "solo-job-faire"), ("2", "6", "solo-artifactorium"), ("5", "8", "solo-expanded")])
def test_headless_solo_is_deterministic_and_rescores_the_same(tmp_path: Path, level: str,
                                                              seed: str, variant: str) -> None:
    args = ["play", "--players", "1", "--seats", "greedy", "--difficulty", level,
            "--seed", seed, "--variant", variant, "--json"]
    table = tmp_path / "table.yaml"
    first = invoke(*args, "--table-out", str(table))
    assert first.exit_code == 0, first.output
    assert invoke(*args).output == first.output
    played = json.loads(first.output)
    scored = json.loads(invoke("score", "--json", str(table)).output)
    assert played["variant"] == variant and played["rounds"] == (5 if variant == "solo" else 6)
    assert played["difficulty"] == parse_difficulty(level) and played["ended"] == "final-round"
    assert scored["players"][0]["total"] == played["players"][0]["total"]
    assert scored["public_library"]["total"] == played["public_library"]["total"]
    assert scored["win"] == played["win"]


def test_a_solo_game_saves_resumes_and_replays_with_its_difficulty(tmp_path: Path) -> None:
    save = tmp_path / "solo.json"
    first = invoke("play", "--players", "1", "--seats", "human", "--difficulty", "5",
                   "--seed", "4", "--save", str(save), lines="1\n" * 6)
    assert first.exit_code == 0, first.output
    assert json.loads(save.read_text())["difficulty"] == 5
    wrong = invoke("play", "--resume", str(save), "--difficulty", "2")
    assert wrong.exit_code == 2 and "set up with 5" in wrong.output
    done = invoke("play", "--resume", str(save), "--json", lines="1\n" * 500)
    assert done.exit_code == 0, done.output
    data = json.loads(done.output[done.output.index("{"):])
    assert data["variant"] == "solo" and "win" in data
    replay = invoke("replay", str(save))
    assert replay.exit_code == 0, replay.output


def test_the_screen_shows_the_round_of_five_and_the_public_library_top_only(catalog) -> None:
    import io

    from rich.console import Console

    from exlibris.interactive.narrate import Narrator
    from exlibris.interactive.screen import Screen
    from exlibris.interactive.shelf_grid import category_styles

    game, log = solo_game(catalog, 6, difficulty=3)
    game.state.round = 1
    from exlibris.engine.flow import preparation

    preparation(game)
    out = io.StringIO()
    screen = Screen(game, 0, category_styles(catalog.categories), {}, 120)
    Console(file=out, width=120, color_system=None).print(screen.board())
    text = out.getvalue()
    pile = game.state.discard.cards
    assert "round 1 of 5" in text and "difficulty 3 (challenging)" in text
    assert "Public library (the discard pile): 3 cards" in text
    assert str(pile[-1]) in text and str(pile[0]) not in text  # SOLO-11: the top only
    assert "location tiles left in the stack 4" in text and "Public focus: face down" in text
    from exlibris.interactive.frame import board_line

    line = board_line(screen).plain  # the full-screen layout's town board
    assert line.startswith("Round 1 of 5 · solo, difficulty 3")
    assert f"public library 3, top {pile[-1]}" in line and "tiles left 4" in line
    told = Narrator(game, 0).lines(log.records)
    said = [line for line in told if line.startswith("To the public library from the deck:")]
    assert len(said) == 1 and all(card.name in said[0] for card in pile)


def test_solo_with_the_job_faire_six_rounds_and_volunteers(catalog) -> None:
    from exlibris.model.cards import ResumeCard

    settings = resolve_settings("solo-job-faire", catalog.variants)
    log = EventLog(enabled=True)
    game = new_game(catalog, settings, [GreedyAgent(5)], seed=5, log=log, views=player_view,
                    variant="solo-job-faire")
    in_play = [loc.id for loc in game.state.in_play]
    assert len(in_play) == 7 and "job-faire-tile" in in_play  # EXP-SOLO-08
    assert [a.kind for a in game.state.players[0].assistants] == ["standard"] * 3  # -02/03
    outcome = play(game)
    assert outcome.rounds == 6  # EXP-SOLO-01
    assert "job-faire-tile" not in [r.get("location") for r in events(log, "eliminate")]
    bids = [r["bid"] for r in events(log, "place") if r.get("location") == "job-faire-tile"]
    assert 0 not in bids  # EXP-SOLO-04
    shown = [len(r["cards"]) for r in events(log, "deal") if r["location"] == "job-faire-tile"]
    assert set(shown) == {1}  # EXP-SOLO-11: one card a round
    volunteers = sum(isinstance(c, ResumeCard) for c in game.state.discard.cards)
    unhired = [name for r in events(log, "discard-area") if r["location"] == "job-faire-tile"
               for name in r["cards"]]
    assert volunteers == len(unhired) > 0  # EXP-SOLO-13
    library = outcome.inspection.public_library
    assert library is not None
    assert library.volunteers == volunteers * game.solo.difficulty  # EXP-SOLO-17
    assert library.books == sum(len(c.books) for c in game.state.discard.cards
                                if isinstance(c, BookCard))  # EXP-SOLO-16


@pytest.mark.parametrize(("variant", "auctions", "tiles"), [
    ("solo-artifactorium", ["artifactorium-tile"], 7),
    ("solo-expanded", ["job-faire-tile", "artifactorium-tile"], 8)])
def test_solo_with_the_artifactorium_donations(catalog, variant: str, auctions: list[str],
                                                tiles: int) -> None:
    from exlibris.model.cards import ArtifactCard

    settings = resolve_settings(variant, catalog.variants)
    log = EventLog(enabled=True)
    game = new_game(catalog, settings, [GreedyAgent(3)], seed=3, log=log, views=player_view,
                    variant=variant)
    in_play = [loc.id for loc in game.state.in_play]
    assert len(in_play) == tiles and set(auctions) <= set(in_play)  # EXP-SOLO-08
    outcome = play(game)
    assert outcome.rounds == 6  # EXP-SOLO-01
    assert not set(auctions) & {r.get("location") for r in events(log, "eliminate")}
    bids = [r["bid"] for r in events(log, "place") if r.get("location") in auctions]
    assert 0 not in bids  # EXP-SOLO-05
    shown = [len(r["cards"]) for r in events(log, "deal")
             if r["location"] == "artifactorium-tile"]
    assert shown and set(shown) <= {1, 2} and shown[0] == 2  # EXP-SOLO-11 (the deck may run low)
    donated = sum(isinstance(c, ArtifactCard) for c in game.state.discard.cards)
    library = outcome.inspection.public_library
    assert library is not None and donated > 0
    assert library.artifacts == donated * game.solo.difficulty  # EXP-SOLO-18


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_solo_decks_hold_only_solo_compatible_cards(catalog, seed: int) -> None:
    """SA-00-2, ART-00-6, EXP-SOLO-07: the special assistant deck and the artifact deck
    of a solo game leave out every card whose content says ``solo: false`` (seed 3 dealt
    the Necromonkey's Paw and the Gelatinous Cube, seeds 1 and 2 the Goblin Sneak)."""
    settings = resolve_settings("solo-expanded", catalog.variants)
    game = new_game(catalog, settings, [RandomAgent(seed)], seed=seed,
                    variant="solo-expanded")
    state = game.state
    assistants = [c.assistant_id for c in state.assistant_deck.cards]
    artifacts = [c.artifact_id for c in state.artifact_deck.cards]
    assert assistants and artifacts
    assert all(catalog.assistants[a].solo for a in assistants), assistants
    assert all(catalog.artifacts[a].solo for a in artifacts), artifacts
    shown = [getattr(c, "assistant_id", None) or getattr(c, "artifact_id", None)
             for loc in state.in_play for c in loc.area.cards]
    assert "ghost" not in shown and "necromonkeys-paw" not in shown
