b_c /* c */ for /* c */ b_c /* c */ {}
b_c /* c */ for /* c */ b_c /* c */ {}
