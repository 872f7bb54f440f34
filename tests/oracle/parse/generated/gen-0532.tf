if if "${x}" {} x1
{}if {}
