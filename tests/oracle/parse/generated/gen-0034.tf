if {} if {}
