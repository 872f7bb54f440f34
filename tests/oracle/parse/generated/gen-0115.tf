a "l" {} # c
