x1 = !for
