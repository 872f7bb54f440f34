if /* c */ "l" /* c */ if /* c */ {
}
if "l" "l" {
}
é = ( "%{ else }"
)
