if
""
"a\nb"
{}

