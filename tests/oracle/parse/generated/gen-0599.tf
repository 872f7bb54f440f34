if
"l"
{}
