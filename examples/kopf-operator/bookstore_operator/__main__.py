"""Run the Bookstore operator: ``python -m bookstore_operator``."""

import kopf

import bookstore_operator.handlers  # noqa: F401  (importing registers the handlers)


def main() -> None:
    """Serve Bookstores in every namespace of the cluster."""
    kopf.run(clusterwide=True, standalone=True)


if __name__ == "__main__":
    main()
