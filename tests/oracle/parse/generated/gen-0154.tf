é /* c */ d-e /* c */ { k = 1 } # c
b_c ="\q".null
