a = "// not a comment"
