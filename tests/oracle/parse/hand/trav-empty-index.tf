x = a[]
