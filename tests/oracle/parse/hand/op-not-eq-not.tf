x = !a == !b
