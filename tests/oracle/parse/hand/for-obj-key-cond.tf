a = {for k, v in x : v ? k : "z" => v}
