null = 1?"s":"s"
