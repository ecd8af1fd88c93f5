"""Entry point for `python -m watchlint`."""

from __future__ import annotations

from watchlint.launch import main

main()
