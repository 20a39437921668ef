"""Playing at the terminal: the human agent, the screen, saved games, replay.

A person is just another agent. Every decision of every seat is recorded
(``record.py``); a game is resumed, undone or replayed by playing it again from
its seed with the recorded answers (``session.py``). The table is drawn with
rich (``screen.py``, ``shelf_grid.py``, ``narrate.py``) and answers are read a
line at a time, or with the arrow keys at a terminal (``terminal.py``).
"""
