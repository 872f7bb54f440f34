a = "ab"
