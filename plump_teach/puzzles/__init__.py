"""Pusslen: uppgifter med ett rätt svar och en förklaring, skapade ur ett nummer så att samma nummer alltid ger
samma uppgift. Registret och det som sorterna delar (plump_teach.puzzles.registry), Plumps sorter (.bids, .play med
slutspelet i .endgame, .scoring) och Bismarcks sorter (.bismarck); att importera paketet registrerar alla."""
from . import registry, endgame, bids, play, scoring, bismarck  # noqa: F401  (registrerar sorterna)
