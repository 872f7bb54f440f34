b_c d-e {}

