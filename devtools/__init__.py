"""Tooling for tests, benchmarks and scripts (start the whole stack, a throwaway PostgreSQL): not shipped."""
