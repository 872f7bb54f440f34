x = [1, "a", true, null, {}, []]
