for = /* c */ -x.*.*
