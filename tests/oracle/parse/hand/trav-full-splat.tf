x = a[*].b
