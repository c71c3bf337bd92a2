"""Curation: YAML -> curation facts.

reader.py (with rules.py and yamlload.py) reads and validates, apply.py writes, report.py lists
what curators should look at.
"""
