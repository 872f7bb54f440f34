a = café.b
