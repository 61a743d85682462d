"""What every room shares: the refusal every service raises, and the field checks
that JSON bodies and socket frames go through.

May import: the standard library only (no Django models, no other room).
"""
