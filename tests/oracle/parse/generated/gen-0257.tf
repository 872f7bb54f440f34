in { k = 1 }

in "l" { k = 1 }

