a b-c {}
