x = a :: b()
