a = "// not a comment"
