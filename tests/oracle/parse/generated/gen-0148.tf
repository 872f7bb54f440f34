in
é
"l"
{
}
