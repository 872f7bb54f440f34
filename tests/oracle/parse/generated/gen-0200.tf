é true b_c {}

