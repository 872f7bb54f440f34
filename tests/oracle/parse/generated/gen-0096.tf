b_c b_c "${x}" {}
