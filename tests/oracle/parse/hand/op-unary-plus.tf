x = +a
