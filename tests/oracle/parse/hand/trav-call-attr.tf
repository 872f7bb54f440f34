x = f().a
