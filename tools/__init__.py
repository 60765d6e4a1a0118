"""Developer tools: importing reference maps, a throwaway PostgreSQL server for tests and benchmarks."""
