for = /* c */ {}
