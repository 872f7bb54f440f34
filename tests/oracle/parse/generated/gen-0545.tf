true
"l"
"${x}"
{}

