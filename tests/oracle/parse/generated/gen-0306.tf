if
é
if
{}

in null for { k = 1 }

