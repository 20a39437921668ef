"""Balance runs: many bot games, played on local cores or on Ray, one row per game
and player, and a report a designer reads (``exlibris simulate``).

The pieces, in the order data flows: ``plan`` (which games: cells of variant and
player count, seeds, seats), ``play`` (one batch of games in a worker, the catalog
compiled once per process), ``backends`` (inline, a process pool, or Ray),
``runner`` (resume, journal, failures, progress), ``rows`` (writing .parquet, .csv,
.jsonl), ``stats`` and ``figures`` (the numbers), ``report`` (HTML and JSON).
"""
