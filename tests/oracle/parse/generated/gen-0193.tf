é { k = 1 }
for {}for {}