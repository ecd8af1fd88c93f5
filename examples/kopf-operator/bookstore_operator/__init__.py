"""Bookstore operator written with kopf."""
