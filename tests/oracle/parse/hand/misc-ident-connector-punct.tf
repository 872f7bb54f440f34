a‿b = 1
