b_c /* c */ for /* c */ "${x}" /* c */ {}
b_c /* c */ for /* c */ "${x}" /* c */ {}
