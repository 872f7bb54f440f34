if if if {} x1
{}if if if {}
