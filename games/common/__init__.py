"""What every room shares: the refusal every service raises, and the field checks
that JSON bodies and socket frames go through.

May import: Django (its translation: refusals are worded in the request's language)
and the standard library; no models, no other room.
"""
