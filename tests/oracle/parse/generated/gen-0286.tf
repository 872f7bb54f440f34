d-e = {}
for /* c */ if /* c */ "l" /* c */ {}é null {} 