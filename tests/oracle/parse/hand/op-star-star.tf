a = x**y
