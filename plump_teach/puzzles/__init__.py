"""Pusslen: uppgifter med ett rätt svar och en förklaring, skapade ur ett nummer så att samma nummer alltid ger
samma uppgift. Plumps sorter och registret (plump_teach.puzzles.plump) och Bismarcks sorter
(plump_teach.puzzles.bismarck); att importera paketet registrerar båda."""
from . import plump, bismarck  # noqa: F401  (registrerar sorterna)
