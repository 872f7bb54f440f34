a = "%{ if a }"
