b_c ="\q".null
b_c ="\q".null
