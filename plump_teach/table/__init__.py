"""Bordet utan widgetar: ett parti vid ett bord (platserna, vem som är elev och vem som är dator, turen, datorns drag,
tipsen, sparandet) och bordets sparfiler. Spelbordet i JupyterLab och klassens bord i `plump-teach` ritar det."""
