if
é
if
{}

if
é
if
{}

