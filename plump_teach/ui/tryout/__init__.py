"""Små widgetar för elevlektionernas "Prova själv": eleven ändrar kort, bud eller trumf och motorn svarar."""
