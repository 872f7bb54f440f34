a b c {}
