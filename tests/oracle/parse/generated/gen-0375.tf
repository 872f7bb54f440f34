b_c {}
