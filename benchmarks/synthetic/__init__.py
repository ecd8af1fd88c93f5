"""The synthetic operator monorepo of benchmarks/generate.py, one kind of file per module."""
