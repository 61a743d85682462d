"""The site's pages around the games: home, practice and replay pages, history, joining.

views.py renders, history.py reads a player's own pages, forms.py holds the
forms, refusals.py words the refusals the views share, notfound.py gives the site's
404 page for every unknown thing, DEBUG or not.

May import: every other room (it is the top of the stack), never imported by one.
"""
