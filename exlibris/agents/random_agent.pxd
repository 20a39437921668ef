# Read only by Cython (hatch_build.py): the cimport types the annotated parameter of
# ``decide`` (its first line turns annotation_typing on): its size is a struct field.

from exlibris.engine.decisions cimport Decision
