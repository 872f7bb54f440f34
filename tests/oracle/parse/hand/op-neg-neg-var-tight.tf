x = --a
