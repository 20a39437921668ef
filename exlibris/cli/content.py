"""`exlibris content`: list and show the shipped content."""

from __future__ import annotations

import json

import click

from exlibris.cli.output import USER_ERROR, echo
from exlibris.cli.own_content import activate, content_option

KIND_NAMES = ("location", "library", "assistant", "artifact", "module", "variant",
              "categories", "books")


@click.group()
def content() -> None:
    """List and show the shipped content and rules, and your own (--content)."""


@content.command("list")
@click.option("--kind", type=click.Choice(KIND_NAMES), help="Only entries of this kind.")
@click.option("--json", "as_json", is_flag=True, help="Print JSON.")
@content_option
def list_(kind: str | None, as_json: bool, content: tuple) -> None:
    """List content entries: kind, id and name."""
    rows = []
    for entry in activate(content).entries:
        model = entry.model
        if kind and model.kind != kind:
            continue
        rows.append({"kind": model.kind, "id": entry.id,
                     "name": getattr(model, "name", entry.id),
                     "number": getattr(model, "number", None)})
    rows.sort(key=lambda r: (r["kind"], r["number"] or 0, r["id"]))
    if as_json:
        echo(json.dumps(rows, indent=2))
        return
    for row in rows:
        number = f"#{row['number']} " if row["number"] else ""
        echo(f"{row['kind']:<10} {row['id']:<32} {number}{row['name']}")


@content.command()
@click.argument("entry_id")
@click.option("--json", "as_json", is_flag=True, help="Print JSON.")
@content_option
def show(entry_id: str, as_json: bool, content: tuple) -> None:
    """Show one entry by its id, as written in its file."""
    from exlibris.dsl.checker import did_you_mean

    catalog = activate(content)
    matches = [e for e in catalog.entries if e.id == entry_id]
    if not matches:
        ids = [e.id for e in catalog.entries]
        echo(f"exlibris: no content entry {entry_id!r}{did_you_mean(entry_id, ids)}",
                   err=True)
        raise SystemExit(USER_ERROR)
    entry = matches[0]
    if as_json:
        # a variant's settings as written: only what it changes
        data = entry.model.model_dump(mode="json", exclude_unset=entry.kind == "variant")
        echo(json.dumps(data, indent=2))
    else:
        echo(f"# {entry.path.name}")
        echo(entry.loaded.text.rstrip())
