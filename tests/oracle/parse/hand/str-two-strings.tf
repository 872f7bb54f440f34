a = "a" "b"
