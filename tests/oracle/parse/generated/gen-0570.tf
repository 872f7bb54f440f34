d-e /* c */ null /* c */ x1 /* c */ {}d-e null "" {}

b_c
"${x}"
""
{
} /* c
 */
