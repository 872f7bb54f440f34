a‍b = 1
