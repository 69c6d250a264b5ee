"""Where papers come from, as a pipeline:

- `http`: polite requests to arXiv (pacing, total deadline, retries, User-Agent);
- `rss`: today's announcement from rss.arxiv.org; `arxiv_api`: searches of the arXiv API
  through the `arxiv` package (its public API), paced, retried and bounded by `http`;
- `feeds`: RSS/Atom bytes into clean Papers; the one Paper builder for feeds and API results;
- `calendar`: arXiv's today, weekends and holidays, announcement days;
- `loader`: what to show for a request: network, cache, a saved file or the bundled sample.
"""
