a = "%{ if true }y"
