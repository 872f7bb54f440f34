null = {null: "%{ else }", k = 0.5} ?-"%{ else }": 1.5e-3 ||0.5 # c
