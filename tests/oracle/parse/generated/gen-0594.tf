in /* c */ null /* c */ true /* c */ {
}

in /* c */ null /* c */ true /* c */ {
}

