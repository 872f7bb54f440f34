a = in
