null /* c */ {}

