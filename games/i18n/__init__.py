"""The site's languages: the JavaScript catalogue the ES modules translate with,
and the language of a socket (which no middleware sees).

Which language a request gets is Django's LocaleMiddleware (settings.py); the
strings themselves live where they are shown, wrapped in gettext, and their
Russian in locale/ru/LC_MESSAGES (docs/pages.md, "Language").

May import: Django, games.engine (to name its things) and games.common; never a
model or another room.
"""
