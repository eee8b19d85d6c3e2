"""Test helpers for code that uses linlayout: Hypothesis strategies (``strategies``)."""
