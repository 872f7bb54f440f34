a = "# not a comment"
