"""Enrichment: code links in abstracts, Hugging Face daily papers, Semantic Scholar."""
