"""Datorspelarna och coachen: bud och kort med skäl i ord, sökning med provgivar, Tips och analysen efter en giv.
Frågar bara regelmotorn (plump_teach.engine) vad som är tillåtet och vad som ger poäng."""
