é true "${x}" { k = 1 }
for {}for {}