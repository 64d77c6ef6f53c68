"""The default wiring of a three-seat and a four-seat table (TOML, read by config.py)."""
