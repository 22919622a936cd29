"""Drop-in replacements for other skill libraries, backed by the skilldeck engine.

``skilldeck.compat.skills_ref`` replaces the Agent Skills reference library (skills-ref
0.1.1): change ``import skills_ref`` to ``from skilldeck.compat import skills_ref``.
"""
