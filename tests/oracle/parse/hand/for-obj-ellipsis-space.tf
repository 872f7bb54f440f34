a = {for k, v in x : k => v ...}
