"""Services: the flows the CLI and the reader share, each written once."""
