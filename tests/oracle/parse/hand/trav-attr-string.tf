x = a."b"
