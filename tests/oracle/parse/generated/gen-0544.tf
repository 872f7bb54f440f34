for =
-f()
