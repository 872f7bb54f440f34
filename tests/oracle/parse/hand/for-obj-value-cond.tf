a = {for k, v in x : k => v ? 1 : 2}
