a = true == false
