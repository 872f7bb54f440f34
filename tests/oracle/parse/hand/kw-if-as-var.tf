a = if
