"""One loaded day: its entries, the shown score and the one order, marks, repeats and
revisions, the session."""
