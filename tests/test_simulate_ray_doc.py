"""docs/simulate.md's recipe for a local Ray cluster says what Ray 2.60 really does:
checked against Ray's own code and command line, without starting a cluster (the
slow test of tests/test_simulate_provenance.py starts one)."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

DOC = Path(__file__).resolve().parent.parent / "docs" / "simulate.md"


def recipe() -> list[str]:
    """The command lines of the doc's "A local Ray cluster" block (continuations
    joined)."""
    text = DOC.read_text(encoding="utf-8")
    section = text.split("### A local Ray cluster", 1)[1].split("\n\n", 2)[1]
    lines = [line.strip() for line in section.replace("\\\n", " ").splitlines()]
    return [re.sub(r"\s+#.*$", "", line) for line in lines if line]


def ray_python(code: str, home: Path, **env: str) -> str:
    """Run ``code`` in a fresh Python with Ray, a HOME of its own and no RAY_ settings
    but ``env``; its standard output."""
    clean = {k: v for k, v in os.environ.items() if not k.startswith("RAY_")}
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          env={**clean, "HOME": str(home), **env}, timeout=120, check=False)
    assert done.returncode == 0, done.stderr[-2000:]
    return done.stdout.strip()


def test_the_recipe_starts_ray_with_a_token_and_the_client_uses_it() -> None:
    lines = recipe()
    assert lines[0].startswith("ray get-auth-token --generate")
    start = next(line for line in lines if " ray start " in f" {line} ")
    client = next(line for line in lines if "exlibris simulate" in line)
    assert start.startswith("RAY_AUTH_MODE=token ") and client.startswith("RAY_AUTH_MODE=token ")
    assert "--address 127.0.0.1:" in client and lines[-1] == "ray stop"


def test_every_ray_option_of_the_recipe_exists() -> None:
    pytest.importorskip("ray")
    from click.testing import CliRunner
    from ray.scripts.scripts import cli as ray_cli

    for line in recipe():
        words = line.split()
        while words and "=" in words[0]:  # an environment setting before the command
            words = words[1:]
        if not words or words[0] != "ray":
            continue
        command = words[1]
        words = words[1:]
        options = {w.split("=", 1)[0] for w in words[1:] if w.startswith("--")}
        helped = CliRunner().invoke(ray_cli, [command, "--help"])
        assert helped.exit_code == 0, helped.output
        for option in options:
            assert option in helped.output, f"ray {command} has no {option}"


def test_ray_start_turns_authentication_on_only_with_the_mode_or_a_token(tmp_path: Path
                                                                           ) -> None:
    """What `ray start --head` calls (ray/scripts/scripts.py) decides, in a HOME with
    no token, then with the mode, then with a token file."""
    pytest.importorskip("ray")
    decide = ("from ray._private.authentication.authentication_token_setup import "
              "maybe_enable_token_auth_if_token_available as f; print(f(False))")
    assert ray_python(decide, tmp_path) == "False"  # authentication off
    assert ray_python(decide, tmp_path, RAY_AUTH_MODE="token") == "True"
    refuse = ("from ray._private.authentication.authentication_token_setup import "
              "ensure_token_if_auth_enabled as f\n"
              "try:\n    f(None, create_token_if_missing=False)\n"
              "except Exception as e:\n    print('refused', type(e).__name__)")
    assert ray_python(refuse, tmp_path, RAY_AUTH_MODE="token").startswith("refused")
    (tmp_path / ".ray").mkdir()
    (tmp_path / ".ray" / "auth_token").write_text("0" * 64)
    assert ray_python(decide, tmp_path) == "True"


def test_a_loopback_node_address_is_replaced_by_the_machines(tmp_path: Path) -> None:
    """Ray binds no port to 127.0.0.1 on request: `ray start --node-ip-address
    127.0.0.1` is resolved to the machine's address (where it has one)."""
    pytest.importorskip("ray")
    resolved = ray_python("from ray._private.services import resolve_ip_for_localhost; "
                          "print(resolve_ip_for_localhost('127.0.0.1'))", tmp_path)
    if resolved.startswith("127."):
        pytest.skip("this machine has no address but the loopback")
    assert resolved != "127.0.0.1"
    assert "listen on every interface" in DOC.read_text(encoding="utf-8")
