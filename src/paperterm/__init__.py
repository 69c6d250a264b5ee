"""paperterm: triage the day's arXiv papers in your terminal."""

__version__ = "0.1.0"
