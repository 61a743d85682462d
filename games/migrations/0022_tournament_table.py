# The standings as last sent to a tournament's sockets (#37): the base of the next
# frame's changed rows (games/tournaments/announce.py). Derived: filled on the
# next change or connect, nothing to migrate.

import django.db.models.deletion
from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('games', '0021_fair_results'),
    ]

    operations = [
        migrations.CreateModel(
            name='TournamentTable',
            fields=[
                ('tournament', models.OneToOneField(on_delete=django.db.models.deletion.CASCADE, primary_key=True, related_name='table', serialize=False, to='games.tournament')),
                ('version', models.BigIntegerField(default=0, verbose_name='version')),
                ('rows', models.JSONField(default=list, verbose_name='rows')),
            ],
        ),
    ]
