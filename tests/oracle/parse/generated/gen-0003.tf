b_c {}
