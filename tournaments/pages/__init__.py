"""Public championship pages: their words, brackets, cached fragments."""
