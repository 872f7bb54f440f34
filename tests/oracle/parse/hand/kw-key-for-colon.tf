a = { for: 1 }
