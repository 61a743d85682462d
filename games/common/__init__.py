"""What every room shares: the refusal every service raises, and the field checks
that JSON bodies and socket frames go through.

cardnames.py names cards as players say them, for server messages and the pages.

May import: the standard library and django.utils.translation (no Django
models, no other room).
"""
