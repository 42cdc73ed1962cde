"""Kursen som innehåll: elevlektionernas katalog, vad eleverna har gjort (resultaten), kursen utan kod och
lärarmaterialet. Ren Python; widgetarna som visar kursen ligger i plump_teach.ui."""
