a = "# not a comment"
