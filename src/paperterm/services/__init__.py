"""Services the command line and the reader both call: one entry point per flow, no Textual."""
