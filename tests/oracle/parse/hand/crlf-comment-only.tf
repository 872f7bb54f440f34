# only a comment
