"""Klassrummet: servern som visar kursen för en hel klass (Voilà) och kommandot plump-teach."""
