in /* c */ null /* c */ true /* c */ {}
d-e if {
}

