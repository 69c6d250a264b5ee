"""What leaves paperterm: BibTeX, other reference formats, Zotero, the digest and its delivery,
enrichment."""
