a = "a${b}c"
