a b_c "${x}" {}
