if /* c */ "l" /* c */ if /* c */ {
}
if "${x}" "l" {
}
é = ( "%{ else }"
)
