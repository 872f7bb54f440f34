true
{
}
