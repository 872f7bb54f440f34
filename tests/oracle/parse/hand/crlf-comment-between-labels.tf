resource /* c */ "a" "b" {
}
