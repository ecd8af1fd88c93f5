"""The benchmark harness of benchmarks/run.py, one job per module."""
