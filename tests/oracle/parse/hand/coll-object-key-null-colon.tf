x = {null: 1}
