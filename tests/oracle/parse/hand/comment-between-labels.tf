resource /* c */ "a" "b" {
}
