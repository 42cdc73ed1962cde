"""Det eleven ser och klickar på (ipywidgets): lektionernas hjälpare, "Prova själv", pusslen, protokollföraren och
spelbordet. Frågar regelmotorn, datorspelarna och pusslen; ritar och tar emot klick, men bestämmer inga regler."""
