true = ![]true = ![]

