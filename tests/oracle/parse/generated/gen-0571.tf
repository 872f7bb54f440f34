b_c
"${x}"
""
{
}d-e null "" {}

b_c
"${x}"
""
{
} /* c
 */
