x = {for k, v in y : k => {for a, b in v : a => b}}
