"""watchlint: find where a Kubernetes operator caches or streams every object of a kind."""

__version__ = "0.1.0"
