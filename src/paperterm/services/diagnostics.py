"""The model's provider as `paperterm doctor` checks it (issue 29: one door): litellm
imported lazily, the provider's key variables and default address, one request through the
scoring path, and the one line an error is said in. Imported only by the checks that need
it: loading it loads the provider boundary (arXiv's feed is checked with `days.arxiv_feed`)."""

from __future__ import annotations

from paperterm.scoring.provider import (
    Provider,
    Reply,
    aclose_llm_clients,
    describe,
    import_litellm,
)
from paperterm.scoring.providers import KEY_VARS, default_api_base, missing_keys

__all__ = ["KEY_VARS", "Provider", "Reply", "aclose_llm_clients", "default_api_base",
           "describe", "import_litellm", "missing_keys"]

