if {}
