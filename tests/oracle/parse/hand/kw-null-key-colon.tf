a = { null: 1 }
