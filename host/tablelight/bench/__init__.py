"""Benchmarks that print figures (``tablelight bench ...``); never timed tests."""
