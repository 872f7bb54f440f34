if
é
if
{}

a {}
