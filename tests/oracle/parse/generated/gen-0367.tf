a =f().a
