"""What every room shares: the refusal every service raises, and the field checks
that JSON bodies and socket frames go through.

May import: Django and the standard library; no other room, no models.
"""
