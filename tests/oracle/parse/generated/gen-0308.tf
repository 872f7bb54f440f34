if
é
if
{}

a é if {}
