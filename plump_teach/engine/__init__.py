"""Regelmotorn: korten, sticken, reglerna, partierna av Plump och Bismarck, spelläget för datorspelare och
protokollet. Ren Python utan andra paket (den körs också i Pyodide); inget här importerar något från lagren ovanför
(bots, puzzles, course, ui, classroom)."""
