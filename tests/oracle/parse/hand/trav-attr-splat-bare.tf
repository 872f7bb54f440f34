x = a.*
