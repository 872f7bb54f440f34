for = /* c */ !x
