"""What every room shares: the refusal every service raises, and the field checks
that JSON bodies and socket frames go through.

May import: the standard library and Django's translation (refusals are worded
in the request's language); no Django models, no other room.
"""
