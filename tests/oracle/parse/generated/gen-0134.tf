x1 /* c */ null /* c */ null /* c */ {
}

x1 /* c */ null /* c */ null /* c */ {
} x1 = !1
