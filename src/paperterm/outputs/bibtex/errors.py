"""Exceptions of the BibTeX exporter."""

from __future__ import annotations


class BibError(Exception):
    """A .bib file that cannot be read, parsed or written; the message names file and line."""


class KeyPatternError(BibError, ValueError):
    """A citation key pattern with unknown placeholders or characters not allowed in keys."""
